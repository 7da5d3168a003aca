package gcsdb_test

import (
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/gamedata"
	"github.com/gameassist/gameassist/gcsdb"
	"github.com/gameassist/gameassist/gcsdb/gcsdbtest"
	"github.com/gameassist/gameassist/gcsdb/resolve"
)

func newGame(t *testing.T, g gamedata.Game) *gcsdb.Game {
	t.Helper()
	game, err := gcsdb.NewGame(gcsdbtest.Open(t, g))
	if err != nil {
		t.Fatal(err)
	}
	return game
}

func TestResolve(t *testing.T) {
	game := newGame(t, gcsdbtest.Game())
	ctx := context.Background()
	tests := []struct {
		name     string
		kind     gcsdb.Kind
		query    string
		upto     resolve.How
		wantID   int64
		wantSugg string
	}{
		{name: "exact", kind: gcsdb.KindChampion, query: "Kaelith", upto: resolve.Folded, wantID: 1001},
		{name: "case folded", kind: gcsdb.KindChampion, query: "KAELITH", upto: resolve.Folded, wantID: 1001},
		{name: "accents folded", kind: gcsdb.KindChampion, query: "eloise", upto: resolve.Folded, wantID: 1003},
		{name: "french name", kind: gcsdb.KindFaction, query: "garde solaire", upto: resolve.Folded, wantID: 101},
		{name: "german name with umlaut", kind: gcsdb.KindBoss, query: "Ertrunkener Konig", upto: resolve.Folded, wantID: 5001},
		{name: "key", kind: gcsdb.KindBoss, query: "drowned_king", upto: resolve.Folded, wantID: 5001},
		{name: "kind respected", kind: gcsdb.KindGearSet, query: "Bulwark", upto: resolve.Folded, wantID: 8002},
		{name: "typo refused under folded", kind: gcsdb.KindChampion, query: "Kaelit", upto: resolve.Folded, wantSugg: "Kaelith"},
		{name: "typo resolved under typo", kind: gcsdb.KindChampion, query: "Kealith", upto: resolve.Typo, wantID: 1001},
		{name: "dropped letter", kind: gcsdb.KindMastery, query: "Iron Skn", upto: resolve.Typo, wantID: 9002},
		{name: "partial", kind: gcsdb.KindBoss, query: "drowned", upto: resolve.Partial, wantID: 5001},
		{name: "unknown", kind: gcsdb.KindChampion, query: "Nobody At All", upto: resolve.Typo},
		{name: "injection shaped", kind: gcsdb.KindChampion, query: "' OR '1'='1", upto: resolve.Typo},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := game.Resolve(ctx, tt.kind, tt.query, tt.upto)
			if err != nil {
				t.Fatal(err)
			}
			if r.ID != tt.wantID {
				t.Fatalf("Resolve(%q) = %+v, want id %d", tt.query, r, tt.wantID)
			}
			if tt.wantSugg != "" && (len(r.Suggestions) == 0 || r.Suggestions[0] != tt.wantSugg) {
				t.Fatalf("suggestions %v, want %q first", r.Suggestions, tt.wantSugg)
			}
		})
	}
}

func TestFindNames(t *testing.T) {
	game := newGame(t, gcsdbtest.Game())
	ms, err := game.FindNames(context.Background(), "Is Kaelith or Eloise better against the Roi Noyé in Sunken Hals?")
	if err != nil {
		t.Fatal(err)
	}
	var got []int64
	for _, m := range ms {
		got = append(got, m.ID)
	}
	if want := []int64{1001, 1003, 5001, 7001}; !slices.Equal(got, want) {
		t.Fatalf("FindNames = %v, want %v", got, want)
	}
}

// TestNameIndex checks the index the offline responder reads: entities by
// id with their display names by locale, and examples of a kind in id order.
func TestNameIndex(t *testing.T) {
	game := newGame(t, gcsdbtest.Game())
	idx, err := game.NameIndex(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	boss, ok := idx.ByID("", 5001)
	if !ok || boss.Kind != string(gcsdb.KindBoss) || boss.Display["fr"] != "Roi Noyé" {
		t.Fatalf("ByID(5001) = %+v, %v; want the boss with its French name Roi Noyé", boss, ok)
	}
	if _, ok := idx.ByID(string(gcsdb.KindChampion), 5001); ok {
		t.Fatal("ByID found a boss id among champions")
	}
	if cs := idx.OfKind(string(gcsdb.KindChampion), 2); len(cs) != 2 || cs[0].ID != 1001 || cs[1].ID <= cs[0].ID {
		t.Fatalf("OfKind(champion, 2) = %+v", cs)
	}
}

// prepareGame writes g to a database at path and opens the read model
// over it, read-only.
func prepareGame(t *testing.T, path string, g gamedata.Game) *gcsdb.Game {
	t.Helper()
	ctx := context.Background()
	if _, err := gcsdb.Prepare(ctx, path, g, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	db, err := gcsdb.OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	game, err := gcsdb.NewGame(db)
	if err != nil {
		t.Fatal(err)
	}
	return game
}

func TestResolverFollowsDataVersion(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "gcs.db")
	g := gamedata.Game{Factions: []gamedata.Faction{{ID: 101, Key: "a", Name: "Old Name"}}}
	game := prepareGame(t, path, g)
	if r, err := game.Resolve(ctx, gcsdb.KindFaction, "old name", resolve.Folded); err != nil || r.ID != 101 {
		t.Fatalf("before reload: %+v, %v", r, err)
	}
	g.Factions[0].Name = "New Name"
	if _, err := gcsdb.Prepare(ctx, path, g, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	if r, err := game.Resolve(ctx, gcsdb.KindFaction, "new name", resolve.Folded); err != nil || r.ID != 101 {
		t.Fatalf("after reload: %+v, %v", r, err)
	}
	if r, _ := game.Resolve(ctx, gcsdb.KindFaction, "old name", resolve.Folded); r.Found() {
		t.Fatal("the old name still resolves after a reload")
	}
}

// TestCountersFollowTheOneRule ranks every boss of a generated game through
// the read model and recomputes each score in Go from the content with
// gamedata.CounterFacts.Score, the rule the generator uses too.
func TestCountersFollowTheOneRule(t *testing.T) {
	g := gamedata.Generate(7)
	game := newGame(t, g)
	ctx := context.Background()
	champs := map[int64]gamedata.Champion{}
	for _, c := range g.Champions {
		champs[int64(c.ID)] = c
	}
	checked := 0
	for _, b := range g.Bosses {
		list, boss, total, err := game.Counters(ctx, int64(b.ID), gcsdb.MaxCounters)
		if err != nil {
			t.Fatal(err)
		}
		if boss.Name != b.Name {
			t.Fatalf("boss %q, want %q", boss.Name, b.Name)
		}
		// The candidates: recommended, strong against, or hitting a weakness.
		want := 0
		for _, c := range g.Champions {
			f := facts(c, b)
			if f.DesignerRank > 0 || f.StrongAgainst || f.WeaknessHits > 0 {
				want++
			}
		}
		if total != want {
			t.Fatalf("boss %s: %d candidates, want %d", b.Name, total, want)
		}
		for i, rc := range list {
			f := facts(champs[rc.ID], b)
			if rc.Score != f.Score() {
				t.Fatalf("boss %s, %s: score %d, the rule gives %d (%+v)", b.Name, rc.Name, rc.Score, f.Score(), f)
			}
			if i > 0 && list[i-1].Score < rc.Score {
				t.Fatalf("boss %s: not best first at %d", b.Name, i)
			}
			checked++
		}
	}
	if checked < 50 {
		t.Fatalf("only %d rankings checked", checked)
	}
}

func facts(c gamedata.Champion, b gamedata.Boss) gamedata.CounterFacts {
	f := gamedata.Fit(c, b)
	if i := slices.Index(b.RecommendedCounters, c.ID); i >= 0 {
		f.DesignerRank = i + 1
	}
	f.StrongAgainst = slices.Contains(c.StrongAgainst, b.ID)
	return f
}

func TestCountersLimitAndCache(t *testing.T) {
	game := newGame(t, gcsdbtest.Game())
	ctx := context.Background()
	all, _, total, err := game.Counters(ctx, 5001, gcsdb.MaxCounters)
	if err != nil {
		t.Fatal(err)
	}
	one, _, total2, err := game.Counters(ctx, 5001, 1)
	if err != nil {
		t.Fatal(err)
	}
	if total != total2 || len(one) != 1 || len(all) != total || one[0] != all[0] {
		t.Fatalf("limit 1 = %+v of %d; all %+v of %d", one, total2, all, total)
	}
	if !sort.SliceIsSorted(all, func(i, j int) bool { return all[i].Score > all[j].Score }) {
		t.Fatalf("ranking not sorted: %+v", all)
	}
}

// TestChampionViewsFollowDataVersion: a champion's view is read once per
// data version. A change the data version does not announce is not seen;
// the next version's data is. Each call gets its own copy.
func TestChampionViewsFollowDataVersion(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "gcs.db")
	g := gcsdbtest.Game()
	game := prepareGame(t, path, g)
	id := int64(g.Champions[0].ID)
	first, ok, err := game.Champion(ctx, id)
	if err != nil || !ok || first.Stats.HP != g.Champions[0].Stats.HP {
		t.Fatalf("first read: %+v, %v, %v", first.Stats, ok, err)
	}
	first.Skills[0].Name, first.Tags, first.Names["fr"] = "changed", nil, "changed"

	rw, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rw.Close() })
	if _, err := rw.ExecContext(ctx, `UPDATE champions SET hp = hp + 1 WHERE id = ?`, id); err != nil {
		t.Fatal(err)
	}
	again, _, err := game.Champion(ctx, id)
	if err != nil || again.Stats.HP != g.Champions[0].Stats.HP {
		t.Fatalf("same data version: hp %d (%v), want the view read before (%d)", again.Stats.HP, err, g.Champions[0].Stats.HP)
	}
	if again.Skills[0].Name == "changed" || again.Names["fr"] == "changed" {
		t.Error("a caller's change to its copy reached the kept view")
	}
	again.Skills[0].Effects[0], again.StrongAgainst = "changed", nil
	if third, _, _ := game.Champion(ctx, id); third.Skills[0].Effects[0] == "changed" || third.StrongAgainst == nil {
		t.Error("a change to a kept view's copy reached the kept view")
	}
	if _, err := rw.ExecContext(ctx, `UPDATE meta SET value = value || '+1' WHERE key = ?`, gcsdb.MetaDataVersion); err != nil {
		t.Fatal(err)
	}
	next, _, err := game.Champion(ctx, id)
	if err != nil || next.Stats.HP != g.Champions[0].Stats.HP+1 {
		t.Fatalf("new data version: hp %d (%v), want %d", next.Stats.HP, err, g.Champions[0].Stats.HP+1)
	}
}

// TestViewChecksTheVersionOnce: a view answers names as of the data
// version it checked, while the game itself sees a change committed by
// another connection on its next call; a view of an old version keeps no
// champion it reads.
func TestViewChecksTheVersionOnce(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "gcs.db")
	g := gcsdbtest.Game()
	game := prepareGame(t, path, g)
	id := int64(g.Champions[0].ID)
	old, err := game.View(ctx)
	if err != nil {
		t.Fatal(err)
	}
	rw, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rw.Close() })
	for _, q := range []string{
		`UPDATE champions SET name = 'Renamed', hp = hp + 1 WHERE id = ?`,
		`UPDATE meta SET value = value || '+1' WHERE key = '` + gcsdb.MetaDataVersion + `'`,
	} {
		args := []any{id}
		if !strings.Contains(q, "?") {
			args = nil
		}
		if _, err := rw.ExecContext(ctx, q, args...); err != nil {
			t.Fatal(err)
		}
	}
	if r := old.Resolve(gcsdb.KindChampion, g.Champions[0].Name, resolve.Folded); r.ID != id {
		t.Fatalf("the old view lost its name index: %+v", r)
	}
	if r, err := game.Resolve(ctx, gcsdb.KindChampion, "renamed", resolve.Folded); err != nil || r.ID != id {
		t.Fatalf("the game missed the new version: %+v, %v", r, err)
	}
	if c, _, err := old.Champion(ctx, id); err != nil || c.Stats.HP != g.Champions[0].Stats.HP+1 {
		t.Fatalf("old view's champion: hp %d, %v", c.Stats.HP, err)
	}
	if _, err := rw.ExecContext(ctx, `UPDATE champions SET hp = hp + 1 WHERE id = ?`, id); err != nil {
		t.Fatal(err)
	}
	if c, _, err := game.Champion(ctx, id); err != nil || c.Stats.HP != g.Champions[0].Stats.HP+2 {
		t.Fatalf("a champion read through an old view was kept for the new version: hp %d, %v", c.Stats.HP, err)
	}
}

// TestVersion: the data version as stored, "" once it is gone, and the
// caller's context ends the check.
func TestVersion(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "gcs.db")
	g := gcsdbtest.Game()
	game := prepareGame(t, path, g)
	want, err := gcsdb.Version(g)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := game.Version(ctx); err != nil || v != want {
		t.Fatalf("version %q, %v; want %q", v, err, want)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := game.Version(cancelled); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled check: %v", err)
	}
	rw, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rw.Close() })
	if _, err := rw.ExecContext(ctx, `DELETE FROM meta WHERE key = ?`, gcsdb.MetaDataVersion); err != nil {
		t.Fatal(err)
	}
	if v, err := game.Version(ctx); err != nil || v != "" {
		t.Fatalf("version without a row: %q, %v", v, err)
	}
}
