package toolsfile_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gameassist/gameassist/tool"
)

const benchChains = `chains:
  - name: card_then_decks
    description: A card, then the decks holding it (the second step reads the first).
    parameters: {type: object, properties: {name: {type: string}}, required: [name]}
    steps:
      - {id: card, tool: cards_card, arguments: {name: $params.name}}
      - {id: decks, tool: cards_decks, arguments: {card_ids: ["$card.data.id"]}}
  - name: card_and_cheaper
    description: A card and the cards of a rarity (independent steps).
    parameters: {type: object, properties: {name: {type: string}, rarity: {type: string}}, required: [name, rarity]}
    steps:
      - {id: card, tool: cards_card, arguments: {name: $params.name}}
      - {id: cheaper, tool: cards_cheaper, arguments: {rarity: $params.rarity}}
`

// BenchmarkChain measures a chain through the executor against calling its
// steps directly through the same executor, on the card database (real
// SQLite, read-only). dependent: the second step reads the first step's
// data, so the direct baseline decodes the first result to build the second
// call; independent: the direct baselines run the two calls one after the
// other, and at the same time (two goroutines, as the chat runner runs one
// LLM round's calls).
func BenchmarkChain(b *testing.B) {
	ctx := context.Background()
	box := newChainBox(b, chainTools+benchChains)
	exec := func(name, args string) tool.Result {
		r := box.exec.Execute(ctx, tool.Call{Name: name, Arguments: json.RawMessage(args)})
		if !r.OK() {
			b.Fatalf("%s: %+v", name, r)
		}
		return r
	}

	b.Run("dependent/direct", func(b *testing.B) {
		benchLoop(b, func() {
			card := exec("cards_card", `{"name":"Ember Imp"}`)
			var row struct {
				ID int `json:"id"`
			}
			raw, _ := card.Data.(json.RawMessage)
			if err := json.Unmarshal(raw, &row); err != nil {
				b.Fatal(err)
			}
			exec("cards_decks", fmt.Sprintf(`{"card_ids":[%d]}`, row.ID))
		})
	})
	b.Run("dependent/chain", func(b *testing.B) {
		benchLoop(b, func() { exec("card_then_decks", `{"name":"Ember Imp"}`) })
	})

	b.Run("independent/direct_sequential", func(b *testing.B) {
		benchLoop(b, func() {
			exec("cards_card", `{"name":"Ember Imp"}`)
			exec("cards_cheaper", `{"rarity":"common"}`)
		})
	})
	b.Run("independent/direct_concurrent", func(b *testing.B) {
		benchLoop(b, func() {
			var wg sync.WaitGroup
			wg.Go(func() { exec("cards_card", `{"name":"Ember Imp"}`) })
			wg.Go(func() { exec("cards_cheaper", `{"rarity":"common"}`) })
			wg.Wait()
		})
	})
	b.Run("independent/chain", func(b *testing.B) {
		benchLoop(b, func() { exec("card_and_cheaper", `{"name":"Ember Imp","rarity":"common"}`) })
	})
}

// benchLoop times each iteration of f and reports p50 and p99.
func benchLoop(b *testing.B, f func()) {
	lat := make(latencies, 0, b.N)
	for b.Loop() {
		start := time.Now()
		f()
		lat = append(lat, time.Since(start))
	}
	lat.report(b)
}
