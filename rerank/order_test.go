package rerank

import (
	"slices"
	"testing"
)

func TestPositions(t *testing.T) {
	cands := candidates(3) // ids 101, 102, 103
	tests := []struct {
		name   string
		order  []int64
		want   []int
		reason string
	}{
		{"fused order", []int64{101, 102, 103}, []int{0, 1, 2}, ""},
		{"reranked", []int64{103, 101, 102}, []int{2, 0, 1}, ""},
		{"partial", []int64{103, 101}, nil, "reranker returned a partial order"},
		{"too long", []int64{103, 101, 102, 104}, nil, "reranker returned a partial order"},
		{"unknown id", []int64{103, 101, 7}, nil, "reranker returned an unknown id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, reason := Positions(cands, tt.order)
			if !slices.Equal(got, tt.want) || reason != tt.reason {
				t.Errorf("Positions(%v) = %v, %q; want %v, %q", tt.order, got, reason, tt.want, tt.reason)
			}
		})
	}
	if got, reason := Positions(nil, nil); len(got) != 0 || reason != "" {
		t.Errorf("Positions(nil, nil) = %v, %q", got, reason)
	}
}
