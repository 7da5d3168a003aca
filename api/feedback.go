package api

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/gameassist/gameassist/chat"
	"github.com/gameassist/gameassist/feedback"
	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/stats"
)

// FeedbackService keeps players' ratings; *feedback.Service satisfies it.
type FeedbackService interface {
	Rate(ctx context.Context, r feedback.Rating) (feedback.Record, bool, error)
	List(ctx context.Context, q feedback.Query) (feedback.Page, error)
	Get(ctx context.Context, id string) (feedback.Record, error)
	Stats(ctx context.Context) (feedback.Stats, error)
}

type feedbackRequest struct {
	SessionID string `json:"session_id"`
	Exchange  *int   `json:"exchange"`
	Rating    string `json:"rating"`
	Comment   string `json:"comment"`
}

type feedbackResponse struct {
	ID        string `json:"id"`
	SessionID string `json:"session_id"`
	Exchange  int    `json:"exchange"`
	Rating    string `json:"rating"`
	// Replaced is true when the rating replaced an earlier one (200).
	Replaced bool `json:"replaced"`
}

// feedbackErr maps the feedback service's errors; others go to classify.
func feedbackErr(err error) error {
	switch {
	case errors.Is(err, feedback.ErrNoExchange):
		return httpErr(http.StatusNotFound, "no_such_exchange", "this session has no such exchange", err)
	case errors.Is(err, feedback.ErrNotFound):
		return httpErr(http.StatusNotFound, "not_found", "no such feedback record", err)
	case errors.Is(err, feedback.ErrInvalid):
		msg := strings.TrimPrefix(err.Error(), "feedback: invalid: ")
		return httpErr(http.StatusBadRequest, "bad_request", msg, err)
	}
	return err
}

// feedback records a player's rating of an exchange of their session:
// authorized and rate limited as chat is.
func (s *Server) feedback(c *gin.Context) {
	if s.deps.Feedback == nil || s.deps.Chat == nil {
		s.fail(c, errUnavailable("feedback"))
		return
	}
	body, err := readBody(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	var req feedbackRequest
	if err := decodeJSON(c, body, &req); err != nil {
		s.fail(c, err)
		return
	}
	if req.Exchange == nil {
		s.fail(c, httpErr(http.StatusBadRequest, "bad_request", "exchange is required", nil))
		return
	}
	rating := feedback.Rating{SessionID: req.SessionID, Exchange: *req.Exchange, Rating: req.Rating, Comment: req.Comment}
	if err := rating.Validate(); err != nil {
		s.fail(c, feedbackErr(err))
		return
	}
	c.Set(sessionIDKey, req.SessionID)
	token, _ := bearer(c)
	if err := s.deps.Chat.Authorize(c.Request.Context(), req.SessionID, token); err != nil {
		if errors.Is(err, chat.ErrForbidden) || errors.Is(err, memory.ErrNotFound) {
			// Another session's token and an unknown session answer the
			// same, so a rating cannot probe which sessions exist.
			err = httpErr(http.StatusForbidden, "forbidden", "this session token does not open that session", err)
		}
		s.fail(c, err)
		return
	}
	if !s.allow(c, "feedback", "session:"+req.SessionID, s.opts.ChatRatePerMinute) {
		return
	}
	rec, replaced, err := s.deps.Feedback.Rate(c.Request.Context(), rating)
	if err != nil {
		s.fail(c, feedbackErr(err))
		return
	}
	s.deps.Metrics.ObserveFeedback(rec.Rating)
	status := http.StatusCreated
	if replaced {
		status = http.StatusOK
	}
	c.JSON(status, feedbackResponse{ID: rec.ID, SessionID: rec.SessionID, Exchange: rec.Exchange, Rating: rec.Rating, Replaced: replaced})
}

// adminFeedback lists ratings, newest first: ?rating=up|down&since=&tool=
// &screen=&limit=&cursor=. since is a time (RFC 3339) or a duration back
// from now ("24h").
func (s *Server) adminFeedback(c *gin.Context) {
	if s.deps.Feedback == nil {
		s.fail(c, errUnavailable("feedback"))
		return
	}
	q, err := s.feedbackQuery(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	page, err := s.deps.Feedback.List(c.Request.Context(), q)
	if err != nil {
		s.fail(c, feedbackErr(err))
		return
	}
	c.JSON(http.StatusOK, page)
}

func (s *Server) feedbackQuery(c *gin.Context) (feedback.Query, error) {
	bad := func(msg string) error { return httpErr(http.StatusBadRequest, "bad_request", msg, nil) }
	q := feedback.Query{
		Rating: c.Query("rating"), Tool: c.Query("tool"), Screen: c.Query("screen"), Cursor: c.Query("cursor"),
	}
	if len(q.Tool) > 200 || len(q.Screen) > 200 {
		return q, bad("tool and screen are at most 200 bytes")
	}
	if l := c.Query("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > 200 {
			return q, bad("limit must be a whole number from 1 to 200")
		}
		q.Limit = n
	}
	if since := c.Query("since"); since != "" {
		if d, err := time.ParseDuration(since); err == nil && d > 0 {
			q.Since = s.opts.Now().Add(-d)
		} else if t, err := time.Parse(time.RFC3339, since); err == nil {
			q.Since = t
		} else {
			return q, bad("since must be an RFC 3339 time or a positive duration such as 24h")
		}
	}
	return q, nil
}

// adminFeedbackScenario answers the eval scenario (YAML) that replays a
// rated exchange, as a download.
func (s *Server) adminFeedbackScenario(c *gin.Context) {
	if s.deps.Feedback == nil {
		s.fail(c, errUnavailable("feedback"))
		return
	}
	rec, err := s.deps.Feedback.Get(c.Request.Context(), c.Param("id"))
	if err != nil {
		s.fail(c, feedbackErr(err))
		return
	}
	y, err := feedback.Scenario(rec)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.Header("Content-Disposition", `attachment; filename="feedback-`+rec.ID+`.yaml"`)
	c.Data(http.StatusOK, "application/yaml; charset=utf-8", y)
}

// statsWithFeedback is /admin/stats with the rating counts.
type statsWithFeedback struct {
	stats.Report
	Feedback *feedback.Stats `json:"feedback,omitempty"`
}
