// Package data embeds the committed sample game (game.json) and the
// retrieval evaluation set of its wiki (rag_eval.json), and decodes them
// strictly: both are files a deployment may replace, so they are treated
// as hostile input and validated before use.
package data

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/gameassist/gameassist/gamedata"
	"github.com/gameassist/gameassist/gamedata/wiki"
)

//go:embed game.json rag_eval.json demo_player.json
var files embed.FS

// DemoPlayerID is the player id the demo player's state is pushed for.
const DemoPlayerID = "demo"

// DemoPlayer returns the sample game's demo player state, compacted: a
// player at chapter 5 with 30 champions, in the shape the sample rules,
// tools and offline answers read
// ({"progress": {"chapter", "level"}, "roster": [{"id", "level", "stars"}], "gear": [{"id"}]}).
func DemoPlayer() []byte {
	b, _ := files.ReadFile("demo_player.json")
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		return nil
	}
	return out.Bytes()
}

// MaxGameBytes bounds how much Decode reads, so a huge file cannot exhaust
// memory.
const MaxGameBytes = 32 << 20

// Sample returns the committed sample game, decoded strictly and validated.
func Sample() (gamedata.Game, error) {
	b, err := files.ReadFile("game.json")
	if err != nil {
		return gamedata.Game{}, fmt.Errorf("data: read game.json: %w", err)
	}
	return Decode(bytes.NewReader(b))
}

// GameJSON returns a copy of the committed game.json bytes, for loaders
// that store the raw document.
func GameJSON() []byte {
	b, _ := files.ReadFile("game.json")
	return b
}

// Decode reads one game document from r: unknown fields, trailing data and
// documents over MaxGameBytes are refused, and the result must pass
// gamedata.Validate.
func Decode(r io.Reader) (gamedata.Game, error) {
	var g gamedata.Game
	if err := decodeStrict(r, &g); err != nil {
		return gamedata.Game{}, fmt.Errorf("data: decode game: %w", err)
	}
	if err := gamedata.Validate(g); err != nil {
		return gamedata.Game{}, fmt.Errorf("data: invalid game: %w", err)
	}
	return g, nil
}

// EvalSet returns the committed retrieval evaluation set: queries with the
// doc_ids that should answer them.
func EvalSet() ([]wiki.EvalQuery, error) {
	b, err := files.ReadFile("rag_eval.json")
	if err != nil {
		return nil, fmt.Errorf("data: read rag_eval.json: %w", err)
	}
	return DecodeEvalSet(bytes.NewReader(b))
}

// DecodeEvalSet reads an evaluation set strictly; every query needs text
// and at least one expected doc_id.
func DecodeEvalSet(r io.Reader) ([]wiki.EvalQuery, error) {
	var qs []wiki.EvalQuery
	if err := decodeStrict(r, &qs); err != nil {
		return nil, fmt.Errorf("data: decode eval set: %w", err)
	}
	for i, q := range qs {
		if strings.TrimSpace(q.Query) == "" {
			return nil, fmt.Errorf("data: eval query %d: empty query", i)
		}
		if len(q.Expected) == 0 {
			return nil, fmt.Errorf("data: eval query %d (%q): no expected doc_id", i, q.Query)
		}
		for _, id := range q.Expected {
			if strings.TrimSpace(id) == "" {
				return nil, fmt.Errorf("data: eval query %d (%q): empty doc_id", i, q.Query)
			}
		}
	}
	return qs, nil
}

func decodeStrict(r io.Reader, v any) error {
	lr := &io.LimitedReader{R: r, N: MaxGameBytes + 1}
	dec := json.NewDecoder(lr)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if lr.N <= 0 {
			return fmt.Errorf("document larger than %d bytes", MaxGameBytes)
		}
		return err
	}
	if lr.N <= 0 {
		return fmt.Errorf("document larger than %d bytes", MaxGameBytes)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("unexpected data after the JSON document")
	}
	return nil
}
