package memory

import (
	"fmt"

	jsonv2 "github.com/go-json-experiment/json"
	jsonv1 "github.com/go-json-experiment/json/v1"
)

// SummarizedThrough is the last exchange a turn's prompt can leave to a
// summary, given the session's meta and its history (oldest first): the
// stored summary's last exchange, or, when the newest player message's
// prompt used an older summary or none (a prompt may go on with it, see
// Message.SummaryThrough), that one's (0: no summary). A turn's history
// messages up to it come without their data block (Context) and Shown,
// which only the prompt's window needs.
func SummarizedThrough(m Meta, history []Message) int {
	if m.Summary == nil {
		return 0
	}
	for i := len(history) - 1; i >= 0; i-- {
		if history[i].Role == "user" {
			return min(m.Summary.Through, history[i].SummaryThrough)
		}
	}
	return 0
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

// parseTurnHistory decodes a turn's history once: newest first in full,
// until a message at or before SummarizedThrough (known once the newest
// player message is read, at most summary), and the older ones as
// summarized. It decodes as encoding/json does (the v1 semantics of the
// json v2 decoder, which reads a value in one pass instead of validating
// it first: a turn decodes up to HistoryMax messages).
func parseTurnHistory[T ~string | ~[]byte](raw []T, summary int) ([]Message, error) {
	v1 := jsonv2.Options(jsonv1.DefaultOptionsV1())
	out := make([]Message, len(raw))
	through, known := 0, false
	i := len(raw) - 1
	for ; i >= 0; i-- {
		if err := jsonv2.Unmarshal([]byte(raw[i]), &out[i], v1); err != nil {
			return nil, fmt.Errorf("stored message %d: %w", i, err)
		}
		if !known && out[i].Role == "user" {
			through, known = min(summary, out[i].SummaryThrough), true
		}
		if known && out[i].Exchange <= through {
			out[i].Context, out[i].Shown = "", nil
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
