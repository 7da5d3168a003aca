package toolsrag

import (
	"context"
	"encoding/json"
	"os"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/gameassist/gameassist/textsearch/embed"
	"github.com/gameassist/gameassist/tools_rag/vectorstore"
)

func benchQueries(b *testing.B) []string {
	b.Helper()
	raw, err := os.ReadFile(evalFile)
	if err != nil {
		b.Skipf("no eval set: %v", err)
	}
	var cases []evalCase
	if err := json.Unmarshal(raw, &cases); err != nil {
		b.Fatal(err)
	}
	qs := make([]string, len(cases))
	for i, c := range cases {
		qs[i] = c.Query
	}
	return qs
}

// BenchmarkEmbeddedQuery measures one retrieval (query embedding + hybrid
// search) over the whole content corpus; it reports p50 and p99.
func BenchmarkEmbeddedQuery(b *testing.B) {
	qs := benchQueries(b)
	r, _ := loadEval(b)
	ctx := context.Background()
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		if _, err := r.Search(ctx, qs[i%len(qs)], vectorstore.Filter{}, 5); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50_µs")
	b.ReportMetric(float64(lat[min(len(lat)-1, len(lat)*99/100)].Microseconds()), "p99_µs")
}

// BenchmarkIngest measures embedding and indexing the whole content
// corpus into the embedded store, in chunks per second, and the heap the
// index holds per chunk.
func BenchmarkIngest(b *testing.B) {
	if _, err := os.Stat(contentDir); err != nil {
		b.Skipf("no content: %v", err)
	}
	ctx := context.Background()
	h, _ := embed.NewHashing(embed.HashingOptions{})
	var chunks int
	var elapsed time.Duration
	var perChunk float64
	for i := 0; i < b.N; i++ {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		m, _ := vectorstore.NewMemory(h.Name(), h.Dim())
		start := time.Now()
		sum, err := Ingest(ctx, contentDir, h, m, nil)
		if err != nil {
			b.Fatal(err)
		}
		elapsed += time.Since(start)
		chunks += sum.Chunks
		runtime.GC()
		runtime.ReadMemStats(&after)
		perChunk = float64(after.HeapAlloc-before.HeapAlloc) / float64(sum.Chunks)
		runtime.KeepAlive(m)
	}
	b.ReportMetric(float64(chunks)/elapsed.Seconds(), "chunks/s")
	b.ReportMetric(perChunk, "heap_bytes/chunk")
	b.ReportMetric(float64(chunks/b.N), "chunks")
}
