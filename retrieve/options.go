package retrieve

import (
	"github.com/oraculo/oraculo/query"
	"github.com/oraculo/oraculo/store"
)

// DefaultK is how many hits a search returns by default.
const DefaultK = 10

// Options tune one search (the engine's SearchOptions).
type Options struct {
	// K is how many hits to return (default DefaultK).
	K int
	// Paths names the retrieval paths to use; empty means every available one.
	Paths []string
	// Trace, when set, receives how long each stage took.
	Trace *Trace
	// NoPrior turns off the narrative prior (see [fuse.NarrativeBoost]).
	NoPrior bool
	// Filter restricts every path to some sessions, folders or tags
	// before anything is ranked; a search with nothing through it has no
	// hits. Without one, the sessions the question names are a filter
	// (when nothing matches in them, everything is searched).
	Filter store.Filter
	// NoAnalysis searches the question's words only: no session filter
	// taken from it.
	NoAnalysis bool
	// Analysis, when set, receives what was understood of the question.
	Analysis *query.Understanding
	// Vectors chooses how the dense path finds the question's nearest
	// chunks (default VectorsAuto).
	Vectors VectorSearch
}

// VectorSearch is how the dense path finds a question's nearest chunks.
type VectorSearch int

const (
	// VectorsAuto scans every vector below the engine's
	// WithANNThreshold vectors and walks the HNSW graph that ingest
	// stored at or above it.
	VectorsAuto VectorSearch = iota
	// VectorsExact scans every vector: slower on many notes, it never
	// misses a neighbour.
	VectorsExact
	// VectorsApprox walks an HNSW graph at any size (below the threshold
	// one built in memory on first use): what the graph would miss, shown
	// before the notes grow enough for search to use it.
	VectorsApprox
)

// Depth returns how many hits o asks for (DefaultK when unset), and how
// deep each of n paths reads: a fixed depth, the order cut to k only at
// the end, so that the first k hits never depend on k ([FixedDepth], or
// k when one path is all the ranking there is).
func (o Options) Depth(n int) (k, depth int) {
	k = o.K
	if k <= 0 {
		k = DefaultK
	}
	depth = FixedDepth
	if n == 1 {
		depth = max(depth, k)
	}
	return k, depth
}
