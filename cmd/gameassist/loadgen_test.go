package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// A load generator of its own process: BenchmarkHTTPTurnLongSession's
// economy_on_apart variant sends its timed turns from a child process, as
// players and a load test's generator do, so the benchmark's process CPU
// is the server's (with its LLM client and the in-process fake, which the
// bare baselines count as well) and not the generator's HTTP client too.
// The child is this test binary: TestMain runs the job named by
// loadGenEnv instead of the tests.

// loadGenEnv names the environment variable that carries a child's job.
const loadGenEnv = "GAMEASSIST_BENCH_LOADGEN"

// loadGenJob is a child's session: it sends turns about names in turn
// (as benchApp.turn does), in the blocks it is asked for.
type loadGenJob struct {
	URL     string   `json:"url"`
	Session string   `json:"session"`
	Token   string   `json:"token"`
	Names   []string `json:"names"`
}

// loadGenResult is a child's report of a block: each turn's wall time and
// its tool call's duration_ms, or what went wrong.
type loadGenResult struct {
	Turns  []time.Duration `json:"turns"`
	ToolMS []float64       `json:"tool_ms"`
	Error  string          `json:"error,omitempty"`
}

// turnBody is the body of turn i: a question about one of names.
func turnBody(session string, names []string, i int) []byte {
	raw, _ := json.Marshal(map[string]any{"session_id": session, "message": "Tell me about " + names[i%len(names)]})
	return raw
}

// turnToolMS checks a turn's reply, one tool call executed with success
// (a lookup that fails, a name the data does not have, would measure the
// name suggestions instead of the turn), and returns its duration_ms.
func turnToolMS(raw []byte) (float64, error) {
	var reply struct {
		ToolCalls []struct {
			Source     string  `json:"source"`
			Status     string  `json:"status"`
			DurationMS float64 `json:"duration_ms"`
		} `json:"tool_calls"`
	}
	if err := json.Unmarshal(raw, &reply); err != nil {
		return 0, fmt.Errorf("reply: %w", err)
	}
	if len(reply.ToolCalls) != 1 || reply.ToolCalls[0].Source != "executed" || reply.ToolCalls[0].Status != "success" {
		return 0, fmt.Errorf("tool calls %+v, want one executed with success", reply.ToolCalls)
	}
	return reply.ToolCalls[0].DurationMS, nil
}

// runLoadGen is a child's main: it reads its job from the environment,
// then, for each line "first n" on in, sends turns first..first+n-1 and
// writes their report as one JSON line, until in ends. It returns the
// process's exit code.
func runLoadGen(job string, in io.Reader, out io.Writer) int {
	var j loadGenJob
	if err := json.Unmarshal([]byte(job), &j); err != nil || len(j.Names) == 0 {
		_ = json.NewEncoder(out).Encode(loadGenResult{Error: fmt.Sprintf("%s: bad job %q", loadGenEnv, job)})
		return 1
	}
	client := &http.Client{Timeout: clientTimeout}
	lines := bufio.NewScanner(in)
	for lines.Scan() {
		var first, n int
		res := loadGenResult{}
		if _, err := fmt.Sscanf(lines.Text(), "%d %d", &first, &n); err != nil || n < 1 {
			res.Error = fmt.Sprintf("bad block %q", lines.Text())
		} else {
			res = j.run(client, first, n)
		}
		if err := json.NewEncoder(out).Encode(res); err != nil || res.Error != "" {
			return 1
		}
	}
	return 0
}

// run sends turns first..first+n-1 one after the other.
func (j loadGenJob) run(client *http.Client, first, n int) loadGenResult {
	res := loadGenResult{Turns: make([]time.Duration, 0, n), ToolMS: make([]float64, 0, n)}
	for i := first; i < first+n; i++ {
		t0 := time.Now()
		raw, err := j.post(client, turnBody(j.Session, j.Names, i))
		res.Turns = append(res.Turns, time.Since(t0))
		var ms float64
		if err == nil {
			ms, err = turnToolMS(raw)
		}
		if err != nil {
			res.Error = fmt.Sprintf("turn %d: %v", i, err)
			return res
		}
		res.ToolMS = append(res.ToolMS, ms)
	}
	return res
}

func (j loadGenJob) post(client *http.Client, body []byte) ([]byte, error) {
	req, err := http.NewRequest(http.MethodPost, j.URL+"/v1/chat", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+j.Token)
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("status %d: %s", resp.StatusCode, raw)
	}
	return raw, nil
}

// loadGenProc is a running child (this test binary).
type loadGenProc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *json.Decoder
	// closed holds close's result once it has run.
	closed *error
}

// startLoadGen starts a child for j.
func startLoadGen(j loadGenJob) (*loadGenProc, error) {
	job, err := json.Marshal(j)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), loadGenEnv+"="+string(job))
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &loadGenProc{cmd: cmd, stdin: stdin, stdout: json.NewDecoder(stdout)}, nil
}

// run has the child send turns first..first+n-1 and returns its report.
func (p *loadGenProc) run(first, n int) (loadGenResult, error) {
	if _, err := fmt.Fprintf(p.stdin, "%d %d\n", first, n); err != nil {
		return loadGenResult{}, fmt.Errorf("load generator: %w", err)
	}
	var res loadGenResult
	if err := p.stdout.Decode(&res); err != nil {
		return loadGenResult{}, fmt.Errorf("load generator report: %w", err)
	}
	if res.Error != "" {
		return res, errors.New("load generator: " + res.Error)
	}
	return res, nil
}

// close ends the child and waits for it; calls after the first return
// the first's result.
func (p *loadGenProc) close() error {
	if p.closed == nil {
		_ = p.stdin.Close()
		err := p.cmd.Wait()
		p.closed = &err
	}
	return *p.closed
}

// TestLoadGenApart: a child process sends blocks of turns to a live
// server and reports each turn; a reply without the turn's tool call
// fails the block and names the turn, and a job or a block that cannot be
// read is refused.
func TestLoadGenApart(t *testing.T) {
	ba := newBenchApp(t, false)
	s := ba.sessions(t, 1)[0]
	p, err := startLoadGen(loadGenJob{URL: ba.ts.URL, Session: s.id, Token: s.token, Names: ba.names})
	if err != nil {
		t.Fatal(err)
	}
	for _, block := range [][2]int{{0, 3}, {3, 2}} {
		res, err := p.run(block[0], block[1])
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Turns) != block[1] || len(res.ToolMS) != block[1] {
			t.Fatalf("block %v: report %+v", block, res)
		}
	}
	if err := p.close(); err != nil {
		t.Fatalf("child exit: %v", err)
	}

	p, err = startLoadGen(loadGenJob{URL: ba.ts.URL, Session: s.id, Token: s.token, Names: []string{"Nobody"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.run(0, 1); err == nil || !strings.Contains(err.Error(), "turn 0: tool calls") {
		t.Fatalf("a turn without its tool call: %v", err)
	}
	if err := p.close(); err == nil {
		t.Fatal("the child exited 0 after a failed block")
	}

	var out bytes.Buffer
	if code := runLoadGen(`{"names":[]}`, strings.NewReader(""), &out); code != 1 || !strings.Contains(out.String(), "bad job") {
		t.Fatalf("bad job: exit %d, %s", code, out.String())
	}
	out.Reset()
	if code := runLoadGen(`{"names":["x"]}`, strings.NewReader("1\n"), &out); code != 1 || !strings.Contains(out.String(), "bad block") {
		t.Fatalf("bad block: exit %d, %s", code, out.String())
	}
}
