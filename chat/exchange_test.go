package chat

import (
	"context"
	"encoding/json"
	"log/slog"
	"testing"

	"github.com/gameassist/gameassist/llm/llmtest"
	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/offline"
	"github.com/gameassist/gameassist/screens"
)

// withExchanges rebuilds e's service with the store recording exchanges.
func withExchanges(t *testing.T, e *env, screensOn bool) {
	t.Helper()
	deps := Deps{Store: e.store, Executor: e.box.exec, Fallback: newOfflineFallback(t, e.box.exec, offline.Options{Names: e.box.names}), Exchanges: RecordExchanges{}, Logger: slog.New(slog.DiscardHandler)}
	if e.client != nil {
		deps.LLM = e.client
	}
	if screensOn {
		deps.Screens = newEngine(t, e.box.reg)
	}
	svc, err := NewService(deps, Options{Model: "test-model"})
	if err != nil {
		t.Fatal(err)
	}
	e.svc = svc
}

func TestTurnRecordsExchange(t *testing.T) {
	e := newEnv(t, envConfig{})
	withExchanges(t, e, true)
	id, _ := e.session(t)
	e.fake.Enqueue(llmtest.ToolCalls(champCall("c1", "Kaelith")), llmtest.Text("Kaelith is Legendary.\nA Magic attacker."))
	sc := &screens.Screen{Name: "ChampionFeatureModelsPresenter", Data: json.RawMessage(`{"ChampionConfigId":1001}`)}
	r, err := e.svc.Turn(context.Background(), TurnRequest{SessionID: id, Message: "tell me about kaelith", Screen: sc}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := e.store.Exchanges(context.Background(), id, r.Exchange)
	if err != nil {
		t.Fatal(err)
	}
	x, ok := got[r.Exchange]
	if !ok {
		t.Fatalf("exchange %d not recorded", r.Exchange)
	}
	if x.Message != "tell me about kaelith" || x.Reply != r.Reply || x.Model != "test-model" || x.Degraded {
		t.Errorf("record = %+v", x)
	}
	if x.Screen == nil || x.Screen.Name != sc.Name || string(x.Screen.Data) != `{"ChampionConfigId":1001}` {
		t.Errorf("screen = %+v", x.Screen)
	}
	if len(x.Tools) != len(r.ToolCalls) {
		t.Fatalf("tools = %+v, reply's %+v", x.Tools, r.ToolCalls)
	}
	last := x.Tools[len(x.Tools)-1]
	if last.Name != "gcs_get_champion_details" || last.Source != "executed" || string(last.Arguments) != `{"champion_name":"Kaelith"}` {
		t.Errorf("last tool = %+v", last)
	}
	if x.Tools[0].Source != "proactive" {
		t.Errorf("the screen's calls are not recorded first: %+v", x.Tools[0])
	}
}

func TestOfflineTurnRecordsOfflineModel(t *testing.T) {
	e := newEnv(t, envConfig{noLLM: true})
	withExchanges(t, e, false)
	id, _ := e.session(t)
	r := e.turn(t, id, "tell me about Kaelith")
	got, err := e.store.Exchanges(context.Background(), id, r.Exchange)
	if err != nil {
		t.Fatal(err)
	}
	if x := got[r.Exchange]; x.Model != OfflineModel || x.Reply != r.Reply || x.Screen != nil {
		t.Errorf("record = %+v", x)
	}
}

// stampExchanges marks each record, to show the stamp reaches the store.
type stampExchanges struct{}

func (stampExchanges) StampExchange(_ context.Context, e *memory.Exchange) { e.TraceID = "stamped" }

// TestExchangeRecordedWithTheTurn: the record goes with the turn's write,
// stamped: a turn makes as many store calls with exchanges recorded as
// without.
func TestExchangeRecordedWithTheTurn(t *testing.T) {
	e := newEnv(t, envConfig{})
	id, _ := e.session(t)
	e.fake.Enqueue(llmtest.Text("Hello."))
	calls := e.store.Calls()
	e.turn(t, id, "hi")
	plain := e.store.Calls() - calls

	deps := Deps{Store: e.store, Executor: e.box.exec, Fallback: newOfflineFallback(t, e.box.exec, offline.Options{Names: e.box.names}), LLM: e.client, Exchanges: stampExchanges{}, Logger: slog.New(slog.DiscardHandler)}
	svc, err := NewService(deps, Options{Model: "test-model"})
	if err != nil {
		t.Fatal(err)
	}
	e.svc = svc
	e.fake.Enqueue(llmtest.Text("Hello again."))
	calls = e.store.Calls()
	r := e.turn(t, id, "hi again")
	if got := e.store.Calls() - calls; got != plain {
		t.Errorf("a recorded turn made %d store calls, one without records %d", got, plain)
	}
	got, err := e.store.Exchanges(context.Background(), id, r.Exchange)
	if err != nil {
		t.Fatal(err)
	}
	if x := got[r.Exchange]; x.Reply != "Hello again." || x.TraceID != "stamped" || x.Model != "test-model" {
		t.Errorf("record = %+v", x)
	}
}
