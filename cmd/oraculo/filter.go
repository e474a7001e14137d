package main

import (
	"errors"
	"flag"
	"strconv"
	"strings"

	"github.com/oraculo/oraculo"
)

// filterFlags adds --session, --until-session, --folder and --tag; the
// function it returns parses them into a filter, or a usage error naming
// the bad value.
func filterFlags(fs *flag.FlagSet) func() (oraculo.Filter, error) {
	sessions := fs.String("session", "", "only these sessions: 12, 3-5 or 3,5,7-9")
	until := fs.Int("until-session", 0, "only the sessions up to N, the campaign as it stood then (notes of no session left out)")
	folders := fs.String("folder", "", "only notes under these folders, comma-separated (e.g. NPCs)")
	tags := fs.String("tag", "", "only notes with one of these front-matter tags, comma-separated")
	return func() (oraculo.Filter, error) {
		var f oraculo.Filter
		var err error
		if f.Sessions, err = parseSessions(*sessions); err != nil {
			return f, usageError{err}
		}
		if *until < 0 {
			return f, usageError{errors.New(msg("bad-until-session", *until))}
		}
		f.UntilSession = *until
		f.Folders, f.Tags = splitList(*folders), splitList(*tags)
		return f, nil
	}
}

// parseSessions reads "12", "3-5", "3,5,7-9" into session numbers.
func parseSessions(s string) ([]int, error) {
	var out []int
	seen := map[int]bool{}
	for _, part := range splitList(s) {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err1 := strconv.Atoi(strings.TrimSpace(lo))
		b, err2 := a, error(nil)
		if isRange {
			b, err2 = strconv.Atoi(strings.TrimSpace(hi))
		}
		if err1 != nil || err2 != nil || a < 0 || b < a || b-a > 10000 {
			return nil, errors.New(msg("bad-session", part))
		}
		for n := a; n <= b; n++ {
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	return out, nil
}

// splitList splits a comma-separated flag value, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
