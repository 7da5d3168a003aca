package llm

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)
	tests := []struct {
		name   string
		value  string
		want   time.Duration
		wantOK bool
	}{
		{name: "seconds", value: "2", want: 2 * time.Second, wantOK: true},
		{name: "fraction", value: "0.5", want: 500 * time.Millisecond, wantOK: true},
		{name: "padded", value: " 7 ", want: 7 * time.Second, wantOK: true},
		{name: "http date", value: now.Add(90 * time.Second).Format(http.TimeFormat), want: 90 * time.Second, wantOK: true},
		{name: "date in the past", value: now.Add(-time.Minute).Format(http.TimeFormat)},
		{name: "zero", value: "0"},
		{name: "negative", value: "-3"},
		{name: "absurd", value: "1e300"},
		{name: "empty", value: ""},
		{name: "garbage", value: "soon"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := parseRetryAfter(tt.value, now)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("parseRetryAfter(%q) = %v, %v; want %v, %v", tt.value, got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

func TestRetryAfterPrefersMilliseconds(t *testing.T) {
	m := responseMeta{retryAfterS: "3", retryAfterMS: "250"}
	if got, ok := m.retryAfter(time.Now()); !ok || got != 250*time.Millisecond {
		t.Errorf("got %v, %v", got, ok)
	}
	m = responseMeta{retryAfterS: "3", retryAfterMS: "junk"}
	if got, ok := m.retryAfter(time.Now()); !ok || got != 3*time.Second {
		t.Errorf("fallback got %v, %v", got, ok)
	}
}

func TestBackoffStaysUnderCeiling(t *testing.T) {
	c, err := New(Options{Model: "m", BaseBackoff: 100 * time.Millisecond, MaxBackoff: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		attempt int
		ceiling time.Duration
	}{
		{1, 100 * time.Millisecond},
		{2, 200 * time.Millisecond},
		{4, 800 * time.Millisecond},
		{5, time.Second},
		{40, time.Second},
		{1000, time.Second},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.attempt), func(t *testing.T) {
			for range 200 {
				if d := c.backoff(tt.attempt); d < 0 || d > tt.ceiling {
					t.Fatalf("backoff(%d) = %v, ceiling %v", tt.attempt, d, tt.ceiling)
				}
			}
		})
	}
}

func TestClassify(t *testing.T) {
	c, err := New(Options{Model: "m", APIKey: "sk-secret-123"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name          string
		err           error
		wantStatus    int
		wantCode      string
		wantRetryable bool
		wantInMessage string
	}{
		{
			name: "null code arrives as 0", err: &openai.APIError{Code: 0, Type: "server_error", Message: "boom", HTTPStatusCode: 500},
			wantStatus: 500, wantRetryable: true, wantInMessage: "boom",
		},
		{
			name: "numeric code", err: &openai.APIError{Code: 1234, Message: "odd", HTTPStatusCode: 400},
			wantStatus: 400, wantCode: "1234",
		},
		{
			name: "ordinary 429", err: &openai.APIError{Code: "rate_limit_exceeded", Type: "requests", Message: "Rate limit reached", HTTPStatusCode: 429},
			wantStatus: 429, wantCode: "rate_limit_exceeded", wantRetryable: true,
		},
		{
			name: "408", err: &openai.APIError{Message: "timeout", HTTPStatusCode: 408},
			wantStatus: 408, wantRetryable: true,
		},
		{
			name: "server error event mid-stream", err: fmt.Errorf("error, %w", &openai.APIError{Type: "server_error", Message: "overloaded"}),
			wantRetryable: true,
		},
		{
			name: "invalid request event mid-stream", err: fmt.Errorf("error, %w", &openai.APIError{Type: "invalid_request_error", Message: "no"}),
		},
		{
			name:       "html body",
			err:        &openai.RequestError{HTTPStatusCode: 502, Body: []byte("<html>\n<h1>502 Bad Gateway</h1> sk-secret-123\n</html>")},
			wantStatus: 502, wantRetryable: true, wantInMessage: "Bad Gateway: <html> <h1>502 Bad Gateway</h1> [redacted] </html>",
		},
		{
			name: "huge body is shortened", err: &openai.RequestError{HTTPStatusCode: 400, Body: []byte(strings.Repeat("é", 500))},
			wantStatus: 400, wantInMessage: "...",
		},
		{name: "unexpected EOF", err: io.ErrUnexpectedEOF, wantCode: CodeConnection, wantRetryable: true},
		{name: "other", err: errors.New("invalid character 'x'"), wantCode: CodeInvalidResponse},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := c.classify(opChat, tt.err, false)
			if e.Status != tt.wantStatus || e.Code != tt.wantCode || e.Retryable != tt.wantRetryable {
				t.Errorf("got %+v", e)
			}
			if !strings.Contains(e.Message, tt.wantInMessage) {
				t.Errorf("message %q lacks %q", e.Message, tt.wantInMessage)
			}
			if len(e.Message) > maxBodyInMessage+40 {
				t.Errorf("message of %d bytes", len(e.Message))
			}
			if !errors.Is(e, tt.err) {
				t.Errorf("Unwrap lost the cause")
			}
		})
	}
}

func TestErrorText(t *testing.T) {
	tests := []struct {
		name string
		err  *Error
		want string
	}{
		{
			name: "full", err: &Error{Op: "chat", Status: 429, Code: "rate_limit_exceeded", Message: "slow down", Attempts: 3},
			want: "llm: chat: status 429: rate_limit_exceeded: slow down (after 3 attempts)",
		},
		{
			name: "no status", err: &Error{Op: "stream", Code: CodeTimeout, Message: "no answer within 30s", Attempts: 1},
			want: "llm: stream: timeout: no answer within 30s",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.err.Error(); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
