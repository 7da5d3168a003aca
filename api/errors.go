package api

import (
	"errors"
	"log/slog"
	"net/http"

	"github.com/gin-gonic/gin"
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
	lvl := slog.LevelInfo
	if he.Status >= 500 {
		lvl = slog.LevelError
	}
	s.log.LogAttrs(c.Request.Context(), lvl, "request failed",
		slog.String("request_id", requestID(c)), slog.Int("status", he.Status),
		slog.String("code", he.Code), slog.String("error", he.Error()))
	c.AbortWithStatusJSON(he.Status, errorBody{Error: errorDetail{Code: he.Code, Message: he.Msg}})
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
			return httpErr(m.status, m.code, m.msg, err)
		}
	}
	return httpErr(http.StatusInternalServerError, "internal", "internal error", err)
}

// errorMapping maps a sentinel error of a dependency to an HTTP answer.
type errorMapping struct {
	target error
	status int
	code   string
	msg    string
}
