package api_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/api"
	"github.com/gameassist/gameassist/internal/openapitest"
	"github.com/gameassist/gameassist/tool"
)

// localeChat records the locale each session is created with.
type localeChat struct {
	fakeChat
	got chan string
}

func (l localeChat) CreateSession(_ context.Context, _, locale string) (string, string, error) {
	l.got <- locale
	return testSession, "tok", nil
}

// TestSessionLocaleFallsBack: an unsupported locale opens an en session
// with a note instead of a 400; a supported one, with or without region,
// is kept. Requests and answers fit the OpenAPI document.
func TestSessionLocaleFallsBack(t *testing.T) {
	ex, err := tool.NewExecutor(tool.NewRegistry(), tool.ExecutorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	lc := localeChat{got: make(chan string, 1)}
	srv, err := api.New(api.Deps{Executor: ex, Chat: lc, Logger: slog.New(slog.DiscardHandler)}, api.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	v := openapitest.Load(t)
	tests := []struct {
		name, body, want, note string
	}{
		{name: "unsupported", body: `{"locale":"es"}`, want: "en", note: `locale "es" is not supported (en, fr, de); the session replies in en`},
		{name: "unsupported with region", body: `{"locale":"pt-BR"}`, want: "en", note: `locale "pt-BR" is not supported`},
		{name: "garbage", body: `{"locale":"` + strings.Repeat("x", 300) + `"}`, want: "en", note: "is not supported"},
		{name: "supported with region", body: `{"locale":"fr-CA"}`, want: "fr"},
		{name: "supported", body: `{"locale":"de"}`, want: "de"},
		{name: "none", body: `{}`, want: "en"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := do(t, http.MethodPost, ts.URL+"/v1/sessions", "", strings.NewReader(tc.body))
			if resp.StatusCode != http.StatusCreated {
				t.Fatalf("status %d %s", resp.StatusCode, body)
			}
			var got struct{ Locale, Note string }
			if err := json.Unmarshal(body, &got); err != nil {
				t.Fatal(err)
			}
			if passed := <-lc.got; passed != tc.want || got.Locale != tc.want {
				t.Fatalf("session created with %q, answered %q, want %q", passed, got.Locale, tc.want)
			}
			if tc.note == "" && got.Note != "" || !strings.Contains(got.Note, tc.note) {
				t.Fatalf("note %q, want %q", got.Note, tc.note)
			}
			v.Check(t, resp.Request, []byte(tc.body), resp, body)
		})
	}
}
