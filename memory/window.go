package memory

import (
	"fmt"

	jsonv2 "github.com/go-json-experiment/json"
	jsonv1 "github.com/go-json-experiment/json/v1"
)

// SummarizedThrough is the last exchange a turn's prompt can leave to the
// session's summary: the summary's own last exchange, or, when the
// summary replaced one that a prompt may go on using, that one's (0:
// no summary). A turn's history messages up to it come without their data
// block (Context) and Shown, which only the prompt's window needs.
func SummarizedThrough(m Meta) int {
	switch {
	case m.Summary == nil:
		return 0
	case m.Summary.Prev != nil:
		return min(m.Summary.Through, m.Summary.Prev.Through)
	}
	return m.Summary.Through
}

// summarized decodes a history message up to SummarizedThrough: the
// message but its data block and what the block showed, which are
// scanned but neither unquoted nor kept (they are most of a long
// history's bytes).
type summarized struct {
	Message
	Context skipped `json:"context,omitempty"`
	Shown   skipped `json:"shown,omitempty"`
}

// skipped decodes any JSON value into nothing.
type skipped struct{}

func (*skipped) UnmarshalJSON([]byte) error { return nil }

// parseTurnHistory decodes a turn's history once: the messages after
// exchange through in full, newest first until one is at or before it,
// and the older ones as summarized. It decodes as encoding/json does
// (the v1 semantics of the json v2 decoder, which reads a value in one
// pass instead of validating it first: a turn decodes up to HistoryMax
// messages).
func parseTurnHistory(raw []string, through int) ([]Message, error) {
	v1 := jsonv1.DefaultOptionsV1()
	out := make([]Message, len(raw))
	i := len(raw) - 1
	for ; i >= 0; i-- {
		if err := jsonv2.Unmarshal([]byte(raw[i]), &out[i], v1); err != nil {
			return nil, fmt.Errorf("stored message %d: %w", i, err)
		}
		if out[i].Exchange <= through {
			break
		}
	}
	for i--; i >= 0; i-- {
		var m summarized
		if err := jsonv2.Unmarshal([]byte(raw[i]), &m, v1); err != nil {
			return nil, fmt.Errorf("stored message %d: %w", i, err)
		}
		out[i] = m.Message
	}
	return out, nil
}
