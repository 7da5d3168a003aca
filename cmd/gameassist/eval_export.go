package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gameassist/gameassist/config"
	"github.com/gameassist/gameassist/feedback"
)

const exportUsage = `usage: gameassist eval export --server URL --out DIR [--rating up|down] [--since 24h]
                            [--tool NAME] [--screen NAME] [--token ADMIN_TOKEN]

Writes one eval scenario file (feedback-<id>.yaml) per player rating that
matches, newest first, from a running server's /admin/feedback. The files run
as they are with 'gameassist eval DIR'. The admin token is ADMIN_TOKEN unless
--token is given.

`

// runEvalExport writes the scenarios of players' ratings into a directory.
func runEvalExport(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("eval export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, exportUsage); fs.PrintDefaults() }
	var server, out, rating, since, toolName, screen, token string
	fs.StringVar(&server, "server", "", "root URL of a running server (required)")
	fs.StringVar(&out, "out", "", "directory to write the scenario files into (required; created when missing)")
	fs.StringVar(&rating, "rating", "", "only ratings up or down")
	fs.StringVar(&since, "since", "", "only ratings since this long ago (24h) or this RFC 3339 time")
	fs.StringVar(&toolName, "tool", "", "only exchanges that called this tool")
	fs.StringVar(&screen, "screen", "", "only exchanges answered on this screen")
	fs.StringVar(&token, "token", "", "admin token (default ADMIN_TOKEN)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return fmt.Errorf("eval export: unexpected argument %q", fs.Arg(0))
	case server == "":
		return errors.New("eval export: --server is required")
	case out == "":
		return errors.New("eval export: --out is required")
	case rating != "" && rating != feedback.Up && rating != feedback.Down:
		return fmt.Errorf("eval export: --rating %q is not up or down", rating)
	}
	if token == "" {
		cfg, err := config.Load(getenv)
		if err != nil {
			return err
		}
		token = cfg.AdminToken
	}
	if token == "" {
		return errors.New("eval export: no admin token: set ADMIN_TOKEN or --token")
	}
	if err := os.MkdirAll(out, 0o755); err != nil { //nolint:gosec // scenario files are meant to be read and committed
		return fmt.Errorf("eval export: --out: %w", err)
	}
	c := adminClient{base: strings.TrimRight(server, "/"), token: token, http: &http.Client{Timeout: 30 * time.Second}}
	q := url.Values{}
	for k, v := range map[string]string{"rating": rating, "since": since, "tool": toolName, "screen": screen} {
		if v != "" {
			q.Set(k, v)
		}
	}
	q.Set("limit", "200")
	written := 0
	for {
		var page feedback.Page
		if err := c.getJSON(ctx, "/admin/feedback?"+q.Encode(), &page); err != nil {
			return err
		}
		for _, r := range page.Records {
			if !feedback.ValidID(r.ID) {
				return fmt.Errorf("eval export: the server sent the record id %q", r.ID)
			}
			y, err := c.get(ctx, "/admin/feedback/"+r.ID+"/scenario")
			if err != nil {
				return err
			}
			path := filepath.Join(out, "feedback-"+r.ID+".yaml")
			if err := writeReadable(path, y); err != nil {
				return fmt.Errorf("eval export: %w", err)
			}
			written++
		}
		if page.NextCursor == "" {
			break
		}
		q.Set("cursor", page.NextCursor)
	}
	fmt.Fprintf(stdout, "eval export: wrote %d scenario files to %s\n", written, out)
	return nil
}

// writeReadable writes b to path readable by everyone (0644, whatever the
// umask): reports and scenarios are shared files.
func writeReadable(path string, b []byte) error {
	if err := os.WriteFile(path, b, 0o644); err != nil { //nolint:gosec // shared, not secret
		return err
	}
	return os.Chmod(path, 0o644) //nolint:gosec // shared, not secret
}

// adminClient calls a server's admin routes.
type adminClient struct {
	base, token string
	http        *http.Client
}

func (c adminClient) get(ctx context.Context, path string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+path, nil)
	if err != nil {
		return nil, fmt.Errorf("eval export: %w", err)
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("eval export: server %s: %w", c.base, err)
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return nil, fmt.Errorf("eval export: %s: %w", path, err)
	}
	if resp.StatusCode != http.StatusOK {
		var e struct {
			Error struct{ Message string } `json:"error"`
		}
		_ = json.Unmarshal(b, &e)
		return nil, fmt.Errorf("eval export: GET %s: HTTP %d %s", strings.SplitN(path, "?", 2)[0], resp.StatusCode, e.Error.Message)
	}
	return b, nil
}

func (c adminClient) getJSON(ctx context.Context, path string, v any) error {
	b, err := c.get(ctx, path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("eval export: %s: the answer is not JSON: %w", strings.SplitN(path, "?", 2)[0], err)
	}
	return nil
}
