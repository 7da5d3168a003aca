package main

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"testing"
)

// Fuzz targets for every JSON body the server accepts. Any input must get
// an answer the OpenAPI document allows, below 500, and a JSON error
// object when refused. Each target wires one app for all its inputs; in
// the bodies, $SID stands for a live session's id.

// fuzzFixture is an app for a fuzz target; its logs are discarded (a fuzz
// function may not log through its *testing.F).
func fuzzFixture(f *testing.F) *fixture {
	f.Helper()
	return newFixture(f, appSetup{logger: slog.New(slog.DiscardHandler)})
}

// checkFuzzAnswer fails t unless the answer is below 500 and, when
// refused, a JSON error object.
func checkFuzzAnswer(t *testing.T, resp *http.Response, body []byte, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%v", err)
	}
	if resp.StatusCode >= 500 {
		t.Fatalf("status %d: %.500s", resp.StatusCode, body)
	}
	if resp.StatusCode >= 400 {
		var e errorBody
		if jerr := json.Unmarshal(body, &e); jerr != nil || e.Error.Code == "" || e.Error.Message == "" {
			t.Fatalf("status %d without an error object: %.500s", resp.StatusCode, body)
		}
	}
}

func FuzzChatBody(f *testing.F) {
	fx := fuzzFixture(f)
	s := fx.newSession(f)
	for _, seed := range []string{
		`{"session_id":"$SID","message":"Tell me about Kaelith"}`,
		`{"session_id":"$SID","message":"is Kaelith good against the Fire Knight?","stream":true}`,
		`{"session_id":"$SID","message":"what now?","screen":{"name":"BossBattlePresenter","data":{"BossConfigId":5001,"Phase":2,"Team":[1001]}}}`,
		`{"session_id":"$SID","message":"hi","screen":{"name":"ChampionFeatureModelsPresenter","data":{"ChampionConfigId":"1001","Level":"x","Stars":null}}}`,
		`{"session_id":"$SID","message":"hi","screen":{"name":"TeamSetupPresenter","data":{"Slot":{"Champion":{"ConfigId":[[[]]]}}}}}`,
		`{"session_id":"$SID","message":"hi","screen":{"name":"","data":{}}}`,
		`{"session_id":"$SID","message":"hi","screen":{"name":"X","data":null}}`,
		`{"session_id":"$SID","message":""}`,
		`{"session_id":"$SID","message":"\u0000\ud800"}`,
		`{"session_id":"$SID","message":1e400}`,
		`{"session_id":"not-a-session","message":"hi"}`,
		`{"session_id":"$SID","message":"hi"}{}`,
		`{"session_id":"$SID"`,
		`[]`,
		`null`,
		``,
		"\xff\xfe",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, body string) {
		body = strings.ReplaceAll(body, "$SID", s.ID)
		resp, rb, err := fx.send(context.Background(), t, request{method: http.MethodPost, path: "/v1/chat", token: s.Token, body: []byte(body), invalid: true})
		checkFuzzAnswer(t, resp, rb, err)
	})
}

func FuzzSessionBody(f *testing.F) {
	fx := fuzzFixture(f)
	for _, seed := range []string{
		`{}`,
		`{"locale":"fr-CA","player_id":"player-1"}`,
		`{"locale":"de"}`,
		`{"locale":"xx"}`,
		`{"locale":null,"player_id":null}`,
		`{"player_id":"` + strings.Repeat("p", 200) + `"}`,
		`{"player_id":"\u0007"}`,
		`{"unknown":1}`,
		`{"locale":["en"]}`,
		`{"locale":"en"} trailing`,
		`[`,
		``,
		"{\"player_id\":\"\xc3\x28\"}",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, body string) {
		req := request{method: http.MethodPost, path: "/v1/sessions", body: []byte(body), invalid: true}
		if body == "" {
			req.body = nil
		}
		resp, rb, err := fx.send(context.Background(), t, req)
		checkFuzzAnswer(t, resp, rb, err)
	})
}

func FuzzScreenEventBody(f *testing.F) {
	fx := fuzzFixture(f)
	s := fx.newSession(f)
	for _, seed := range []string{
		`{"session_id":"$SID","screen":{"name":"BossBattlePresenter","data":{"BossConfigId":5001,"Phase":2,"Team":[1001,1002]}}}`,
		`{"session_id":"$SID","screen":{"name":"BossBattlePresenter","data":{"BossConfigId":"Fire Knight","Phase":{"a":1},"Team":"all"}}}`,
		`{"session_id":"$SID","screen":{"name":"ChampionCollectionPresenter","data":{"SelectedChampionId":-1,"Filter":{"Faction":1e30}}}}`,
		`{"session_id":"$SID","screen":{"name":"GearInventoryPresenter","data":{"GearSetConfigId":8001,"Champion":{"ConfigId":1001.5}}}}`,
		`{"session_id":"$SID","screen":{"name":"MainMenuPresenter","data":{"PlayerLevel":"{PlayerLevel}"}}}`,
		`{"session_id":"$SID","screen":{"name":"NoSuchPresenter","data":{}}}`,
		`{"session_id":"$SID","screen":{"name":"` + strings.Repeat("N", 300) + `"}}`,
		`{"session_id":"$SID","screen":{"name":"X","data":[1]}}`,
		`{"session_id":"$SID"}`,
		`{"session_id":"00000000-0000-4000-8000-000000000000","screen":{"name":"X"}}`,
		`{"session_id":"$SID","screen":{"name":"X","data":{}},"extra":true}`,
		`not json`,
		``,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, body string) {
		b := []byte(strings.ReplaceAll(body, "$SID", s.ID))
		req := signedEvent(b)
		req.invalid = true
		resp, rb, err := fx.send(context.Background(), t, req)
		checkFuzzAnswer(t, resp, rb, err)
	})
}

func FuzzExecuteBody(f *testing.F) {
	fx := fuzzFixture(f)
	for _, seed := range []string{
		`{"tool_calls":[{"name":"gcs_get_champion_details","arguments":{"champion_name":"Kaelith"}}]}`,
		`{"tool_calls":[{"name":"gcs_get_champion_details","arguments":{"champion_name":"Kaelith' OR 1=1 --"}}]}`,
		`{"tool_calls":[{"name":"gcs_find_champions","arguments":{"filters":{"rarity":"Legendary"}}}]}`,
		`{"tool_calls":[{"name":"gcs_compare_characters","arguments":{"names":["Kaelith",null,7]}}]}`,
		`{"tool_calls":[{"name":"rag_get_champion_details","arguments":{"query":"` + strings.Repeat("fire ", 200) + `"}}]}`,
		`{"tool_calls":[{"name":"cache_get_bosses_list","arguments":"not an object"}]}`,
		`{"tool_calls":[{"name":"cache_get_champions_list"}]}`,
		`{"tool_calls":[{"name":"no_such_tool","arguments":{}}]}`,
		`{"tool_calls":[{"name":"","arguments":{}}]}`,
		`{"tool_calls":[]}`,
		`{"tool_calls":null}`,
		`{"tool_calls":[{"name":"gcs_get_character_details_by_id","arguments":{"character_id":1e309}}]}`,
		`{`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, body string) {
		resp, rb, err := fx.send(context.Background(), t, request{method: http.MethodPost, path: "/admin/tools/execute", token: testAdminToken, body: []byte(body), invalid: true})
		checkFuzzAnswer(t, resp, rb, err)
		if resp.StatusCode == http.StatusOK {
			var out struct {
				Results []struct {
					Status string `json:"status"`
				} `json:"results"`
			}
			if err := json.Unmarshal(rb, &out); err != nil || len(out.Results) == 0 {
				t.Fatalf("200 without results: %.500s", rb)
			}
		}
	})
}
