package store

import "slices"

// Through returns f as a store applies it: UntilSession turned into the
// sessions of held (the session numbers the store holds) up to it, kept
// only where Sessions also lets them through. ok is false when f lets no
// session through: an "until" whose range holds no session matches
// nothing, rather than everything as an empty Sessions would. A filter
// without UntilSession comes back as it is.
func (f Filter) Through(held []int) (g Filter, ok bool) {
	if f.UntilSession <= 0 {
		return f, true
	}
	var in []int
	for _, s := range held {
		if s <= f.UntilSession && (len(f.Sessions) == 0 || slices.Contains(f.Sessions, s)) {
			in = append(in, s)
		}
	}
	g = f
	g.UntilSession = 0
	g.Sessions = slices.Compact(slices.Sorted(slices.Values(in)))
	return g, len(g.Sessions) > 0
}
