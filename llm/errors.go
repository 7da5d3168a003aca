package llm

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"unicode"
	"unicode/utf8"

	openai "github.com/sashabaranov/go-openai"
)

// Codes set by this package on Error when the API gave none.
const (
	// CodeTimeout: an attempt ran past Options.Timeout.
	CodeTimeout = "timeout"
	// CodeConnection: the connection failed or dropped mid-answer.
	CodeConnection = "connection_error"
	// CodeCanceled: the caller's context ended (client gone or deadline).
	CodeCanceled = "canceled"
	// CodeIncompleteStream: a stream ended without a finish_reason.
	CodeIncompleteStream = "incomplete_stream"
	// CodeInvalidResponse: the API answered 2xx with something unusable.
	CodeInvalidResponse = "invalid_response"
	// CodeInvalidRequest: the request was refused before sending it.
	CodeInvalidRequest = "invalid_request"
	// CodeRetryAfterTooLong: the API asked to wait longer than the client will.
	CodeRetryAfterTooLong = "retry_after_too_long"
)

// maxBodyInMessage bounds how much of a non-JSON error body goes into a message.
const maxBodyInMessage = 200

// Error is what every failed call of Client returns, so callers can decide
// with errors.As whether to fall back, show a message or give up. Its text
// never contains the API key.
type Error struct {
	// Op is the operation: "chat", "stream", "embed" or "ping".
	Op string
	// Status is the HTTP status of the last attempt, 0 when there was none
	// (timeout, connection error, cancellation, an error event mid-stream).
	Status int
	// Code is the API's error code ("invalid_api_key", "rate_limit_exceeded",
	// "context_length_exceeded", ...) or one of the Code constants.
	Code string
	// Type is the API's error type ("invalid_request_error", "tokens", ...).
	Type string
	// Message is the API's message with the key redacted, or a description.
	Message string
	// Retryable reports whether trying again later may succeed; false for
	// bad requests, auth, quota, oversized requests, cancellation and for a
	// stream that already sent text to the handler.
	Retryable bool
	// Attempts is how many HTTP attempts were made.
	Attempts int

	err error
}

// Error describes the failure with its operation, status and code.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("llm: ")
	if e.Op != "" {
		b.WriteString(e.Op)
		b.WriteString(": ")
	}
	if e.Status != 0 {
		fmt.Fprintf(&b, "status %d: ", e.Status)
	}
	if e.Code != "" {
		b.WriteString(e.Code)
		b.WriteString(": ")
	}
	b.WriteString(e.Message)
	if e.Attempts > 1 {
		fmt.Fprintf(&b, " (after %d attempts)", e.Attempts)
	}
	return b.String()
}

// Unwrap gives the underlying cause, so errors.Is(err, context.Canceled) works.
func (e *Error) Unwrap() error { return e.err }

// classify turns an attempt's error into an Error. timedOut reports that the
// attempt's own deadline (not the caller's) expired.
func (c *Client) classify(op string, err error, timedOut bool) *Error {
	var own *Error
	if errors.As(err, &own) {
		e := *own
		e.Op = op
		return &e
	}
	if timedOut {
		return &Error{Op: op, Code: CodeTimeout, Message: "no answer within " + c.timeout.String(), Retryable: true, err: err}
	}
	var reqErr *openai.RequestError
	if errors.As(err, &reqErr) {
		e := &Error{Op: op, Status: reqErr.HTTPStatusCode, err: err}
		var inner *openai.APIError
		if errors.As(reqErr.Err, &inner) {
			e.Code, e.Type, e.Message = codeString(inner.Code), inner.Type, c.redact(inner.Message)
		} else {
			e.Message = c.redact(bodySnippet(reqErr.HTTPStatusCode, reqErr.Body))
		}
		e.Retryable = retryableStatus(e.Status, e.Code, e.Type, e.Message)
		return e
	}
	var apiErr *openai.APIError
	if errors.As(err, &apiErr) {
		e := &Error{
			Op: op, Status: apiErr.HTTPStatusCode, Code: codeString(apiErr.Code), Type: apiErr.Type,
			Message: c.redact(apiErr.Message), err: err,
		}
		if e.Status == 0 { // an error event inside a 200 stream
			e.Retryable = e.Type == "" || e.Type == "server_error"
		} else {
			e.Retryable = retryableStatus(e.Status, e.Code, e.Type, e.Message)
		}
		return e
	}
	if isConnectionError(err) {
		return &Error{Op: op, Code: CodeConnection, Message: c.redact(err.Error()), Retryable: true, err: err}
	}
	return &Error{Op: op, Code: CodeInvalidResponse, Message: c.redact(err.Error()), err: err}
}

// retryableStatus decides on an HTTP error: 408, 409, 429 and 5xx are worth
// another attempt, except a 429 for an exhausted quota or a request too large
// for the rate limit at all, which would fail the same way again.
func retryableStatus(status int, code, typ, msg string) bool {
	switch {
	case status == http.StatusTooManyRequests:
		if code == "insufficient_quota" || typ == "insufficient_quota" {
			return false
		}
		if strings.Contains(strings.ToLower(msg), "too large") {
			return false
		}
		return true
	case status == http.StatusRequestTimeout, status == http.StatusConflict:
		return true
	case status >= 500:
		return true
	default:
		return false
	}
}

func isConnectionError(err error) bool {
	var urlErr *url.Error
	var netErr net.Error
	switch {
	case errors.As(err, &urlErr), errors.As(err, &netErr):
		return true
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return true
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.EPIPE):
		return true
	}
	return false
}

// codeString renders go-openai's any-typed code; a JSON null arrives as 0.
func codeString(code any) string {
	switch v := code.(type) {
	case nil:
		return ""
	case string:
		return v
	case int:
		if v == 0 {
			return ""
		}
		return strconv.Itoa(v)
	default:
		return fmt.Sprint(v)
	}
}

// bodySnippet describes a non-JSON error body (an HTML page from a proxy,
// say) by its status and its first printable characters.
func bodySnippet(status int, body []byte) string {
	s := strings.Join(strings.FieldsFunc(string(body), func(r rune) bool {
		return unicode.IsSpace(r) || !unicode.IsPrint(r)
	}), " ")
	if len(s) > maxBodyInMessage {
		end := maxBodyInMessage
		for end > 0 && !utf8.RuneStart(s[end]) {
			end--
		}
		s = s[:end] + "..."
	}
	text := http.StatusText(status)
	if text == "" {
		text = "unexpected status"
	}
	if s == "" {
		return text
	}
	return text + ": " + s
}

// canceled reports the caller's context ending, which is never retried.
func canceled(op string, attempts int, cause error) *Error {
	return &Error{Op: op, Code: CodeCanceled, Message: cause.Error(), Attempts: attempts, err: cause}
}
