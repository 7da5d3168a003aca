// Package stats counts tool calls, LLM calls and chat turns in Redis, so the
// admin view (GET /admin/stats) shows totals over every gameassist instance,
// not just the one that answers the request.
//
// A batch of records is summed first and sent as one HINCRBY per hash field
// it changes, in one MULTI/EXEC pipeline.
// Latencies go into a fixed-bucket histogram per tool (and for the LLM and
// turns), from which Snapshot estimates the median and the 95th percentile. All keys share
// the hash tag {stats} so the pipeline stays one round trip on Redis
// Cluster too.
package stats

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gameassist/gameassist/tool"
)

// Statuses of a tool call.
const (
	StatusSuccess = "success"
	StatusError   = "error"
	// StatusSkipped: a call not run, and no error (see tool.StatusSkipped).
	StatusSkipped = "skipped"
)

// InvalidToolName is recorded in place of a tool name that is too long or
// holds characters tool names never have (names may come from an LLM).
const InvalidToolName = "invalid_tool_name"

// UnknownToolName is recorded in place of a well-formed name that is no
// tool of this server (an LLM may call any name it makes up): only known
// tools get keys and rows of their own, so made-up names cannot add keys.
const UnknownToolName = "_unknown"

// DefaultTTL is how long the totals of a key that stops being written are
// kept: every write renews its keys' TTL, so nothing the recorder writes
// stays in Redis forever (a removed tool's totals go after this).
const DefaultTTL = 90 * 24 * time.Hour

// TopN is how many tools Report.TopTools lists.
const TopN = 10

// bucketBounds are the histogram's upper bounds in microseconds; a last,
// unbounded bucket follows.
func bucketBounds() []int64 {
	return []int64{
		100, 250, 500, 1_000, 2_500, 5_000, 10_000, 25_000, 50_000, 100_000,
		250_000, 500_000, 1_000_000, 2_500_000, 5_000_000, 10_000_000, 30_000_000, 60_000_000,
	}
}

// Hash fields.
const (
	fCalls      = "calls"
	fErrors     = "errors"
	fCategory   = "category"
	fDegraded   = "degraded"
	fPrompt     = "prompt_tokens"
	fCompletion = "completion_tokens"
	fTimed      = "timed"
	fSumUS      = "sum_us"
	fBucket     = "b" // + bucket index
)

// ToolRecord is one tool call as the chat engine or screen rules saw it.
type ToolRecord struct {
	Tool     string
	Category string
	// Source is where the result came from.
	Source tool.Source
	// Status is StatusSuccess, StatusError or StatusSkipped.
	Status string
	// Duration is the call's run time; it enters the latency histogram for
	// sources that ran the tool (executed, proactive, mcp).
	Duration time.Duration
	// Version is the tool version that answered (0: unversioned); a
	// versioned call also counts in its version's own totals.
	Version int
}

// LLMRecord is one LLM completion call.
type LLMRecord struct {
	PromptTokens     int
	CompletionTokens int
	Duration         time.Duration
	// Err is set when the call failed.
	Err bool
	// Degraded is set when the turn fell back to the offline responder.
	Degraded bool
}

// Recorder writes and reads the shared statistics.
type Recorder struct {
	rdb    redis.UniversalClient
	prefix string
	bounds []int64
	known  func(name string) bool
	ttl    time.Duration
}

// New returns a Recorder whose keys start with prefix + ":{stats}:" (prefix
// defaults to "ga"). known reports whether a tool name is one of the
// server's tools (its registry, read at each record so reloads count);
// other names are counted together as UnknownToolName. A nil known counts
// every well-formed name under its own.
func New(rdb redis.UniversalClient, prefix string, known func(name string) bool) (*Recorder, error) {
	if rdb == nil {
		return nil, errors.New("stats: new: nil redis client")
	}
	if prefix == "" {
		prefix = "ga"
	}
	if strings.ContainsAny(prefix, "{}") {
		return nil, fmt.Errorf("stats: new: prefix %q holds a hash tag brace", prefix)
	}
	return &Recorder{rdb: rdb, prefix: prefix + ":{stats}:", bounds: bucketBounds(), known: known, ttl: DefaultTTL}, nil
}

func (r *Recorder) toolsKey() string           { return r.prefix + "tools" }
func (r *Recorder) toolKey(name string) string { return r.prefix + "tool:" + name }

// versionsKey is the set of "<tool>@v<version>" with counts of their own,
// kept in "<prefix>:{stats}:toolv:<tool>@v<version>".
func (r *Recorder) versionsKey() string         { return r.prefix + "toolversions" }
func (r *Recorder) versionKey(tv string) string { return r.prefix + "toolv:" + tv }

// maxVersion bounds the versions counted apart; a larger one (never a
// real tool's) is counted with its tool only.
const maxVersion = 10_000

func (r *Recorder) llmKey() string   { return r.prefix + "llm" }
func (r *Recorder) turnsKey() string { return r.prefix + "turns" }

func (r *Recorder) bucket(d time.Duration) string {
	us := d.Microseconds()
	i, _ := slices.BinarySearch(r.bounds, us)
	return fBucket + strconv.Itoa(i)
}

// cleanName is the name a call is counted under: the tool's own when it is
// well formed and known, else InvalidToolName or UnknownToolName.
func (r *Recorder) cleanName(name string) string {
	if name == "" || len(name) > 64 {
		return InvalidToolName
	}
	for _, c := range name {
		if (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (c < '0' || c > '9') && c != '_' && c != '-' && c != '.' {
			return InvalidToolName
		}
	}
	if r.known != nil && !r.known(name) {
		return UnknownToolName
	}
	return name
}

// RecordTools counts tool calls; all of recs are written in one round trip.
func (r *Recorder) RecordTools(ctx context.Context, recs ...ToolRecord) error {
	if len(recs) == 0 {
		return nil
	}
	type delta struct {
		category string
		fields   map[string]int64
	}
	byTool := map[string]*delta{}
	byVersion := map[string]*delta{}
	var order, vorder []string
	for _, rec := range recs {
		if !slices.Contains(tool.Sources(), rec.Source) {
			return fmt.Errorf("stats: record tool %s: unknown source %q", rec.Tool, rec.Source)
		}
		if rec.Status != StatusSuccess && rec.Status != StatusError && rec.Status != StatusSkipped {
			return fmt.Errorf("stats: record tool %s: unknown status %q", rec.Tool, rec.Status)
		}
		name := r.cleanName(rec.Tool)
		count := func(m map[string]*delta, key string, order *[]string) {
			d := m[key]
			if d == nil {
				d = &delta{fields: map[string]int64{}}
				m[key] = d
				*order = append(*order, key)
			}
			if rec.Category != "" {
				d.category = rec.Category
			}
			d.fields[fCalls]++
			d.fields[string(rec.Source)]++
			if rec.Status == StatusError {
				d.fields[fErrors]++
			}
			if rec.Source.Ran() {
				r.timing(d.fields, rec.Duration)
			}
		}
		count(byTool, name, &order)
		if rec.Version > 0 && rec.Version <= maxVersion && name != InvalidToolName && name != UnknownToolName {
			count(byVersion, name+"@v"+strconv.Itoa(rec.Version), &vorder)
		}
	}
	_, err := r.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		// write adds deltas to one hash per name and lists the names in set.
		write := func(set string, names []string, deltas map[string]*delta, key func(string) string) {
			if len(names) == 0 {
				return
			}
			for _, name := range names {
				d, k := deltas[name], key(name)
				p.SAdd(ctx, set, name)
				if d.category != "" {
					p.HSet(ctx, k, fCategory, d.category)
				}
				for f, n := range d.fields {
					p.HIncrBy(ctx, k, f, n)
				}
				p.PExpire(ctx, k, r.ttl)
			}
			p.PExpire(ctx, set, r.ttl)
		}
		write(r.toolsKey(), order, byTool, r.toolKey)
		write(r.versionsKey(), vorder, byVersion, r.versionKey)
		return nil
	})
	if err != nil {
		return fmt.Errorf("stats: record tools: %w", err)
	}
	return nil
}

// RecordLLM counts LLM calls, in one round trip: the records are summed
// here first, so a batch costs one HINCRBY per field it changes, however
// many calls it holds.
func (r *Recorder) RecordLLM(ctx context.Context, recs ...LLMRecord) error {
	if len(recs) == 0 {
		return nil
	}
	d := make(map[string]int64)
	for _, rec := range recs {
		d[fCalls]++
		if rec.Err {
			d[fErrors]++
		}
		if rec.Degraded {
			d[fDegraded]++
		}
		d[fPrompt] += int64(max(rec.PromptTokens, 0))
		d[fCompletion] += int64(max(rec.CompletionTokens, 0))
		r.timing(d, rec.Duration)
	}
	if err := r.add(ctx, r.llmKey(), d); err != nil {
		return fmt.Errorf("stats: record llm: %w", err)
	}
	return nil
}

// RecordTurn counts chat turns with their total durations, in one round
// trip (summed first, as RecordLLM does).
func (r *Recorder) RecordTurn(ctx context.Context, ds ...time.Duration) error {
	if len(ds) == 0 {
		return nil
	}
	d := make(map[string]int64)
	for _, dur := range ds {
		d[fCalls]++
		r.timing(d, dur)
	}
	if err := r.add(ctx, r.turnsKey(), d); err != nil {
		return fmt.Errorf("stats: record turn: %w", err)
	}
	return nil
}

// timing counts one duration in d: timed, its sum and its bucket.
func (r *Recorder) timing(d map[string]int64, dur time.Duration) {
	d[fTimed]++
	d[fSumUS] += max(dur.Microseconds(), 0)
	d[r.bucket(dur)]++
}

// add adds the deltas d to the hash at key (fields in name order) and
// renews its TTL, in one MULTI/EXEC round trip.
func (r *Recorder) add(ctx context.Context, key string, d map[string]int64) error {
	_, err := r.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		for _, f := range slices.Sorted(maps.Keys(d)) {
			p.HIncrBy(ctx, key, f, d[f])
		}
		p.PExpire(ctx, key, r.ttl)
		return nil
	})
	return err
}

// ToolStats is the totals of one tool or one category. MeanMS, P50MS and
// P95MS cover the calls that ran the tool (executed, proactive and mcp); the
// percentiles are interpolated within a histogram bucket.
type ToolStats struct {
	Name       string  `json:"name"`
	Category   string  `json:"category,omitempty"`
	Calls      int64   `json:"calls"`
	Errors     int64   `json:"errors"`
	CacheHits  int64   `json:"cache_hits"`
	Duplicates int64   `json:"duplicates"`
	Proactive  int64   `json:"proactive"`
	Executed   int64   `json:"executed"`
	Skipped    int64   `json:"skipped"`
	MCP        int64   `json:"mcp"`
	MeanMS     float64 `json:"mean_ms"`
	P50MS      float64 `json:"p50_ms"`
	P95MS      float64 `json:"p95_ms"`
	ErrorRate  float64 `json:"error_rate"`
	// Version is set on the per-version totals of a versioned tool.
	Version int `json:"version,omitempty"`
	// Versions are a versioned tool's totals per version, ascending, so a
	// rollout's versions compare on errors, latency and cache hits.
	Versions []ToolStats `json:"versions,omitempty"`
}

// TopTool is one entry of the most called tools.
type TopTool struct {
	Name  string `json:"name"`
	Calls int64  `json:"calls"`
}

// LLMStats is the totals of LLM calls.
type LLMStats struct {
	Calls            int64   `json:"calls"`
	Errors           int64   `json:"errors"`
	Degraded         int64   `json:"degraded"`
	PromptTokens     int64   `json:"prompt_tokens"`
	CompletionTokens int64   `json:"completion_tokens"`
	TotalTokens      int64   `json:"total_tokens"`
	MeanMS           float64 `json:"mean_ms"`
	P50MS            float64 `json:"p50_ms"`
	P95MS            float64 `json:"p95_ms"`
	ErrorRate        float64 `json:"error_rate"`
}

// TurnStats is the totals of chat turns.
type TurnStats struct {
	Count  int64   `json:"count"`
	MeanMS float64 `json:"mean_ms"`
	P50MS  float64 `json:"p50_ms"`
	P95MS  float64 `json:"p95_ms"`
}

// Report is the statistics over every instance, as GET /admin/stats serves
// them. Tools and Categories are sorted by name.
type Report struct {
	Tools      []ToolStats `json:"tools"`
	Categories []ToolStats `json:"categories"`
	TopTools   []TopTool   `json:"top_tools"`
	LLM        LLMStats    `json:"llm"`
	Turns      TurnStats   `json:"turns"`
}

// hist is a decoded latency histogram.
type hist struct {
	timed, sumUS int64
	buckets      []int64
}

func (r *Recorder) decodeHist(f map[string]string) (hist, error) {
	h := hist{buckets: make([]int64, len(r.bounds)+1)}
	var err error
	if h.timed, err = num(f, fTimed); err != nil {
		return hist{}, err
	}
	if h.sumUS, err = num(f, fSumUS); err != nil {
		return hist{}, err
	}
	for i := range h.buckets {
		if h.buckets[i], err = num(f, fBucket+strconv.Itoa(i)); err != nil {
			return hist{}, err
		}
	}
	return h, nil
}

func (h *hist) add(o hist) {
	h.timed += o.timed
	h.sumUS += o.sumUS
	for i := range h.buckets {
		h.buckets[i] += o.buckets[i]
	}
}

func (h hist) meanMS() float64 {
	if h.timed == 0 {
		return 0
	}
	return float64(h.sumUS) / float64(h.timed) / 1000
}

// quantileMS estimates the q-quantile (0 < q <= 1) in milliseconds,
// interpolating linearly within the bucket that holds it; the unbounded
// bucket reports the last bound.
func (h hist) quantileMS(q float64, bounds []int64) float64 {
	var total int64
	for _, n := range h.buckets {
		total += n
	}
	if total == 0 {
		return 0
	}
	rank := q * float64(total)
	var cum int64
	for i, n := range h.buckets {
		if n == 0 || float64(cum+n) < rank {
			cum += n
			continue
		}
		if i == len(bounds) {
			return float64(bounds[len(bounds)-1]) / 1000
		}
		lo := int64(0)
		if i > 0 {
			lo = bounds[i-1]
		}
		frac := (rank - float64(cum)) / float64(n)
		return (float64(lo) + frac*float64(bounds[i]-lo)) / 1000
	}
	return float64(bounds[len(bounds)-1]) / 1000
}

// p50MS and p95MS are the median and the 95th percentile (see quantileMS).
func (h hist) p50MS(bounds []int64) float64 { return h.quantileMS(0.50, bounds) }
func (h hist) p95MS(bounds []int64) float64 { return h.quantileMS(0.95, bounds) }

func num(f map[string]string, field string) (int64, error) {
	v, ok := f[field]
	if !ok {
		return 0, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("field %s: %w", field, err)
	}
	return n, nil
}

func ratio(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Snapshot reads the statistics of every instance.
func (r *Recorder) Snapshot(ctx context.Context) (Report, error) {
	sets := r.rdb.Pipeline()
	namesCmd := sets.SMembers(ctx, r.toolsKey())
	versionsCmd := sets.SMembers(ctx, r.versionsKey())
	if _, err := sets.Exec(ctx); err != nil {
		return Report{}, fmt.Errorf("stats: snapshot: %w", err)
	}
	names, tvs := namesCmd.Val(), versionsCmd.Val()
	slices.Sort(names)
	pipe := r.rdb.Pipeline()
	toolCmds := make([]*redis.MapStringStringCmd, len(names))
	for i, n := range names {
		toolCmds[i] = pipe.HGetAll(ctx, r.toolKey(n))
	}
	versionCmds := make([]*redis.MapStringStringCmd, len(tvs))
	for i, tv := range tvs {
		versionCmds[i] = pipe.HGetAll(ctx, r.versionKey(tv))
	}
	llmCmd := pipe.HGetAll(ctx, r.llmKey())
	turnCmd := pipe.HGetAll(ctx, r.turnsKey())
	if _, err := pipe.Exec(ctx); err != nil {
		return Report{}, fmt.Errorf("stats: snapshot: %w", err)
	}

	rep := Report{Tools: []ToolStats{}, Categories: []ToolStats{}, TopTools: []TopTool{}}
	type catAcc struct {
		stats ToolStats
		hist  hist
	}
	cats := map[string]*catAcc{}
	for i, name := range names {
		f := toolCmds[i].Val()
		if len(f) == 0 {
			// Its totals expired (no call for DefaultTTL): no row.
			continue
		}
		ts, h, err := r.decodeTool(name, f)
		if err != nil {
			return Report{}, fmt.Errorf("stats: snapshot: tool %s: %w", name, err)
		}
		rep.Tools = append(rep.Tools, ts)
		c := cats[ts.Category]
		if c == nil {
			c = &catAcc{stats: ToolStats{Name: ts.Category}, hist: hist{buckets: make([]int64, len(r.bounds)+1)}}
			cats[ts.Category] = c
		}
		c.stats.Calls += ts.Calls
		c.stats.Errors += ts.Errors
		c.stats.CacheHits += ts.CacheHits
		c.stats.Duplicates += ts.Duplicates
		c.stats.Proactive += ts.Proactive
		c.stats.Executed += ts.Executed
		c.stats.Skipped += ts.Skipped
		c.stats.MCP += ts.MCP
		c.hist.add(h)
	}
	if err := r.attachVersions(rep.Tools, tvs, versionCmds); err != nil {
		return Report{}, fmt.Errorf("stats: snapshot: %w", err)
	}
	for _, c := range cats {
		c.stats.MeanMS = c.hist.meanMS()
		c.stats.P50MS = c.hist.p50MS(r.bounds)
		c.stats.P95MS = c.hist.p95MS(r.bounds)
		c.stats.ErrorRate = ratio(c.stats.Errors, c.stats.Calls)
		rep.Categories = append(rep.Categories, c.stats)
	}
	slices.SortFunc(rep.Categories, func(a, b ToolStats) int { return strings.Compare(a.Name, b.Name) })

	top := slices.Clone(rep.Tools)
	slices.SortStableFunc(top, func(a, b ToolStats) int { return cmp.Compare(b.Calls, a.Calls) })
	for _, t := range top[:min(TopN, len(top))] {
		rep.TopTools = append(rep.TopTools, TopTool{Name: t.Name, Calls: t.Calls})
	}

	var err error
	if rep.LLM, err = r.decodeLLM(llmCmd.Val()); err != nil {
		return Report{}, fmt.Errorf("stats: snapshot: llm: %w", err)
	}
	tf := turnCmd.Val()
	if rep.Turns.Count, err = num(tf, fCalls); err != nil {
		return Report{}, fmt.Errorf("stats: snapshot: turns: %w", err)
	}
	th, err := r.decodeHist(tf)
	if err != nil {
		return Report{}, fmt.Errorf("stats: snapshot: turns: %w", err)
	}
	rep.Turns.MeanMS, rep.Turns.P50MS, rep.Turns.P95MS = th.meanMS(), th.p50MS(r.bounds), th.p95MS(r.bounds)
	return rep, nil
}

func (r *Recorder) decodeTool(name string, f map[string]string) (ToolStats, hist, error) {
	ts := ToolStats{Name: name, Category: f[fCategory]}
	for _, x := range []struct {
		field string
		dst   *int64
	}{
		{fCalls, &ts.Calls},
		{fErrors, &ts.Errors},
		{string(tool.SourceCache), &ts.CacheHits},
		{string(tool.SourceDuplicate), &ts.Duplicates},
		{string(tool.SourceProactive), &ts.Proactive},
		{string(tool.SourceExecuted), &ts.Executed},
		{string(tool.SourceSkipped), &ts.Skipped},
		{string(tool.SourceMCP), &ts.MCP},
	} {
		n, err := num(f, x.field)
		if err != nil {
			return ToolStats{}, hist{}, err
		}
		*x.dst = n
	}
	h, err := r.decodeHist(f)
	if err != nil {
		return ToolStats{}, hist{}, err
	}
	ts.MeanMS = h.meanMS()
	ts.P50MS = h.p50MS(r.bounds)
	ts.P95MS = h.p95MS(r.bounds)
	ts.ErrorRate = ratio(ts.Errors, ts.Calls)
	return ts, h, nil
}

func (r *Recorder) decodeLLM(f map[string]string) (LLMStats, error) {
	var s LLMStats
	for _, x := range []struct {
		field string
		dst   *int64
	}{
		{fCalls, &s.Calls},
		{fErrors, &s.Errors},
		{fDegraded, &s.Degraded},
		{fPrompt, &s.PromptTokens},
		{fCompletion, &s.CompletionTokens},
	} {
		n, err := num(f, x.field)
		if err != nil {
			return LLMStats{}, err
		}
		*x.dst = n
	}
	h, err := r.decodeHist(f)
	if err != nil {
		return LLMStats{}, err
	}
	s.TotalTokens = s.PromptTokens + s.CompletionTokens
	s.MeanMS, s.P50MS, s.P95MS = h.meanMS(), h.p50MS(r.bounds), h.p95MS(r.bounds)
	s.ErrorRate = ratio(s.Errors, s.Calls)
	return s, nil
}

// attachVersions decodes the per-version totals and files them under
// their tools, versions ascending.
func (r *Recorder) attachVersions(tools []ToolStats, tvs []string, cmds []*redis.MapStringStringCmd) error {
	for i, tv := range tvs {
		name, vtext, ok := strings.Cut(tv, "@v")
		v, err := strconv.Atoi(vtext)
		if !ok || err != nil {
			continue
		}
		at, found := slices.BinarySearchFunc(tools, name, func(t ToolStats, n string) int { return strings.Compare(t.Name, n) })
		if !found {
			continue
		}
		vs, _, err := r.decodeTool(name, cmds[i].Val())
		if err != nil {
			return fmt.Errorf("tool %s: %w", tv, err)
		}
		vs.Version = v
		tools[at].Versions = append(tools[at].Versions, vs)
	}
	for i := range tools {
		slices.SortFunc(tools[i].Versions, func(a, b ToolStats) int { return cmp.Compare(a.Version, b.Version) })
	}
	return nil
}
