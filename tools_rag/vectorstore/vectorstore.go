// Package vectorstore defines the points, filters and queries the RAG vector
// stores share, and provides the embedded store: an in-memory hybrid index
// (dense cosine + BM25 keywords, fused by reciprocal rank) that needs no
// server and is the default when no Qdrant URL is configured.
package vectorstore

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/google/uuid"

	"github.com/gameassist/gameassist/textsearch/terms"
	"github.com/gameassist/gameassist/tools_rag/chunk"
)

// Point is one chunk with its dense vector.
type Point struct {
	// ID is the point's stable id; PointID derives it from the chunk.
	ID     string
	Vector []float32
	Chunk  chunk.Chunk
}

// Filter restricts searches and listings; empty fields match everything.
type Filter struct {
	DocID string
	// Categories matches any of the listed categories.
	Categories []string
	// Entity matches case-insensitively on the entity's words.
	Entity string
	Locale string
	// FirstChunks keeps only each document's first chunk (index 0): one
	// point per document, for catalogs.
	FirstChunks bool
	// Gate, when set, keeps only chunks whose unlocks_at is at most
	// Unlocked (documents without unlocks_at always pass): the spoiler gate.
	Gate     bool
	Unlocked int
}

// Query is one hybrid search: a dense vector, the query text for keyword
// scoring, a filter and the number of hits wanted.
type Query struct {
	Vector []float32
	Text   string
	Filter Filter
	// Limit is the number of hits (default 10, at most MaxLimit).
	Limit int
}

// MaxLimit bounds the hits of one search.
const MaxLimit = 100

// Hit is one search result, best first. Score orders hits within one
// search; it is not comparable across searches or stores.
type Hit struct {
	ID    string
	Score float64
	Chunk chunk.Chunk
}

// Info is what a store records about the embedder that built it.
type Info struct {
	Embedder string
	Dim      int
}

// ErrEmptyQuery is returned for a query with neither vector nor text.
var ErrEmptyQuery = errors.New("vectorstore: query has neither vector nor text")

// pointNamespace roots the UUIDv5 point ids of gameassist.
const pointNamespace = "8f0c3b8e-2d1a-5c57-9a49-6a5b1f1c0d21"

// PointID is the deterministic id of a document's chunk, a UUIDv5 of the
// document id and chunk index, so ingesting twice overwrites instead of
// duplicating.
func PointID(docID string, index int) string {
	return uuid.NewSHA1(uuid.MustParse(pointNamespace), []byte(docID+"#"+strconv.Itoa(index))).String()
}

// EntityKey is the normalized form entity names are matched in.
func EntityKey(entity string) string { return terms.Normalize(entity) }

// Matches reports whether c passes f.
func (f Filter) Matches(c chunk.Chunk) bool {
	if f.DocID != "" && c.DocID != f.DocID {
		return false
	}
	if f.Locale != "" && c.Locale != f.Locale {
		return false
	}
	if f.FirstChunks && c.Index != 0 {
		return false
	}
	if len(f.Categories) > 0 {
		ok := false
		for _, cat := range f.Categories {
			if c.Category == cat {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	if f.Entity != "" && EntityKey(c.Entity) != EntityKey(f.Entity) {
		return false
	}
	return true
}

// CheckInfo refuses to use an index built by another embedder: vectors of
// different models or sizes are not comparable.
func CheckInfo(index Info, embedder string, dim int) error {
	if index.Embedder != embedder || index.Dim != dim {
		return fmt.Errorf("vectorstore: index was built by embedder %s (dim %d) but queried with %s (dim %d): re-run ingest with the configured embedder",
			index.Embedder, index.Dim, embedder, dim)
	}
	return nil
}

// ErrUnavailable marks a store failure a retry may fix (the server is down
// or overloaded); stores wrap such errors with it.
var ErrUnavailable = errors.New("vectorstore: store unavailable")
