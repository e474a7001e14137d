package fuse

// Spread reorders the candidates of an arc question (someone's role or
// history over the campaign) so that each unit (a session, or a note
// outside sessions, as unit names them) has its best candidate before any
// has a second: the eight chunks a model sees cover as many sessions as
// the candidates do. The order is otherwise kept, so the first stays
// first.
func Spread(cands []Candidate, unit func(id int64) string) []Candidate {
	seen := map[string]bool{}
	first := make([]Candidate, 0, len(cands))
	var rest []Candidate
	for _, c := range cands {
		u := unit(c.ID)
		if seen[u] {
			rest = append(rest, c)
			continue
		}
		seen[u] = true
		first = append(first, c)
	}
	return append(first, rest...)
}
