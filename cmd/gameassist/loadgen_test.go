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

// loadGenJob is what a child sends: turns first..first+n-1 of one session,
// asking about names in turn (as benchApp.turn does).
type loadGenJob struct {
	URL     string   `json:"url"`
	Session string   `json:"session"`
	Token   string   `json:"token"`
	Names   []string `json:"names"`
	First   int      `json:"first"`
	N       int      `json:"n"`
}

// loadGenResult is a child's report: each turn's wall time and its tool
// call's duration_ms, or what went wrong.
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
// writes "ready", waits for a line on in, runs the turns and writes its
// result as one JSON line. It returns the process's exit code.
func runLoadGen(job string, in io.Reader, out io.Writer) int {
	var j loadGenJob
	res := loadGenResult{}
	if err := json.Unmarshal([]byte(job), &j); err != nil || len(j.Names) == 0 || j.N < 1 {
		res.Error = fmt.Sprintf("%s: bad job %q", loadGenEnv, job)
	} else {
		fmt.Fprintln(out, "ready")
		if _, err := bufio.NewReader(in).ReadString('\n'); err != nil {
			res.Error = "waiting for the start: " + err.Error()
		} else {
			res = j.run(&http.Client{Timeout: clientTimeout})
		}
	}
	if err := json.NewEncoder(out).Encode(res); err != nil || res.Error != "" {
		return 1
	}
	return 0
}

// run sends the job's turns one after the other.
func (j loadGenJob) run(client *http.Client) loadGenResult {
	res := loadGenResult{Turns: make([]time.Duration, 0, j.N), ToolMS: make([]float64, 0, j.N)}
	for i := j.First; i < j.First+j.N; i++ {
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

// loadGenApart runs j in a child process (this test binary) and returns
// its result with this process's CPU time over the turns: from the
// child's start signal to its report, so the child's own start-up and
// exit are not counted.
func loadGenApart(j loadGenJob) (loadGenResult, time.Duration, error) {
	job, err := json.Marshal(j)
	if err != nil {
		return loadGenResult{}, 0, err
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), loadGenEnv+"="+string(job))
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return loadGenResult{}, 0, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return loadGenResult{}, 0, err
	}
	if err := cmd.Start(); err != nil {
		return loadGenResult{}, 0, err
	}
	res, cpu, runErr := loadGenTalk(stdin, bufio.NewReader(stdout))
	_ = stdin.Close()
	if err := cmd.Wait(); err != nil && runErr == nil {
		runErr = fmt.Errorf("load generator: %w", err)
	}
	return res, cpu, runErr
}

// loadGenTalk waits for the child's "ready", starts it and reads its
// report, timing this process's CPU from the start to the report.
func loadGenTalk(stdin io.Writer, stdout *bufio.Reader) (loadGenResult, time.Duration, error) {
	line, err := stdout.ReadString('\n')
	if err != nil || line != "ready\n" {
		return loadGenResult{}, 0, fmt.Errorf("load generator: want ready, got %q (%v)", line, err)
	}
	cpu0, err := processCPU()
	if err != nil {
		return loadGenResult{}, 0, err
	}
	if _, err := io.WriteString(stdin, "go\n"); err != nil {
		return loadGenResult{}, 0, err
	}
	var res loadGenResult
	if err := json.NewDecoder(stdout).Decode(&res); err != nil {
		return loadGenResult{}, 0, fmt.Errorf("load generator report: %w", err)
	}
	cpu1, err := processCPU()
	if err != nil {
		return loadGenResult{}, 0, err
	}
	if res.Error != "" {
		return res, 0, errors.New("load generator: " + res.Error)
	}
	return res, cpu1 - cpu0, nil
}

// TestLoadGenApart: a child process sends its turns to a live server and
// reports each, while this process counts only its own CPU; a reply
// without the turn's tool call fails the run and names the turn, and a
// job that cannot be read is refused.
func TestLoadGenApart(t *testing.T) {
	ba := newBenchApp(t, false)
	s := ba.sessions(t, 1)[0]
	job := loadGenJob{URL: ba.ts.URL, Session: s.id, Token: s.token, Names: ba.names, N: 3}
	res, cpu, err := loadGenApart(job)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Turns) != 3 || len(res.ToolMS) != 3 || cpu <= 0 {
		t.Fatalf("report %+v, CPU %v: want 3 turns, 3 tool times and the server's CPU", res, cpu)
	}
	job.Names, job.N = []string{"Nobody"}, 1
	if _, _, err := loadGenApart(job); err == nil || !strings.Contains(err.Error(), "turn 0: tool calls") {
		t.Fatalf("a turn without its tool call: %v", err)
	}
	var out bytes.Buffer
	if code := runLoadGen(`{"names":[]}`, strings.NewReader(""), &out); code != 1 || !strings.Contains(out.String(), "bad job") {
		t.Fatalf("bad job: exit %d, %s", code, out.String())
	}
}
