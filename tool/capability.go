package tool

// Typed results and their optional capabilities.
//
// A tool's data is a Go value (usually a struct) that marshals to the JSON
// the LLM reads. What other code needs from a result beyond that JSON (the
// offline responder writing an answer, logs, admin views) comes through the
// small optional interfaces below, in the spirit of database/sql/driver's
// optional QueryerContext or NamedValueChecker: a consumer asks whether the
// data implements one instead of guessing map keys.
//
//	if s, ok := data.(tool.Summarizer); ok { line = s.Summary() }
//
// The executor replaces Result.Data by its JSON encoding (so every consumer
// and the session cache see the same bytes), keeps the typed value in
// Result.Value for the caller that ran the tool, and records what the
// capabilities said in Result.InternalInfo (Summary, Entities, Page), which
// the session cache keeps and the LLM never sees. Read them with Facts.

// Summarizer is implemented by result data that can say in one short line,
// without markdown, what it holds: "Kaelith, Legendary Magic Attack of the
// Emberguard." The line is plain facts, suitable to show a player as is.
type Summarizer interface {
	Summary() string
}

// EntityRef names one game entity a result is about or lists.
type EntityRef struct {
	// Kind is the entity kind: champion, boss, faction, dungeon, gear_set,
	// mastery, document, or a studio's own kind.
	Kind string `json:"kind"`
	// ID is the entity's id; 0 when the source has none (documents).
	ID int64 `json:"id,omitempty"`
	// Name is the entity's canonical display name.
	Name string `json:"name"`
}

// Entities is implemented by result data that names game entities: the one a
// details result describes (first), or the members of a list in order. The
// offline responder uses it to know what an answer talks about, and follow-up
// questions ("and its gear?") resolve against it.
type Entities interface {
	Entities() []EntityRef
}

// Page describes one page of a paged list result.
type Page struct {
	// Total is how many items match, over all pages.
	Total int `json:"total"`
	// Offset is the index of the first item of this page.
	Offset int `json:"offset"`
	// Returned is how many items this page holds.
	Returned int `json:"returned"`
	// NextOffset is the offset of the next page; 0 when this is the last.
	NextOffset int `json:"next_offset,omitempty"`
}

// More reports whether another page follows.
func (p Page) More() bool { return p.NextOffset > 0 }

// Pager is implemented by result data that is one page of a longer list.
type Pager interface {
	Page() Page
}

// Paging declares, on a tool's Spec, that it pages and through which
// arguments, so a caller can read a whole list without searching the schema.
type Paging struct {
	// LimitParam and OffsetParam name the page-size and offset arguments.
	LimitParam  string `json:"limit_param"`
	OffsetParam string `json:"offset_param"`
	// MaxLimit is the largest page size the tool accepts.
	MaxLimit int `json:"max_limit"`
}

// ResultFacts is what a result's capabilities declared, as recorded by the
// executor (see Facts).
type ResultFacts struct {
	Summary  string      `json:"summary,omitempty"`
	Entities []EntityRef `json:"entities,omitempty"`
	Page     *Page       `json:"page,omitempty"`
}

// FactsOf asks data for its optional capabilities.
func FactsOf(data any) ResultFacts {
	var f ResultFacts
	if s, ok := data.(Summarizer); ok {
		f.Summary = s.Summary()
	}
	if e, ok := data.(Entities); ok {
		f.Entities = e.Entities()
	}
	if p, ok := data.(Pager); ok {
		pg := p.Page()
		f.Page = &pg
	}
	return f
}

// recordFacts writes what data declared into info, without allocating for
// the interfaces data does not implement.
func recordFacts(info *InternalInfo, data any) {
	if s, ok := data.(Summarizer); ok {
		info.Summary = s.Summary()
	}
	if e, ok := data.(Entities); ok {
		info.Entities = e.Entities()
	}
	if p, ok := data.(Pager); ok {
		info.Page = p.Page()
	}
}

// Facts returns what the result's typed data declared, as the executor
// recorded it in internal_info (kept by the session cache), or from the
// typed value when the result did not go through the executor.
func (r Result) Facts() ResultFacts {
	i := r.InternalInfo
	if i.Summary == "" && i.Entities == nil && i.Page == (Page{}) && r.Value != nil {
		return FactsOf(r.Value)
	}
	f := ResultFacts{Summary: i.Summary, Entities: i.Entities}
	if i.Page != (Page{}) {
		pg := i.Page
		f.Page = &pg
	}
	return f
}

// ContextBound is implemented by tools whose every blocking step returns
// once its context is done: a tool that only runs database/sql queries on a
// driver that interrupts a statement on cancellation (go-sqlite3 does), and
// no Go code of unbounded cost. The executor runs such a tool on the
// caller's goroutine, so the per-call timeout still ends the call through
// the context and the call saves a goroutine and its hand-off; any other
// tool runs on a goroutine of its own, which the caller stops waiting for
// at the timeout even when the tool ignores its context.
type ContextBound interface {
	Tool
	// BoundByContext marks the tool; it is never called.
	BoundByContext()
}
