package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// runChat is a terminal client for a running server: it opens a session,
// sends each line as a chat turn and prints the reply and the tools used.
func runChat(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout io.Writer) error {
	fs := flag.NewFlagSet("chat", flag.ContinueOnError)
	server := fs.String("server", serverURL(getenv), "server base URL")
	locale := fs.String("locale", "en", "reply locale: en, fr or de")
	screen := fs.String("screen", "", `screen JSON sent with every message, e.g. {"name":"BossBattlePresenter","data":{"BossConfigId":5001}}`)
	if err := fs.Parse(args); err != nil {
		return err
	}
	var screenObj json.RawMessage
	if *screen != "" {
		if !json.Valid([]byte(*screen)) {
			return fmt.Errorf("chat: -screen is not valid JSON")
		}
		screenObj = json.RawMessage(*screen)
	}
	cl := &client{base: strings.TrimRight(*server, "/"), http: &http.Client{Timeout: 2 * time.Minute}}
	var sess struct {
		SessionID    string `json:"session_id"`
		SessionToken string `json:"session_token"`
	}
	if err := cl.post(ctx, "/v1/sessions", "", map[string]string{"locale": *locale}, &sess); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "session %s — type a question, Ctrl-D to quit\n> ", sess.SessionID)
	in := bufio.NewScanner(stdin)
	for in.Scan() {
		line := strings.TrimSpace(in.Text())
		if line == "" {
			fmt.Fprint(stdout, "> ")
			continue
		}
		body := map[string]any{"session_id": sess.SessionID, "message": line}
		if screenObj != nil {
			body["screen"] = screenObj
		}
		var reply struct {
			Exchange  int    `json:"exchange"`
			Reply     string `json:"reply"`
			Degraded  bool   `json:"degraded"`
			ToolCalls []struct {
				Name       string  `json:"name"`
				Source     string  `json:"source"`
				Status     string  `json:"status"`
				DurationMS float64 `json:"duration_ms"`
			} `json:"tool_calls"`
		}
		if err := cl.post(ctx, "/v1/chat", sess.SessionToken, body, &reply); err != nil {
			fmt.Fprintln(stdout, "error:", err)
			fmt.Fprint(stdout, "> ")
			continue
		}
		fmt.Fprintf(stdout, "\n%s\n", reply.Reply)
		for _, t := range reply.ToolCalls {
			fmt.Fprintf(stdout, "  · %s [%s, %s, %.1f ms]\n", t.Name, t.Source, t.Status, t.DurationMS)
		}
		if reply.Degraded {
			fmt.Fprintln(stdout, "  (degraded: the LLM failed, answered offline)")
		}
		fmt.Fprintf(stdout, "  exchange %d\n> ", reply.Exchange)
	}
	return in.Err()
}

func serverURL(getenv func(string) string) string {
	if u := getenv("GAMEASSIST_URL"); u != "" {
		return u
	}
	return "http://localhost:8080"
}

type client struct {
	base string
	http *http.Client
}

// post sends a JSON body and decodes a JSON answer; an error status becomes
// an error carrying the server's message.
func (c *client) post(ctx context.Context, path, token string, body, out any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+path, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode >= 300 {
		var e struct {
			Error struct{ Code, Message string } `json:"error"`
		}
		_ = json.Unmarshal(raw, &e)
		return fmt.Errorf("%s %s: %d %s: %s", http.MethodPost, path, resp.StatusCode, e.Error.Code, e.Error.Message)
	}
	return json.Unmarshal(raw, out)
}
