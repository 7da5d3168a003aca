package llmtest

import (
	"net/http"
	"strconv"
	"time"
)

type replyKind int

const (
	kindText replyKind = iota + 1
	kindToolCalls
	kindStatus
	kindFixture
	kindSSE
)

// Call is one tool call a scripted reply asks for, as the model would write it.
type Call struct {
	ID        string
	Name      string
	Arguments string // raw JSON text
}

// Reply is one scripted answer of the fake. Build it with Text, ToolCalls,
// Status, Fixture or SSE and refine it with its methods; a Reply is a value,
// so each method returns a changed copy.
type Reply struct {
	kind        replyKind
	text        string
	calls       []Call
	status      int
	body        []byte
	fixture     string
	header      http.Header
	delay       time.Duration
	hold        <-chan struct{}
	cut         bool
	finish      string
	usage       *usage
	contentType string
}

// Text answers with plain assistant text (finish_reason "stop"). A streamed
// request gets it word by word.
func Text(s string) Reply {
	return Reply{kind: kindText, text: s}
}

// ToolCalls answers with parallel tool calls in the given order
// (finish_reason "tool_calls"). A streamed request gets the id and name in the
// first delta of each index and the arguments in several pieces.
func ToolCalls(calls ...Call) Reply {
	return Reply{kind: kindToolCalls, calls: append([]Call(nil), calls...)}
}

// Status answers with an HTTP error status and a raw body. A nil body gets an
// OpenAI-style error envelope fitting the status, so Status(429, nil) looks
// like an ordinary rate limit and Status(503, nil) like an overloaded server.
func Status(code int, body []byte) Reply {
	if body == nil {
		body = defaultErrorBody(code)
	}
	return Reply{kind: kindStatus, status: code, body: append([]byte(nil), body...), contentType: "application/json"}
}

// Fixture serves a recorded body from testdata with its documented status:
// err_401.json 401, err_429.json 429, err_500*.json 500,
// err_context_length.json 400, everything else 200; .sse files are served
// as text/event-stream. An unknown name fails the test at Enqueue.
func Fixture(name string) Reply {
	return Reply{kind: kindFixture, fixture: name}
}

// SSE serves raw bytes as a 200 text/event-stream body, exactly as given: the
// way to test hostile or malformed streams.
func SSE(body []byte) Reply {
	return Reply{kind: kindSSE, body: append([]byte(nil), body...)}
}

// WithRetryAfter adds the Retry-After header (whole seconds, rounded up) and
// OpenAI's retry-after-ms header, as a rate-limited API does.
func (r Reply) WithRetryAfter(d time.Duration) Reply {
	secs := int64((d + time.Second - 1) / time.Second)
	r = r.WithHeader("Retry-After", strconv.FormatInt(secs, 10))
	return r.WithHeader("retry-after-ms", strconv.FormatInt(d.Milliseconds(), 10))
}

// WithHeader adds a response header, for example a Retry-After in HTTP-date form.
func (r Reply) WithHeader(key, value string) Reply {
	h := r.header.Clone()
	if h == nil {
		h = http.Header{}
	}
	h.Add(key, value)
	r.header = h
	return r
}

// Delay waits d before answering, to simulate a slow model or force a client
// timeout; the wait ends early when the client goes away or the server closes.
func (r Reply) Delay(d time.Duration) Reply {
	r.delay = d
	return r
}

// Until holds the answer until release is closed, after any Delay: the
// test decides when this one request is answered, while the requests
// around it are answered as usual (a responder that blocks instead would
// hold every request it answers, and never notice the client leave). The
// wait ends early, with no answer, when the client goes away or the server
// closes.
func (r Reply) Until(release <-chan struct{}) Reply {
	r.hold = release
	return r
}

// Cut ends the answer before its finish_reason: a stream stops after its
// content deltas (no finish chunk, usage or [DONE]); a plain answer stops
// half-way through its body.
func (r Reply) Cut() Reply {
	r.cut = true
	return r
}

// WithText adds assistant text before the tool calls of a ToolCalls reply
// (models sometimes say "let me check" first).
func (r Reply) WithText(s string) Reply {
	r.text = s
	return r
}

// WithFinishReason overrides the finish_reason of a Text or ToolCalls reply,
// for example "length" or "content_filter".
func (r Reply) WithFinishReason(reason string) Reply {
	r.finish = reason
	return r
}

// WithUsage overrides the deterministic token counts of a Text or ToolCalls reply.
func (r Reply) WithUsage(promptTokens, completionTokens int) Reply {
	r.usage = &usage{
		PromptTokens:     promptTokens,
		CompletionTokens: completionTokens,
		TotalTokens:      promptTokens + completionTokens,
	}
	return r
}

// fixtureStatus maps a testdata file to the status it was recorded with.
func fixtureStatus(name string) int {
	switch name {
	case "err_401.json":
		return http.StatusUnauthorized
	case "err_429.json":
		return http.StatusTooManyRequests
	case "err_500.json", "err_500_responses_api.json":
		return http.StatusInternalServerError
	case "err_context_length.json":
		return http.StatusBadRequest
	default:
		return http.StatusOK
	}
}

func defaultErrorBody(code int) []byte {
	msg, typ, errCode := "The request failed.", "invalid_request_error", ""
	switch {
	case code == http.StatusUnauthorized:
		msg, errCode = "Incorrect API key provided.", "invalid_api_key"
	case code == http.StatusNotFound:
		msg, errCode = "The requested resource does not exist.", "not_found"
	case code == http.StatusTooManyRequests:
		msg = "Rate limit reached for requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s."
		typ, errCode = "requests", "rate_limit_exceeded"
	case code == http.StatusServiceUnavailable:
		msg, typ = "The server is overloaded or not ready yet.", "server_error"
	case code >= 500:
		msg, typ = "The server had an error while processing your request. Sorry about that!", "server_error"
	}
	return errorBody(msg, typ, errCode)
}
