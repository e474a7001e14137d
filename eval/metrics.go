package eval

import "math"

// FirstRelevant returns the 1-based rank of the first relevant item, or 0
// when none is relevant.
func FirstRelevant(relevant []bool) int {
	for i, r := range relevant {
		if r {
			return i + 1
		}
	}
	return 0
}

// RecallAt is 1 when a relevant item is among the first k, else 0: the
// "did it come back in the top k" of one question.
func RecallAt(relevant []bool, k int) float64 {
	r := FirstRelevant(relevant)
	if r > 0 && r <= k {
		return 1
	}
	return 0
}

// ReciprocalRank is 1/rank of the first relevant item within the first k,
// else 0.
func ReciprocalRank(relevant []bool, k int) float64 {
	r := FirstRelevant(relevant)
	if r > 0 && r <= k {
		return 1 / float64(r)
	}
	return 0
}

// NDCGAt is the normalised discounted cumulative gain at k with binary
// gains; total is how many relevant items exist (at least those listed).
func NDCGAt(relevant []bool, total, k int) float64 {
	dcg := 0.0
	n := 0
	for i, r := range relevant {
		if r {
			n++
			if i < k {
				dcg += 1 / math.Log2(float64(i+2))
			}
		}
	}
	if total < n {
		total = n
	}
	ideal := 0.0
	for i := 0; i < min(total, k); i++ {
		ideal += 1 / math.Log2(float64(i+2))
	}
	if ideal == 0 {
		return 0
	}
	return dcg / ideal
}

// CoverageAt is the share of a question's sources covered by the first k
// items; covers[i] lists the source indexes item i covers.
func CoverageAt(covers [][]int, sources, k int) float64 {
	if sources == 0 {
		return 0
	}
	seen := make(map[int]bool)
	for i, c := range covers {
		if i >= k {
			break
		}
		for _, s := range c {
			seen[s] = true
		}
	}
	return float64(len(seen)) / float64(sources)
}

// OneSlotPerNote keeps only the first item of each file, so that
// configurations with different chunk sizes compare fairly.
func OneSlotPerNote(files []string) []int {
	seen := make(map[string]bool)
	var keep []int
	for i, f := range files {
		if !seen[f] {
			seen[f] = true
			keep = append(keep, i)
		}
	}
	return keep
}
