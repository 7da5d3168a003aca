package wiki

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/gamedata"
)

// parseFrontMatter splits a rendered document into its front matter fields
// and body, the way a content loader reads it.
func parseFrontMatter(md string) (map[string]string, string, error) {
	rest, ok := strings.CutPrefix(md, "---\n")
	if !ok {
		return nil, "", fmt.Errorf("no opening ---")
	}
	head, body, ok := strings.Cut(rest, "\n---\n")
	if !ok {
		return nil, "", fmt.Errorf("no closing ---")
	}
	fields := map[string]string{}
	for _, line := range strings.Split(head, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			return nil, "", fmt.Errorf("bad front matter line %q", line)
		}
		if _, dup := fields[k]; dup {
			return nil, "", fmt.Errorf("duplicate key %q", k)
		}
		fields[k] = strings.TrimSpace(v)
	}
	return fields, body, nil
}

func render(t *testing.T) (gamedata.Game, []Document) {
	t.Helper()
	g := gamedata.Generate(gamedata.DefaultSeed)
	docs, err := Render(g)
	if err != nil {
		t.Fatal(err)
	}
	return g, docs
}

func TestCategoryCounts(t *testing.T) {
	_, docs := render(t)
	count := map[string]int{}
	for _, d := range docs {
		count[d.Category]++
	}
	tests := []struct {
		category string
		min      int
	}{
		{CategoryChampion, 150},
		{CategoryBoss, 15},
		{CategoryDungeon, 12},
		{CategoryFaction, 12},
		{CategoryUX, 11},
		{CategoryFAQ, 40},
		{CategoryMechanics, 20},
		{CategoryPatchNotes, 5},
	}
	for _, tt := range tests {
		t.Run(tt.category, func(t *testing.T) {
			if count[tt.category] < tt.min {
				t.Errorf("%d documents, want at least %d", count[tt.category], tt.min)
			}
		})
	}
	if len(count) != len(Categories()) {
		t.Errorf("categories %v, want exactly %d", count, len(Categories()))
	}
}

func TestFrontMatterOnEveryDoc(t *testing.T) {
	_, docs := render(t)
	entityCats := []string{CategoryChampion, CategoryBoss, CategoryDungeon, CategoryFaction}
	for _, d := range docs {
		fields, body, err := parseFrontMatter(d.Markdown())
		if err != nil {
			t.Errorf("%s: %v", d.Path, err)
			continue
		}
		for _, k := range []string{"doc_id", "title", "category", "entity", "entity_id", "locale"} {
			if _, ok := fields[k]; !ok {
				t.Errorf("%s: front matter lacks %s", d.Path, k)
			}
		}
		if fields["doc_id"] != d.DocID || fields["title"] == "" || fields["locale"] != "en" || fields["category"] != d.Category {
			t.Errorf("%s: front matter %v", d.Path, fields)
		}
		if !strings.HasPrefix(d.Path, dirOf(d.Category)+"/") || !strings.HasSuffix(d.Path, ".md") {
			t.Errorf("%s: wrong directory for category %s", d.Path, d.Category)
		}
		if slices.Contains(entityCats, d.Category) {
			id, err := strconv.Atoi(fields["entity_id"])
			if err != nil || id != d.EntityID || fields["entity"] == "" {
				t.Errorf("%s: entity %q entity_id %q", d.Path, fields["entity"], fields["entity_id"])
			}
		} else if fields["entity_id"] != "" {
			t.Errorf("%s: entity_id %q on a page without an entity", d.Path, fields["entity_id"])
		}
		if !strings.HasPrefix(body, "# ") || strings.Contains(body, "\n\n\n") || !strings.HasSuffix(body, "\n") || strings.HasSuffix(body, "\n\n") {
			t.Errorf("%s: body is not clean markdown", d.Path)
		}
	}
}

func TestSectionsConsistentPerCategory(t *testing.T) {
	_, docs := render(t)
	want := map[string][]string{
		CategoryChampion:   {"Biography", "Base Stats", "Abilities", "Recommended Gear", "Strengths and Weaknesses", "Tips"},
		CategoryBoss:       {"Overview", "Phases", "Mechanics", "Recommended Team", "Tips"},
		CategoryDungeon:    {"Overview", "Boss", "Rewards", "Tips"},
		CategoryFaction:    {"Overview", "Homeland", "Champions", "Playstyle"},
		CategoryUX:         {"What You See", "How To Use It", "Tips"},
		CategoryFAQ:        {"Answer"},
		CategoryPatchNotes: {"Highlights", "New Content", "Balance Changes", "Bug Fixes"},
	}
	for _, d := range docs {
		var got []string
		for _, line := range strings.Split(d.Body, "\n") {
			if h, ok := strings.CutPrefix(line, "## "); ok {
				got = append(got, h)
			}
		}
		if w, ok := want[d.Category]; ok && !slices.Equal(got, w) {
			t.Errorf("%s: sections %v, want %v", d.Path, got, w)
		}
		if d.Category == CategoryMechanics && len(got) < 2 {
			t.Errorf("%s: only %d sections", d.Path, len(got))
		}
	}
}

func TestUXPagesCoverScreens(t *testing.T) {
	_, docs := render(t)
	screens := []string{
		"MainMenuPresenter", "ChampionFeatureModelsPresenter", "ChampionCollectionPresenter",
		"BossBattlePresenter", "TeamSetupPresenter", "DungeonSelectPresenter", "GearInventoryPresenter",
		"FactionOverviewPresenter", "MarketPresenter", "MasteryTreePresenter", "CampaignMapPresenter",
	}
	byID := map[string]Document{}
	for _, d := range docs {
		byID[d.DocID] = d
	}
	for _, s := range screens {
		d, ok := byID["ux-"+strings.ToLower(s)]
		if !ok {
			t.Errorf("no ux page for %s", s)
			continue
		}
		if d.Entity != s || !strings.Contains(d.Body, s) {
			t.Errorf("ux page for %s has entity %q", s, d.Entity)
		}
	}
}

// Entity pages mention only ids and names that exist.
func TestBossPagesNameTheirCounters(t *testing.T) {
	g, docs := render(t)
	byID := map[string]Document{}
	for _, d := range docs {
		byID[d.DocID] = d
	}
	names := map[int]string{}
	for _, c := range g.Champions {
		names[c.ID] = c.Name
	}
	for _, b := range g.Bosses {
		d := byID["boss-"+b.Key]
		for _, id := range b.RecommendedCounters {
			if !strings.Contains(d.Body, "**"+names[id]+"**") {
				t.Errorf("boss page %s does not list counter %s", b.Key, names[id])
			}
		}
	}
}

func TestRenderDeterministic(t *testing.T) {
	_, a := render(t)
	_, b := render(t)
	if !slices.Equal(a, b) {
		t.Fatal("two renders differ")
	}
}
