package tool

import (
	"encoding/json"
	"testing"
)

// TestEnvelopeCarriesEncodedData: ForLLM and Stored write data that is
// JSON already into the envelope as is, and the bytes are those of the
// envelope encoded whole (data scanned and compacted by encoding/json):
// for compact data, for data with whitespace (compacted as before), for
// strings that hold quotes, escapes or the data member's own text, and
// for data that is not JSON text yet.
func TestEnvelopeCarriesEncodedData(t *testing.T) {
	datas := []any{
		json.RawMessage(`{"champions":{"columns":["id","name"],"rows":[[1,"Kaelith"],[2,"Vonoelle"]]}}`),
		json.RawMessage(`{"a": 1, "b" : [1, 2]}`),
		json.RawMessage("{\n\t\"a\":\"x y\"\r\n}"),
		json.RawMessage(`{"q":"say \"hi\" \\ then \u00e9 <b> & \"data\":null"}`),
		json.RawMessage(`"a string, with \" and \\\\"`),
		json.RawMessage(`[1,2.50,-3e2,true,false,null]`),
		json.RawMessage(`null`),
		json.RawMessage(`"Feu d'artifice: 火 ∑"`),
		map[string]any{"z": 1, "a": []int{1, 2}},
		nil,
	}
	messages := []string{"", "plain", `has "data":null inside`, `ends with a backslash \`, "<tag> & more"}
	for _, d := range datas {
		for _, m := range messages {
			r := Result{Status: StatusSuccess, Message: m, Data: d, LLMCacheDuration: 3, Guidance: "g",
				InternalInfo: InternalInfo{FunctionName: "f", Parameters: json.RawMessage(`{"x":1}`), Rows: 2}}
			wantLLM, err := marshal(llmView{Status: r.Status, Message: r.Message, Data: r.Data,
				LLMCacheDuration: r.LLMCacheDuration, Guidance: r.Guidance})
			if err != nil {
				t.Fatal(err)
			}
			if got := r.ForLLM(); got != string(wantLLM) {
				t.Errorf("ForLLM, data %s, message %q:\n got %s\nwant %s", d, m, got, wantLLM)
			}
			wantStored, err := marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			got, err := r.Stored()
			if err != nil || string(got) != string(wantStored) {
				t.Errorf("Stored, data %s, message %q:\n got %s (%v)\nwant %s", d, m, got, err, wantStored)
			}
		}
	}
}

func BenchmarkForLLM(b *testing.B) {
	r := Result{Status: StatusSuccess, Message: "Kaelith.", Data: json.RawMessage(`{"champion":{"id":1001,"name":"Kaelith","faction":"Emberguard","rarity":"Legendary","affinity":"Magic","role":"Attack","skills":[` +
		`{"name":"Flame Lance","description":"Attacks 1 enemy 3 times. Each hit has a 25% chance of placing a 50% Decrease DEF debuff for 2 turns."},` +
		`{"name":"Ember Veil","description":"Places a 30% Increase ATK buff on all allies for 2 turns, then grants an extra turn."},` +
		`{"name":"Inferno","description":"Attacks all enemies. Ignores 20% of the target's DEF. Places a Burn debuff for 3 turns."}],` +
		`"stats":{"hp":16515,"atk":1432,"def":958,"spd":103,"crit_rate":15,"crit_dmg":63,"res":30,"acc":10}}}`)}
	b.ReportAllocs()
	for b.Loop() {
		_ = r.ForLLM()
		if _, err := r.Stored(); err != nil {
			b.Fatal(err)
		}
	}
}
