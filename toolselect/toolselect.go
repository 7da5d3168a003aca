// Package toolselect chooses which tool schemas an LLM call offers: the
// tools the current screen's rules name, the tools the player's message
// matches (hashing-embedder similarity over each tool's name, description
// and example questions), the tools used in recent exchanges and a small
// always-on core, capped per call and listed in one stable order. It also
// answers find_tools, the tool the model calls to get more schemas mid-turn.
package toolselect

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/gameassist/gameassist/textsearch/embed"
	"github.com/gameassist/gameassist/tool"
)

// FindToolsName is the name of the tool that returns more tool schemas.
const FindToolsName = "find_tools"

// Modes of selection.
const (
	// ModeAuto offers a selected subset per call.
	ModeAuto = "auto"
	// ModeAll offers every tool on every call.
	ModeAll = "all"
	// ModeDeferred offers the same few tools on every call (the core,
	// find_tools, use_tool and search_conversation) and describes the
	// selected others in the conversation, where the model calls them
	// through use_tool: the tool list never changes, so a provider's
	// prefix cache keeps the whole conversation.
	ModeDeferred = "deferred"
)

// UseToolName is the tool that calls a tool described in the
// conversation (ModeDeferred).
const UseToolName = "use_tool"

// DefaultMax is the default cap of tools offered per call, find_tools
// included.
const DefaultMax = 10

// DefaultCore are the tools offered on every call when present: the
// lookup most questions need.
func DefaultCore() []string {
	return []string{"gcs_get_champion_details"}
}

//go:embed examples.json
var defaultExamples []byte

//go:embed kinds.json
var defaultKinds []byte

// DefaultKindTools returns the embedded tools per entity kind (kinds.json
// next to this file): a message naming an entity of a kind favours these
// tools; a key "kind*2" lists tools favoured when two or more entities of
// the kind are named.
func DefaultKindTools() (map[string][]string, error) {
	var m map[string][]string
	if err := json.Unmarshal(defaultKinds, &m); err != nil {
		return nil, fmt.Errorf("toolselect: kinds.json: %w", err)
	}
	return m, nil
}

// entityBonus is added to the similarity of a tool whose entity kind the
// message names.
const entityBonus = 0.2

// DefaultExamples returns the embedded example questions per tool name
// (examples.json next to this file).
func DefaultExamples() (map[string][]string, error) {
	var m map[string][]string
	if err := json.Unmarshal(defaultExamples, &m); err != nil {
		return nil, fmt.Errorf("toolselect: examples.json: %w", err)
	}
	return m, nil
}

// Options tune a Selector; zero values take the defaults.
type Options struct {
	// Mode is ModeAuto (default) or ModeAll.
	Mode string
	// Max caps the tools per call, find_tools included (default DefaultMax).
	Max int
	// Core tools are offered on every call (default DefaultCore()); names
	// not among the specs are ignored.
	Core []string
	// Examples are example questions per tool name (default
	// DefaultExamples()); names not among the specs are ignored.
	Examples map[string][]string
	// Entities are the game's entity names by kind ("champion", "boss",
	// "faction", ...), in every locale; a message naming one favours the
	// kind's tools. Optional.
	Entities map[string][]string
	// KindTools are the tools per entity kind (default DefaultKindTools()).
	KindTools map[string][]string
}

// Selector picks tools per call. It is safe for concurrent use.
type Selector struct {
	specs    []tool.Spec
	pos      map[string]int
	idx      *index // per spec: description vector, then one per example
	emb      *embed.Hashing
	core     []string
	listed   []tool.Spec // the specs outside the core, in order
	max      int
	all      bool
	deferred bool
	names    []entityName // longest first
	kinds    map[string][]string
	// recent remembers the scores of recent texts: a turn scores its
	// message on each of its LLM calls.
	recent scoredMemo
}

// scoredMemo remembers scored's answers by text, at most scoredMemoSize,
// forgotten all at once when full. Answers are shared: read only.
type scoredMemo struct {
	mu sync.Mutex
	m  map[string][]scoredTool
}

const scoredMemoSize = 512

func (m *scoredMemo) get(text string) ([]scoredTool, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	sc, ok := m.m[text]
	return sc, ok
}

func (m *scoredMemo) put(text string, sc []scoredTool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil || len(m.m) >= scoredMemoSize {
		m.m = make(map[string][]scoredTool, scoredMemoSize)
	}
	m.m[text] = sc
}

// entityName is one lower-cased entity name and its kind.
type entityName struct {
	name, kind string
}

// New returns a Selector over specs, in their order (the registry's). It
// refuses an unknown mode and a cap under 2 (find_tools and one tool).
func New(specs []tool.Spec, opts Options) (*Selector, error) {
	switch opts.Mode {
	case "", ModeAuto, ModeAll, ModeDeferred:
	default:
		return nil, fmt.Errorf("toolselect: mode %q is not %s, %s or %s", opts.Mode, ModeAuto, ModeAll, ModeDeferred)
	}
	if opts.Max == 0 {
		opts.Max = DefaultMax
	}
	if opts.Max < 2 {
		return nil, fmt.Errorf("toolselect: max tools per call %d is under 2", opts.Max)
	}
	if opts.Core == nil {
		opts.Core = DefaultCore()
	}
	if opts.Examples == nil {
		ex, err := DefaultExamples()
		if err != nil {
			return nil, err
		}
		opts.Examples = ex
	}
	emb, err := embed.NewHashing(embed.HashingOptions{})
	if err != nil {
		return nil, fmt.Errorf("toolselect: %w", err)
	}
	s := &Selector{emb: emb, max: opts.Max, all: opts.Mode == ModeAll, deferred: opts.Mode == ModeDeferred, pos: map[string]int{}}
	var vecs [][][]float32
	for _, sp := range specs {
		if sp.Name == FindToolsName || sp.Name == UseToolName {
			return nil, errors.New("toolselect: a registered tool is named " + sp.Name)
		}
		s.pos[sp.Name] = len(s.specs)
		s.specs = append(s.specs, sp)
		vecs = append(vecs, specVectors(emb, sp, opts.Examples[sp.Name]))
	}
	s.idx = newIndex(emb.Dim(), vecs)
	for _, c := range opts.Core {
		if _, ok := s.pos[c]; ok {
			s.core = append(s.core, c)
		}
	}
	for _, sp := range s.specs {
		if !slices.Contains(s.core, sp.Name) {
			s.listed = append(s.listed, sp)
		}
	}
	if opts.KindTools == nil {
		kt, err := DefaultKindTools()
		if err != nil {
			return nil, err
		}
		opts.KindTools = kt
	}
	s.kinds = opts.KindTools
	seen := map[string]bool{}
	for kind, names := range opts.Entities {
		for _, n := range names {
			n = strings.ToLower(strings.TrimSpace(n))
			if len([]rune(n)) < 3 || seen[n] {
				continue
			}
			seen[n] = true
			s.names = append(s.names, entityName{name: n, kind: kind})
		}
	}
	slices.SortFunc(s.names, func(a, b entityName) int {
		if d := len(b.name) - len(a.name); d != 0 {
			return d
		}
		return strings.Compare(a.name, b.name)
	})
	return s, nil
}

// specVectors are a tool's vectors: its name and description, then each
// of its example questions.
func specVectors(emb *embed.Hashing, sp tool.Spec, examples []string) [][]float32 {
	v := [][]float32{emb.Vector(words(sp.Name) + ". " + sp.Description)}
	for _, ex := range examples {
		v = append(v, emb.Vector(ex))
	}
	return v
}

// words turns a tool name into words: gcs_get_boss_details → "gcs get boss details".
func words(name string) string { return strings.ReplaceAll(name, "_", " ") }

// Query is what one LLM call's selection is made from.
type Query struct {
	// Message is the player's message.
	Message string
	// Screen are the tools the current screen's rules name.
	Screen []string
	// Recent are tools used in recent exchanges, newest first.
	Recent []string
	// Found are tools find_tools returned earlier in this turn; they are
	// offered first.
	Found []string
}

// All reports whether every tool is offered on every call.
func (s *Selector) All() bool { return s.all }

// Deferred reports ModeDeferred: a fixed list of tools on every call (the
// core, see Core, and the caller's own) and the selected others described
// in the conversation.
func (s *Selector) Deferred() bool { return s.deferred }

// Core returns the core tools' specs, in the core's order.
func (s *Selector) Core() []tool.Spec {
	out := make([]tool.Spec, 0, len(s.core))
	for _, c := range s.core {
		out = append(out, s.specs[s.pos[c]])
	}
	return out
}

// Max is the cap of tools per call, find_tools included.
func (s *Selector) Max() int { return s.max }

// Select returns the tools to offer, at most n (or Max()-1 when n <= 0,
// leaving room for find_tools): found tools, the best message matches, the
// screen's tools, the core, recent tools, then further matches, until the
// cap; listed core first, then in the specs' order. In ModeAll it returns
// every spec.
func (s *Selector) Select(q Query, n int) []tool.Spec {
	if s.all {
		return slices.Clone(s.specs)
	}
	if n <= 0 {
		n = s.max - 1
	}
	ranked := s.rank(q.Message)
	picked := map[int]bool{}
	add := func(names ...string) {
		for _, name := range names {
			if len(picked) >= n {
				return
			}
			if i, ok := s.pos[name]; ok {
				picked[i] = true
			}
		}
	}
	add(q.Found...)
	add(ranked[:min(3, len(ranked))]...)
	add(q.Screen...)
	add(s.core...)
	add(q.Recent...)
	add(ranked...)
	// Stable order: the core first (offered on every call, so consecutive
	// calls share the longest run of leading schemas, which a provider's
	// prefix cache can reuse), then the rest in the specs' order.
	out := make([]tool.Spec, 0, len(picked))
	for _, c := range s.core {
		if i := s.pos[c]; picked[i] {
			out = append(out, s.specs[i])
			delete(picked, i)
		}
	}
	idx := make([]int, 0, len(picked))
	for i := range picked {
		idx = append(idx, i)
	}
	slices.Sort(idx)
	for _, i := range idx {
		out = append(out, s.specs[i])
	}
	return out
}

// What Described takes from the message's matches: at most
// DescribedMatches, the best when its similarity reaches describedFloor
// and the next ones while theirs stays within describedClose of the best.
// Looser than a sticky call's matches: a described tool stays in the
// conversation, so describing one more costs its schema once.
const (
	DescribedMatches = 5
	describedFloor   = 0.05
	describedClose   = 0.5
)

// Described returns the tools a turn describes in the conversation in
// ModeDeferred, where the core is offered on every call: the tools
// find_tools found, the message's clear matches (at most
// DescribedMatches) and the screen's tools, less the core, in that order
// without repeats, so many that with the core and find_tools they stay
// within Max.
func (s *Selector) Described(q Query) []tool.Spec {
	var out []tool.Spec
	for _, n := range slices.Concat(q.Found, s.Confident(q.Message, DescribedMatches, describedFloor, describedClose), q.Screen) {
		i, ok := s.pos[n]
		if !ok || slices.Contains(s.core, n) || slices.ContainsFunc(out, func(sp tool.Spec) bool { return sp.Name == n }) {
			continue
		}
		if len(out) >= s.max-1-len(s.core) {
			break
		}
		out = append(out, s.specs[i])
	}
	return out
}

// Sticky matches: a call offers the previous call's tools again when they
// hold the best match of the message (small talk under stickyFloor asks
// for none) and the next one if it comes within stickyClose of the best.
const (
	stickyMatches = 2
	stickyFloor   = 0.2
	stickyClose   = 0.8
)

// Sticky returns the tools to offer on a call of a session whose previous
// call offered prev (names, in order), with local (the caller's own tools,
// find_tools first) leading a new list. It offers prev again, same order,
// when prev still serves the call: it holds local, the screen's tools and
// the message's confident matches (see Confident), and find_tools found
// nothing new. Otherwise it selects anew (Select within Max with local)
// and lists the tools prev held in prev's order, then the others. Either
// way consecutive calls share the longest run of leading schemas, which
// providers' prefix caches reward.
func (s *Selector) Sticky(prev []string, q Query, local []tool.Spec) []tool.Spec {
	if kept, ok := s.keep(prev, q, local); ok {
		return kept
	}
	return keepOrder(append(slices.Clone(local), s.Select(q, s.max-len(local))...), prev)
}

// keep returns prev's specs when prev still serves the call.
func (s *Selector) keep(prev []string, q Query, local []tool.Spec) ([]tool.Spec, bool) {
	if len(q.Found) > 0 || len(prev) == 0 || len(prev) > s.max {
		return nil, false
	}
	need := append(slices.Clone(q.Screen), s.Confident(q.Message, stickyMatches, stickyFloor, stickyClose)...)
	for _, l := range local {
		need = append(need, l.Name)
	}
	for _, n := range need {
		if !slices.Contains(prev, n) {
			return nil, false
		}
	}
	out := make([]tool.Spec, 0, len(prev))
	for _, n := range prev {
		if i := slices.IndexFunc(local, func(sp tool.Spec) bool { return sp.Name == n }); i >= 0 {
			out = append(out, local[i])
			continue
		}
		i, ok := s.pos[n]
		if !ok {
			return nil, false // a tool gone with a reload, or a local tool not offered now
		}
		out = append(out, s.specs[i])
	}
	return out, true
}

// keepOrder lists specs in the order of prev for those prev offered, then
// the others in their order.
func keepOrder(specs []tool.Spec, prev []string) []tool.Spec {
	out := make([]tool.Spec, 0, len(specs))
	for _, n := range prev {
		if i := slices.IndexFunc(specs, func(sp tool.Spec) bool { return sp.Name == n }); i >= 0 {
			out = append(out, specs[i])
		}
	}
	for _, sp := range specs {
		if !slices.Contains(prev, sp.Name) {
			out = append(out, sp)
		}
	}
	return out
}

// Top returns the names of the k tools best matching text, best first.
func (s *Selector) Top(text string, k int) []string {
	r := s.rank(text)
	return r[:min(k, len(r))]
}

// Specs returns the specs of names in that order, and false when one is
// not among the selector's specs.
func (s *Selector) Specs(names []string) ([]tool.Spec, bool) {
	out := make([]tool.Spec, 0, len(names))
	for _, n := range names {
		i, ok := s.pos[n]
		if !ok {
			return nil, false
		}
		out = append(out, s.specs[i])
	}
	return out, true
}

// Find returns up to n tools best matching query, best first, for
// find_tools.
func (s *Selector) Find(query string, n int) []tool.Spec {
	ranked := s.rank(query)
	out := make([]tool.Spec, 0, min(n, len(ranked)))
	for _, name := range ranked[:min(n, len(ranked))] {
		out = append(out, s.specs[s.pos[name]])
	}
	return out
}

// Confident returns the names of at most k tools best matching text, best
// first: the best match when its similarity reaches floor, and the next
// ones while theirs stays within close (a fraction) of the best. These are
// the tools text asks for clearly enough that a call should offer them.
func (s *Selector) Confident(text string, k int, floor, close float32) []string {
	sc := s.scored(text)
	var out []string
	for _, x := range sc[:min(k, len(sc))] {
		if x.score < floor || x.score < close*sc[0].score {
			break
		}
		out = append(out, s.specs[x.i].Name)
	}
	return out
}

// rank orders the tools by similarity to text (best example or
// description), ties by the specs' order; tools with no similarity at all
// are left out.
func (s *Selector) rank(text string) []string {
	sc := s.scored(text)
	out := make([]string, len(sc))
	for j, x := range sc {
		out[j] = s.specs[x.i].Name
	}
	return out
}

// scoredTool is a tool's index in the specs and its similarity to a text.
type scoredTool struct {
	i     int
	score float32
}

// scored is rank with the similarities. The answer is shared with later
// calls for the same text: read only.
func (s *Selector) scored(text string) []scoredTool {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	if sc, ok := s.recent.get(text); ok {
		return sc
	}
	bonus := s.entityBonus(text)
	buf := s.idx.get()
	defer s.idx.put(buf)
	s.idx.score(s.emb.Vector(text), buf)
	var sc []scoredTool
	for i, best := range buf.best {
		best += bonus[s.specs[i].Name]
		if best > 0 {
			sc = append(sc, scoredTool{i, best})
		}
	}
	slices.SortStableFunc(sc, func(a, b scoredTool) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return 0
	})
	s.recent.put(text, sc)
	return sc
}

// entityBonus returns the bonus per tool for the entities text names:
// whole-word, case-insensitive, each span counted once (longest names first).
func (s *Selector) entityBonus(text string) map[string]float32 {
	if len(s.names) == 0 {
		return nil
	}
	low := strings.ToLower(text)
	count := map[string]int{}
	for _, e := range s.names {
		i := wordIndex(low, e.name)
		if i < 0 {
			continue
		}
		count[e.kind]++
		// Blank the span so a shorter name inside it does not count again.
		low = low[:i] + strings.Repeat(" ", len(e.name)) + low[i+len(e.name):]
	}
	out := map[string]float32{}
	for kind, n := range count {
		for _, t := range s.kinds[kind] {
			out[t] += entityBonus
		}
		if n >= 2 {
			for _, t := range s.kinds[kind+"*2"] {
				out[t] += 2 * entityBonus
			}
		}
	}
	return out
}

// wordIndex finds word in text at word boundaries, or -1.
func wordIndex(text, word string) int {
	from := 0
	for {
		i := strings.Index(text[from:], word)
		if i < 0 {
			return -1
		}
		i += from
		end := i + len(word)
		if (i == 0 || !isWordByte(text[i-1])) && (end == len(text) || !isWordByte(text[end])) {
			return i
		}
		from = i + 1
	}
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80
}

// FindToolsSpec is the schema of find_tools.
func FindToolsSpec() tool.Spec { return findToolsSpec(false) }

// FindToolsSpec is the schema of find_tools in the selector's mode: in
// ModeDeferred the tools found are called through use_tool.
func (s *Selector) FindToolsSpec() tool.Spec { return findToolsSpec(s.deferred) }

func findToolsSpec(deferred bool) tool.Spec {
	desc := "Find more tools when none of the offered tools fits the question: describe what you need; " +
		"the matching tools are offered on your next call."
	if deferred {
		desc = "Find tools for a need no listed tool fits; you get their full argument schemas, to call through " + UseToolName + "."
	}
	return tool.Spec{
		Name:         FindToolsName,
		Description:  desc,
		Category:     tool.CategoryRAG,
		Parameters:   json.RawMessage(`{"type":"object","properties":{"need":{"type":"string","minLength":1,"maxLength":300,"description":"What the tool should do, e.g. 'gear set bonus' or 'champions that stun'."}},"required":["need"],"additionalProperties":false}`),
		DisplayNames: tool.DisplayNames{"en": "Tool search", "fr": "Recherche d'outils", "de": "Werkzeugsuche"},
	}
}

// maxFound bounds the tools one find_tools call returns.
const maxFound = 5

// FindArgs are find_tools' arguments.
type FindArgs struct {
	Need string `json:"need"`
}

// FoundTool is one tool find_tools returns; in ModeDeferred with its
// argument schema.
type FoundTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Arguments   json.RawMessage `json:"arguments,omitempty"`
}

// AnswerFind answers a find_tools call: the envelope the model reads and
// the names to offer on the next call. Bad arguments give an error
// envelope and no names.
func (s *Selector) AnswerFind(args json.RawMessage) (tool.Result, []string) {
	var a FindArgs
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil || strings.TrimSpace(a.Need) == "" || len([]rune(a.Need)) > 300 {
		return tool.Failure("Invalid arguments for "+FindToolsName+".", "need must be a non-empty string of at most 300 characters",
			`Call find_tools with {"need": "<what the tool should do>"}.`), nil
	}
	found := s.Find(a.Need, maxFound)
	names := make([]string, len(found))
	list := make([]FoundTool, len(found))
	for i, f := range found {
		names[i] = f.Name
		list[i] = FoundTool{Name: f.Name, Description: f.Description}
		if s.deferred {
			list[i].Arguments = f.Parameters
			if len(list[i].Arguments) == 0 {
				list[i].Arguments = json.RawMessage(`{"type":"object","properties":{}}`)
			}
		}
	}
	if len(found) == 0 {
		return tool.Success("No tool matches; answer with what you have.", map[string]any{"tools": list}), nil
	}
	if s.deferred {
		return tool.Success("Call these tools through "+UseToolName+" with their name and arguments.", map[string]any{"tools": list}), names
	}
	return tool.Success("These tools are offered on your next call.", map[string]any{"tools": list}), names
}

// Listed returns the specs outside the core, in the specs' order: the
// tools called through use_tool in ModeDeferred. The slice is shared:
// read only.
func (s *Selector) Listed() []tool.Spec { return slices.Clip(s.listed) }
