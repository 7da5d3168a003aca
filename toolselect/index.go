package toolselect

import "sync"

// index holds the selector's vectors (per tool: its description, then its
// examples), computed once in New, as an inverted index: for each
// dimension, the rows with a nonzero value there and those values. The
// hashing embedder's vectors are L2-normalized and sparse (a text sets a
// few dozen of its 1024 dimensions), so a query's similarity to every row
// costs a few thousand multiply-adds over the dimensions both share,
// instead of a full dot product per row.
type index struct {
	dim int
	// start[k]:start[k+1] are dimension k's postings in rows and vals.
	start []int32
	rows  []int32
	vals  []float32
	// owner is each row's tool, an index into the selector's specs.
	owner []int32
	tools int
	// scratch holds per-call buffers (*scratch), so scoring allocates
	// nothing.
	scratch sync.Pool
}

// scratch is one call's working memory: a score per row and per tool.
type scratch struct {
	rows, best []float32
}

// newIndex indexes vecs, one list of dim-sized vectors per tool.
func newIndex(dim int, vecs [][][]float32) *index {
	ix := &index{dim: dim, start: make([]int32, dim+1), tools: len(vecs)}
	count := make([]int32, dim)
	for t, vs := range vecs {
		for _, v := range vs {
			ix.owner = append(ix.owner, int32(t))
			for k, x := range v {
				if x != 0 {
					count[k]++
				}
			}
		}
	}
	for k := range dim {
		ix.start[k+1] = ix.start[k] + count[k]
	}
	n := ix.start[dim]
	ix.rows, ix.vals = make([]int32, n), make([]float32, n)
	next := make([]int32, dim)
	copy(next, ix.start[:dim])
	row := int32(0)
	for _, vs := range vecs {
		for _, v := range vs {
			for k, x := range v {
				if x != 0 {
					ix.rows[next[k]], ix.vals[next[k]] = row, x
					next[k]++
				}
			}
			row++
		}
	}
	ix.scratch.New = func() any {
		return &scratch{rows: make([]float32, len(ix.owner)), best: make([]float32, ix.tools)}
	}
	return ix
}

// get returns a call's scratch; put it back when done with its scores.
func (ix *index) get() *scratch { return ix.scratch.Get().(*scratch) }

func (ix *index) put(sc *scratch) { ix.scratch.Put(sc) }

// score sets sc.best[t] to tool t's best similarity to q (the largest dot
// product of q with its rows, and at least 0). Each row's sum adds the
// products in the order of the dimensions, as a dense dot product does,
// so the scores are the same to the bit. It allocates nothing.
func (ix *index) score(q []float32, sc *scratch) {
	clear(sc.rows)
	clear(sc.best)
	for k, x := range q[:min(len(q), ix.dim)] {
		if x == 0 {
			continue
		}
		lo, hi := ix.start[k], ix.start[k+1]
		rows, vals := ix.rows[lo:hi], ix.vals[lo:hi]
		for p, r := range rows {
			sc.rows[r] += x * vals[p]
		}
	}
	for r, d := range sc.rows {
		t := ix.owner[r]
		sc.best[t] = max(sc.best[t], d)
	}
}
