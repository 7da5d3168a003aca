package api

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/gameassist/gameassist/chat"
	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/screens"
)

type screenBody struct {
	Name string          `json:"name"`
	Data json.RawMessage `json:"data"`
}

type chatRequest struct {
	SessionID string      `json:"session_id"`
	Message   string      `json:"message"`
	Screen    *screenBody `json:"screen"`
	Stream    bool        `json:"stream"`
}

const sessionIDKey = "session_id"

// chat answers one player message, as JSON or as Server-Sent Events.
func (s *Server) chat(c *gin.Context) {
	if s.deps.Chat == nil {
		s.fail(c, errUnavailable("chat"))
		return
	}
	body, err := readBody(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	var req chatRequest
	if err := decodeJSON(c, body, &req); err != nil {
		s.fail(c, err)
		return
	}
	if err := s.validateChat(&req); err != nil {
		s.fail(c, err)
		return
	}
	c.Set(sessionIDKey, req.SessionID)
	token, _ := bearer(c)
	if err := s.deps.Chat.Authorize(c.Request.Context(), req.SessionID, token); err != nil {
		s.fail(c, err)
		return
	}
	// The session's turn quota is counted in the turn's first round trip
	// (memory.Options.TurnQuota); a refused turn changed nothing.
	turn := chat.TurnRequest{SessionID: req.SessionID, Message: req.Message}
	if req.Screen != nil {
		turn.Screen = &screens.Screen{Name: req.Screen.Name, Data: req.Screen.Data}
	}
	ctx, cancel := context.WithTimeout(c.Request.Context(), s.opts.RequestTimeout)
	defer cancel()
	if req.Stream || acceptsEventStream(c) {
		s.streamTurn(ctx, c, turn)
		return
	}
	reply, err := s.deps.Chat.Turn(ctx, turn, nil)
	if err != nil {
		s.failTurn(c, err)
		return
	}
	c.JSON(http.StatusOK, reply)
}

// failTurn answers a turn that failed before it answered anything: 429
// with Retry-After for a session over its turn quota, else as fail does.
func (s *Server) failTurn(c *gin.Context, err error) {
	var rl *memory.RateLimitError
	if errors.As(err, &rl) {
		s.rateLimited(c, "chat", rl.RetryAfter)
		return
	}
	s.fail(c, err)
}

func (s *Server) validateChat(req *chatRequest) error {
	bad := func(msg string) error { return httpErr(http.StatusBadRequest, "bad_request", msg, nil) }
	req.Message = strings.TrimSpace(req.Message)
	switch {
	case req.SessionID == "":
		return bad("session_id is required")
	case req.Message == "":
		return bad("message is required")
	case utf8.RuneCountInString(req.Message) > s.opts.MaxMessageChars:
		return httpErr(http.StatusBadRequest, "message_too_long", "message is longer than the limit", nil)
	}
	if req.Screen != nil {
		if req.Screen.Name == "" {
			return bad("screen.name is required")
		}
		if d := strings.TrimSpace(string(req.Screen.Data)); d != "" && d != "null" && !strings.HasPrefix(d, "{") {
			return bad("screen.data must be an object")
		}
	}
	return nil
}

func acceptsEventStream(c *gin.Context) bool {
	for _, part := range strings.Split(c.GetHeader("Accept"), ",") {
		if mt, _, err := mime.ParseMediaType(strings.TrimSpace(part)); err == nil && mt == "text/event-stream" {
			return true
		}
	}
	return false
}

// streamTurn runs the turn and writes its events as SSE: tool_call,
// tool_result and delta as they happen, then done with the full reply, or
// error. The stream starts (status 200, SSE headers) with its first event
// or heartbeat, so a turn that fails before it (the session store down,
// the session busy or gone) answers with its status as JSON, like an
// unstreamed turn. A client that disconnects cancels the request context,
// which cancels the LLM call and the tools.
func (s *Server) streamTurn(ctx context.Context, c *gin.Context, turn chat.TurnRequest) {
	rc := http.NewResponseController(c.Writer)
	extend := func() { _ = rc.SetWriteDeadline(time.Now().Add(s.opts.HeartbeatInterval + 30*time.Second)) }
	extend()
	// Events come from the turn's goroutine, heartbeats from another: one
	// writer at a time, and the first one starts the stream.
	var mu sync.Mutex
	started := false
	begin := func() {
		if !started {
			started = true
			c.Header("Content-Type", "text/event-stream")
			c.Header("Cache-Control", "no-cache")
			c.Header("Connection", "keep-alive")
			c.Header("X-Accel-Buffering", "no")
			c.Status(http.StatusOK)
		}
		extend()
	}
	write := func(event string, data any) {
		mu.Lock()
		defer mu.Unlock()
		begin()
		c.SSEvent(event, data)
		_ = rc.Flush()
	}
	isStarted := func() bool {
		mu.Lock()
		defer mu.Unlock()
		return started
	}
	stopBeat := sync.OnceFunc(s.heartbeat(c, rc, &mu, begin))
	defer func() {
		// A turn that panics still ends the stream, with an error event
		// (the status is written, so the recoverer could only cut it), or
		// answers 500 before the stream started.
		if p := recover(); p != nil {
			stopBeat()
			s.log.ErrorContext(ctx, "streamed turn panicked", "request_id", requestID(c), "panic", p)
			if !isStarted() {
				s.fail(c, errors.New("streamed turn panicked"))
				return
			}
			write("error", errorBody{Error: errorDetail{Code: "internal", Message: "internal error"}})
		}
	}()
	emit := func(e chat.Event) { write(string(e.Type), e.Data) }
	reply, err := s.deps.Chat.Turn(ctx, turn, emit)
	stopBeat()
	if err != nil {
		if !isStarted() {
			s.failTurn(c, err)
			return
		}
		if clientGone(c, err) {
			markClientGone(c) // nobody to tell; logged and counted as 499
			return
		}
		he := s.classify(err)
		s.log.WarnContext(ctx, "streamed turn failed", "request_id", requestID(c), "status", he.Status, "error", he.Error())
		write("error", errorBody{Error: errorDetail{Code: he.Code, Message: he.Msg}})
		return
	}
	write("done", reply)
}

// heartbeat writes an SSE comment line every Options.HeartbeatInterval
// while a turn is quiet, so proxies that cut idle streams keep this one.
// The returned func stops it and returns once it no longer writes.
func (s *Server) heartbeat(c *gin.Context, rc *http.ResponseController, mu *sync.Mutex, extend func()) func() {
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(s.opts.HeartbeatInterval)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-c.Request.Context().Done():
				return
			case <-t.C:
				mu.Lock()
				extend()
				_, err := io.WriteString(c.Writer, ": heartbeat\n\n")
				if err == nil {
					err = rc.Flush()
				}
				mu.Unlock()
				if err != nil {
					return
				}
			}
		}
	}()
	return func() {
		close(done)
		<-stopped
	}
}
