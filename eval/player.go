package eval

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/gameassist/gameassist/tool"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/gameassist/gameassist/eval/scenario"
)

// hasPlayer reports whether a scenario pushes a player state.
func hasPlayer(sc scenario.Scenario) bool {
	for _, st := range sc.Steps {
		if len(st.Player) > 0 {
			return true
		}
	}
	return false
}

// newPlayerID is a player id of one scenario run, so scenarios never see
// each other's states.
func newPlayerID() (string, error) {
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return "eval-" + hex.EncodeToString(b), nil
}

// pushPlayer sends a player state as the game server does: signed with
// the webhook secret, timestamped now.
func (r *Runner) pushPlayer(ctx context.Context, playerID string, state json.RawMessage) error {
	if r.opts.WebhookSecret == "" {
		return errors.New("a player: step needs the server's WEBHOOK_SECRET")
	}
	var body bytes.Buffer
	if err := json.Compact(&body, state); err != nil {
		return fmt.Errorf("player state: %w", err)
	}
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	mac := hmac.New(sha256.New, []byte(r.opts.WebhookSecret))
	mac.Write([]byte(ts + "."))
	mac.Write(body.Bytes())
	path := "/v1/players/" + url.PathEscape(playerID) + "/state"
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, r.base+path, bytes.NewReader(body.Bytes()))
	if err != nil {
		return fmt.Errorf("PUT %s: %w", path, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Signature", "t="+ts+",v1="+hex.EncodeToString(mac.Sum(nil)))
	resp, err := r.hc.Do(req)
	if err != nil {
		return fmt.Errorf("PUT %s: %w", path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, maxReplyBytes))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("PUT %s: HTTP %d: %s", path, resp.StatusCode, tool.Clip(string(raw), 200))
	}
	var out struct {
		Applied bool `json:"applied"`
	}
	if err := json.Unmarshal(raw, &out); err != nil || !out.Applied {
		return fmt.Errorf("PUT %s: the state was not applied: %s", path, tool.Clip(string(raw), 200))
	}
	return nil
}
