package text

// Distance is the edit distance between a and b, letter by letter: the
// fewest insertions, deletions, substitutions of one letter and swaps of
// two letters side by side that make one the other (the optimal string
// alignment distance: "lnag" is one edit from "lang", as a typo is).
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	// Three rows: the one before the previous is where a swap starts.
	older, prev := make([]int, len(rb)+1), make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur := make([]int, len(rb)+1)
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], older[j-2]+1)
			}
		}
		older, prev = prev, cur
	}
	return prev[len(rb)]
}
