package data

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/gamedata"
	"github.com/gameassist/gameassist/gamedata/wiki"
)

// The committed game.json must be exactly what the generator produces for
// the default seed, so it cannot drift from the code.
func TestGameJSONMatchesGenerator(t *testing.T) {
	want, err := gamedata.EncodeJSON(gamedata.Generate(gamedata.DefaultSeed))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(GameJSON(), want) {
		t.Fatal("data/game.json differs from Generate(DefaultSeed); run: go run ./cmd/gendata")
	}
}

func TestEvalJSONMatchesGenerator(t *testing.T) {
	g := gamedata.Generate(gamedata.DefaultSeed)
	docs, err := wiki.Render(g)
	if err != nil {
		t.Fatal(err)
	}
	qs, err := wiki.EvalSet(g, docs)
	if err != nil {
		t.Fatal(err)
	}
	want, err := gamedata.EncodeJSON(qs)
	if err != nil {
		t.Fatal(err)
	}
	got, err := files.ReadFile("rag_eval.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("data/rag_eval.json differs from the generator; run: go run ./cmd/gendata")
	}
	loaded, err := EvalSet()
	if err != nil {
		t.Fatal(err)
	}
	if len(loaded) != len(qs) {
		t.Errorf("EvalSet returned %d queries, want %d", len(loaded), len(qs))
	}
}

func TestSampleValid(t *testing.T) {
	g, err := Sample()
	if err != nil {
		t.Fatal(err)
	}
	if err := gamedata.Validate(g); err != nil {
		t.Fatal(err)
	}
	if g.Champions[0].Name != "Kaelith" || len(g.Champions) < 150 {
		t.Errorf("unexpected sample: %d champions, first %q", len(g.Champions), g.Champions[0].Name)
	}
}

func TestGameJSONReturnsCopy(t *testing.T) {
	a := GameJSON()
	a[0] = 'X'
	if GameJSON()[0] == 'X' {
		t.Fatal("GameJSON exposes the embedded bytes")
	}
}

func TestDecodeRejectsBadInput(t *testing.T) {
	good := string(GameJSON())
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"empty", "", "decode game"},
		{"not json", "champions", "decode game"},
		{"unknown field", `{"version":"1","cheat":true}`, "unknown field"},
		{"trailing data", good + `{}`, "after the JSON document"},
		{"wrong type", `{"champions":"many"}`, "decode game"},
		{"broken reference", strings.Replace(good, `"faction_id": 101`, `"faction_id": 777`, 1), "faction_id 777"},
		{"id out of range", strings.Replace(good, `"id": 5001`, `"id": 42`, 1), "out of range"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode(strings.NewReader(tt.in))
			if err == nil {
				t.Fatal("Decode accepted bad input")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not mention %q", err, tt.want)
			}
		})
	}
}

func TestDecodeEvalSetRejectsBadInput(t *testing.T) {
	tests := []struct {
		name string
		in   string
	}{
		{"not a list", `{"query":"x"}`},
		{"empty query", `[{"query":" ","expected":["a"],"paraphrase":false}]`},
		{"no expected", `[{"query":"x","expected":[],"paraphrase":false}]`},
		{"empty doc id", `[{"query":"x","expected":[""],"paraphrase":false}]`},
		{"unknown field", `[{"query":"x","expected":["a"],"score":1}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := DecodeEvalSet(strings.NewReader(tt.in)); err == nil {
				t.Fatal("DecodeEvalSet accepted bad input")
			}
		})
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"version":"1","factions":[{"id":101,"name":"A","names":{"en":"A"}}]}`))
	f.Add([]byte(`{"champions":[{"id":1001,"faction_id":9}]}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"bosses":[{"id":5001,"names":{"en":""},"recommended_counters":[1]}]} x`))
	f.Fuzz(func(t *testing.T, b []byte) {
		g, err := Decode(bytes.NewReader(b))
		if err == nil {
			if verr := gamedata.Validate(g); verr != nil {
				t.Fatalf("Decode returned an invalid game: %v", verr)
			}
		}
	})
}

// The demo player owns 30 champions of the sample game, is at chapter 5,
// and lacks the best counter of the Fire Knight (so the demo shows an
// owned-first answer that names one to get).
func TestDemoPlayer(t *testing.T) {
	g, err := Sample()
	if err != nil {
		t.Fatal(err)
	}
	known := map[int64]bool{}
	for _, c := range g.Champions {
		known[int64(c.ID)] = true
	}
	var st struct {
		Progress struct{ Chapter, Level int } `json:"progress"`
		Roster   []struct{ ID, Level, Stars int64 }
		Gear     []struct{ ID int64 }
	}
	if err := json.Unmarshal(DemoPlayer(), &st); err != nil {
		t.Fatal(err)
	}
	if st.Progress.Chapter != 5 || len(st.Roster) != 30 || len(st.Gear) == 0 {
		t.Fatalf("demo player: chapter %d, %d champions, %d gear sets", st.Progress.Chapter, len(st.Roster), len(st.Gear))
	}
	seen := map[int64]bool{}
	for _, r := range st.Roster {
		if !known[r.ID] || seen[r.ID] || r.Level < 1 || r.Stars < 1 || r.Stars > 6 {
			t.Errorf("roster entry %+v", r)
		}
		seen[r.ID] = true
	}
	if seen[1152] {
		t.Error("the demo player owns the Fire Knight's best counter")
	}
}
