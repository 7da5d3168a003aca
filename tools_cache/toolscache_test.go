package toolscache_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/gameassist/gameassist/gamedata"
	"github.com/gameassist/gameassist/gcsdb"
	"github.com/gameassist/gameassist/gcsdb/gcsdbtest"
	"github.com/gameassist/gameassist/tool"
	toolscache "github.com/gameassist/gameassist/tools_cache"
)

func discard() *slog.Logger { return slog.New(slog.DiscardHandler) }

func newExecutor(tb testing.TB, s *toolscache.Snapshot) *tool.Executor {
	tb.Helper()
	reg := tool.NewRegistry()
	tools, err := s.Tools()
	if err != nil {
		tb.Fatal(err)
	}
	if err := reg.Register(tools...); err != nil {
		tb.Fatalf("Register: %v", err)
	}
	ex, err := tool.NewExecutor(reg, tool.ExecutorOptions{MaxAttempts: 1, MaxResultChars: 20000})
	if err != nil {
		tb.Fatal(err)
	}
	return ex
}

func TestNewSnapshotRefusesNilDeps(t *testing.T) {
	db := gcsdbtest.Open(t, gcsdbtest.Game())
	if _, err := toolscache.NewSnapshot(context.Background(), nil, discard()); err == nil {
		t.Fatal("nil db accepted")
	}
	if _, err := toolscache.NewSnapshot(context.Background(), db, nil); err == nil {
		t.Fatal("nil logger accepted")
	}
}

func TestListTools(t *testing.T) {
	snap, err := toolscache.NewSnapshot(context.Background(), gcsdbtest.Open(t, gcsdbtest.Game()), discard())
	if err != nil {
		t.Fatal(err)
	}
	tools, err := snap.Tools()
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range tools {
		s := tl.Spec()
		if s.Category != tool.CategoryCache || s.CacheDuration != 0 || len(s.Parameters) == 0 || s.Description == "" {
			t.Errorf("bad spec %+v", s)
		}
	}
	ex := newExecutor(t, snap)
	big := strings.Repeat("k", 100*1024)
	tests := []struct {
		name, tool, args string
		ok               bool
		want, notWant    []string
	}{
		{
			"all champions", "cache_get_champions_list", `{}`, true,
			[]string{`"total":5`, `"last_updated":"`, `{"id":1001,"name":"Kaelith","faction":"Sunguard","rarity":"Legendary","affinity":"Force","role":"Attack"}`},
			nil,
		},
		{"prefix", "cache_get_champions_list", `{"name_prefix": "kae"}`, true, []string{`"total":1`, "Kaelith"}, []string{"Mirelle"}},
		{"prefix in french", "cache_get_champions_list", `{"name_prefix": "ÉLOÏSE LA"}`, true, []string{`"total":1`, `"id":1003`}, nil},
		{"faction by name", "cache_get_champions_list", `{"faction": "hollow court"}`, true, []string{`"total":2`}, []string{"Kaelith"}},
		{"faction in german", "cache_get_champions_list", `{"faction": "Sonnenwacht", "rarity": "Epic"}`, true, []string{`"total":1`, "Mirelle"}, nil},
		{"unknown faction", "cache_get_champions_list", `{"faction": "Nobody"}`, false, []string{"Sunguard", "Hollow Court"}, nil},
		{"affinity and role", "cache_get_champions_list", `{"affinity": "Magic", "role": "HP"}`, true, []string{`"total":1`, "Tamsin"}, nil},
		{"paging", "cache_get_champions_list", `{"limit": 2, "offset": 1}`, true, []string{`"total":5`, `"returned":2`, `"next_offset":3`}, nil},
		{"past the end", "cache_get_champions_list", `{"offset": 50}`, true, []string{`"total":5`, `"returned":0`}, nil},
		{"no match", "cache_get_champions_list", `{"name_prefix": "zz"}`, true, []string{`"total":0`, "No champions match"}, nil},
		{"injection prefix", "cache_get_champions_list", `{"name_prefix": "' OR '1'='1"}`, true, []string{`"total":0`}, nil},
		{"unicode prefix", "cache_get_champions_list", `{"name_prefix": "魔法 🐉"}`, true, []string{`"total":0`}, nil},
		{"empty prefix", "cache_get_champions_list", `{"name_prefix": ""}`, true, []string{`"total":5`}, nil},
		{"100 KB prefix", "cache_get_champions_list", `{"name_prefix": "` + big + `"}`, false, nil, nil},
		{"bad enum", "cache_get_champions_list", `{"rarity": "Mythic"}`, false, nil, nil},
		{"wrong type", "cache_get_champions_list", `{"limit": "10"}`, false, nil, nil},
		{"limit too big", "cache_get_champions_list", `{"limit": 1000}`, false, nil, nil},
		{"unknown field", "cache_get_champions_list", `{"color": "red"}`, false, nil, nil},
		{"not an object", "cache_get_champions_list", `[]`, false, nil, nil},
		{"bosses", "cache_get_bosses_list", `{}`, true, []string{`"total":2`, `"dungeon":"Sunken Halls"`, `"difficulty":"Hard"`}, nil},
		{"bosses word prefix", "cache_get_bosses_list", `{"name_prefix": "king"}`, true, []string{`"total":1`, "Drowned King"}, nil},
		{"bosses difficulty", "cache_get_bosses_list", `{"difficulty": "normal"}`, true, []string{`"total":1`, "Ember Wyrm"}, nil},
		{"bosses injection", "cache_get_bosses_list", `{"difficulty": "x'; DROP TABLE bosses; --"}`, true, []string{`"total":0`}, nil},
		{"factions", "cache_get_factions_list", `{}`, true, []string{`"total":2`, `"champions":3`, `"alignment":"Chaos"`}, nil},
		{"factions prefix", "cache_get_factions_list", `{"name_prefix": "cour"}`, true, []string{`"total":1`, "Hollow Court"}, nil},
		{"factions unknown field", "cache_get_factions_list", `{"faction": "x"}`, false, nil, nil},
		{"dungeons", "cache_get_dungeons_list", `{"kind": "campaign"}`, true, []string{`"total":1`, "Ash Peak", `"boss":"Ember Wyrm"`}, nil},
		{"gear sets", "cache_get_gear_sets_list", `{"best_for": "Attack"}`, true, []string{`"total":1`, "Savage", "ATK +15%"}, nil},
		{"gear sets wrong type", "cache_get_gear_sets_list", `{"best_for": 1}`, false, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.tool+"/"+tt.name, func(t *testing.T) {
			r := ex.Execute(context.Background(), tool.Call{Name: tt.tool, Arguments: json.RawMessage(tt.args)})
			out := r.ForLLM()
			if r.OK() != tt.ok {
				t.Fatalf("status %s, want ok=%v: %.500s", r.Status, tt.ok, out)
			}
			if !r.OK() && r.Guidance == "" {
				t.Fatalf("error without guidance: %s", out)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("lacks %q: %.1500s", w, out)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(out, w) {
					t.Errorf("contains %q: %.1500s", w, out)
				}
			}
		})
	}
}

func TestEntityNames(t *testing.T) {
	snap, err := toolscache.NewSnapshot(context.Background(), gcsdbtest.Open(t, gcsdbtest.Game()), discard())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		list []toolscache.Named
		id   int64
		want map[string]string
	}{
		{"champion", snap.Champions(), 1003, map[string]string{"en": "Éloïse", "fr": "Éloïse la Brave", "de": "Elöise"}},
		{"boss", snap.Bosses(), 5001, map[string]string{"en": "Drowned King", "fr": "Roi Noyé", "de": "Ertrunkener König"}},
		{"faction", snap.Factions(), 102, map[string]string{"en": "Hollow Court", "fr": "Cour Creuse", "de": "Hohler Hof"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, n := range tt.list {
				if n.ID != tt.id {
					continue
				}
				for loc, want := range tt.want {
					if n.Names[loc] != want {
						t.Fatalf("names[%s] = %q, want %q", loc, n.Names[loc], want)
					}
				}
				if n.Name != tt.want["en"] {
					t.Fatalf("name %q", n.Name)
				}
				return
			}
			t.Fatalf("id %d not listed", tt.id)
		})
	}
	if len(snap.Champions()) != 5 || len(snap.Bosses()) != 2 || len(snap.Factions()) != 2 {
		t.Fatal("wrong list sizes")
	}
}

func TestRefreshPicksUpChanges(t *testing.T) {
	ctx := context.Background()
	path := gcsdbtest.Prepare(t, gcsdbtest.Game())
	ro, err := gcsdb.OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	snap, err := toolscache.NewSnapshot(ctx, ro, discard())
	if err != nil {
		t.Fatal(err)
	}
	first := snap.Version()

	changed := gcsdbtest.Game()
	changed.Champions = append(changed.Champions, gamedata.Champion{
		ID: 1006, Key: "newcomer", Name: "Newcomer",
		FactionID: 101, Rarity: "Rare", Affinity: "Void", Role: "Attack",
	})

	steps := []struct {
		name        string
		game        *gamedata.Game
		refresh     func(t *testing.T) error
		wantCount   int
		wantVersion func(string) bool
	}{
		{
			"unchanged refresh keeps the snapshot", nil, func(*testing.T) error { return snap.Refresh(ctx) }, 5,
			func(v string) bool { return v == first },
		},
		{
			"explicit refresh after reload", &changed, func(*testing.T) error { return snap.Refresh(ctx) }, 6,
			func(v string) bool { return v != first },
		},
		{"background refresh", func() *gamedata.Game { g := gcsdbtest.Game(); return &g }(), func(*testing.T) error {
			// Two ticks: the second is taken only once the first tick's
			// refresh is done.
			rctx, cancel := context.WithCancel(ctx)
			ticks := make(chan time.Time)
			done := make(chan struct{})
			go func() { snap.RunTicks(rctx, ticks); close(done) }()
			ticks <- time.Time{}
			ticks <- time.Time{}
			cancel()
			<-done
			return nil
		}, 5, func(v string) bool { return v == first }},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			if st.game != nil {
				if _, err := gcsdb.Prepare(ctx, path, *st.game, discard()); err != nil {
					t.Fatal(err)
				}
			}
			if err := st.refresh(t); err != nil {
				t.Fatalf("refresh: %v", err)
			}
			if n := len(snap.Champions()); n != st.wantCount {
				t.Fatalf("champions = %d, want %d", n, st.wantCount)
			}
			if !st.wantVersion(snap.Version()) {
				t.Fatalf("version %q (first %q)", snap.Version(), first)
			}
			ex := newExecutor(t, snap)
			r := ex.Execute(ctx, tool.Call{Name: "cache_get_champions_list", Arguments: json.RawMessage(`{"name_prefix": "newc"}`)})
			wantTotal := `"total":0`
			if st.wantCount == 6 {
				wantTotal = `"total":1`
			}
			if !strings.Contains(r.ForLLM(), wantTotal) {
				t.Fatalf("list after refresh: %s", r.ForLLM())
			}
		})
	}
}

func TestRefreshFailureKeepsSnapshot(t *testing.T) {
	ctx := context.Background()
	db := gcsdbtest.Open(t, gcsdbtest.Game())
	snap, err := toolscache.NewSnapshot(ctx, db, discard())
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if err := snap.Refresh(ctx); err == nil {
		t.Fatal("refresh on a closed database succeeded")
	}
	if len(snap.Champions()) != 5 {
		t.Fatal("failed refresh dropped the snapshot")
	}
}
