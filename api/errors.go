package api

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"

	"github.com/gin-gonic/gin"

	"github.com/gameassist/gameassist/chat"
	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/screens"
)

// HTTPError is an error with the status and message a client sees; Err is
// logged, never sent.
type HTTPError struct {
	Status int
	Code   string
	Msg    string
	Err    error
}

func (e *HTTPError) Error() string {
	if e.Err != nil {
		return e.Msg + ": " + e.Err.Error()
	}
	return e.Msg
}

func (e *HTTPError) Unwrap() error { return e.Err }

func httpErr(status int, code, msg string, err error) *HTTPError {
	return &HTTPError{Status: status, Code: code, Msg: msg, Err: err}
}

type errorBody struct {
	Error errorDetail `json:"error"`
}

type errorDetail struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// fail maps err to a status and writes the error body; every handler ends
// its error paths here so the mapping lives in one place.
func (s *Server) fail(c *gin.Context, err error) {
	he := s.classify(err)
	if clientGone(c, err) {
		// The client went away: its request ended, not the server. Nobody
		// reads this answer; logs and metrics count it as nginx's 499.
		markClientGone(c)
		he = httpErr(StatusClientClosedRequest, "client_closed_request", "the client closed the request", err)
	}
	lvl := slog.LevelInfo
	if he.Status >= 500 {
		lvl = slog.LevelError
	}
	switch {
	case he.Status == http.StatusConflict && he.Code == "session_busy":
		c.Header("Retry-After", strconv.Itoa(busyRetryAfterSeconds))
	case he.Status == http.StatusServiceUnavailable && c.Writer.Header().Get("Retry-After") == "":
		c.Header("Retry-After", strconv.Itoa(unavailableRetryAfterSeconds))
	}
	s.log.LogAttrs(c.Request.Context(), lvl, "request failed",
		slog.String("request_id", requestID(c)), slog.Int("status", he.Status),
		slog.String("code", he.Code), slog.String("error", he.Error()))
	c.AbortWithStatusJSON(he.Status, errorBody{Error: errorDetail{Code: he.Code, Message: he.Msg}})
}

// StatusClientClosedRequest is the status logged and counted for a request
// whose client went away before the answer (nginx's 499).
const StatusClientClosedRequest = 499

// busyRetryAfterSeconds is the Retry-After of 409 session_busy: a turn takes
// about a second or two, so a client retrying after that usually gets in.
const busyRetryAfterSeconds = 2

// unavailableRetryAfterSeconds is the Retry-After of a 503: Redis loading
// its data, failing over or restarting is usually back within seconds.
const unavailableRetryAfterSeconds = 2

const clientGoneKey = "client_gone"

// clientGone reports whether err comes from the request's own context being
// cancelled because its client disconnected (not from a deadline of ours).
func clientGone(c *gin.Context, err error) bool {
	return errors.Is(err, context.Canceled) && errors.Is(c.Request.Context().Err(), context.Canceled)
}

// markClientGone records that the client went away, so the request is
// logged and counted as 499 whatever status was already written.
func markClientGone(c *gin.Context) { c.Set(clientGoneKey, true) }

// statusOf is the status a request is logged and counted with.
func statusOf(c *gin.Context) int {
	if c.GetBool(clientGoneKey) {
		return StatusClientClosedRequest
	}
	return c.Writer.Status()
}

func (s *Server) classify(err error) *HTTPError {
	var he *HTTPError
	if errors.As(err, &he) {
		return he
	}
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return httpErr(http.StatusRequestEntityTooLarge, "body_too_large", "request body is over the 1 MiB limit", err)
	}
	for _, m := range s.errorMap {
		if errors.Is(err, m.target) {
			msg := m.msg
			if m.clientText {
				msg = clientMessage(wrapperOf(err, m.target))
			}
			return httpErr(m.status, m.code, msg, err)
		}
	}
	if isDependencyDown(err) {
		return httpErr(http.StatusServiceUnavailable, "unavailable", "a dependency is unavailable; try again shortly", err)
	}
	return httpErr(http.StatusInternalServerError, "internal", "internal error", err)
}

// errorMapping maps a sentinel error of a dependency to an HTTP answer.
type errorMapping struct {
	target error
	status int
	code   string
	msg    string
	// clientText: the error's own text is written for clients and replaces msg.
	clientText bool
}

// defaultErrorMap maps the services' sentinel errors to answers.
func defaultErrorMap() []errorMapping {
	return []errorMapping{
		{chat.ErrUnauthorized, http.StatusUnauthorized, "unauthorized", "a valid session token is required", false},
		// A token that does not open the session is answered as a session
		// that does not exist, so the answer tells nothing of which ids exist.
		{chat.ErrForbidden, http.StatusNotFound, "not_found", notFoundMsg, false},
		{chat.ErrInvalid, http.StatusBadRequest, "bad_request", "invalid request", true},
		{memory.ErrNotFound, http.StatusNotFound, "not_found", notFoundMsg, false},
		{memory.ErrBadCursor, http.StatusBadRequest, "bad_cursor", "cursor is not one this server issued", false},
		{memory.ErrBusy, http.StatusConflict, "session_busy", "another turn of this session is still running; try again", false},
		{screens.ErrBadScreen, http.StatusBadRequest, "bad_screen", "screen data is not acceptable", true},
		{screens.ErrInvalidRules, http.StatusUnprocessableEntity, "invalid_rules", "the screen rules file is invalid; the running rules stay", true},
		{memory.ErrUnavailable, http.StatusServiceUnavailable, "unavailable", "the session store is unavailable; try again shortly", false},
		{context.DeadlineExceeded, http.StatusServiceUnavailable, "timeout", "a dependency did not answer in time", false},
		{syscall.ECONNREFUSED, http.StatusServiceUnavailable, "unavailable", "a dependency is unavailable", false},
	}
}

// notFoundMsg answers an unknown session and a token that does not open the
// session alike.
const notFoundMsg = "no such session or entry"

// wrapperOf is the error in err's chain that wraps target itself: the one
// whose text is the refusal written for clients, without the operations
// (and the ids they name) that wrapped it on the way up.
func wrapperOf(err, target error) error {
	for {
		var next error
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			if c := u.Unwrap(); c != target && errors.Is(c, target) {
				next = c
			}
		case interface{ Unwrap() []error }:
			for _, c := range u.Unwrap() {
				if c != target && errors.Is(c, target) {
					next = c
					break
				}
			}
		}
		if next == nil {
			return err
		}
		err = next
	}
}

// isDependencyDown reports network failures of a dependency (Redis down).
func isDependencyDown(err error) bool {
	var ne net.Error
	return errors.As(err, &ne)
}

// clientMessage is the text of a validation error, without package prefixes,
// for errors whose text is written for clients.
func clientMessage(err error) string {
	msg := err.Error()
	for _, p := range []string{"chat: ", "screens: "} {
		msg = strings.ReplaceAll(msg, p, "")
	}
	if len(msg) > 300 {
		msg = msg[:300]
	}
	return msg
}
