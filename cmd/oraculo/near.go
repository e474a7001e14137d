package main

import (
	"flag"
	"strings"

	"github.com/oraculo/oraculo/text"
)

// nearest is the name among names that typo most likely meant, or "" when
// none is near: a few letters apart (one edit in three, at least one, a
// swap of two letters side by side counting as one), or begun by typo
// ("sea" for "search"); a typo of one letter is near nothing. The first of equally near names wins, so names
// come in the order they are listed in. What "did you mean" offers for a
// mistyped command, verb or flag.
func nearest(typo string, names []string) string {
	best, bestD := "", 0
	if len([]rune(typo)) < 2 {
		return "" // one letter is one edit from every short name
	}
	for _, name := range names {
		d := text.Distance(typo, name)
		if strings.HasPrefix(name, typo) {
			d = min(d, 1)
		}
		if d <= max(1, len([]rune(name))/3) && (best == "" || d < bestD) {
			best, bestD = name, d
		}
	}
	return best
}

// nearestFlag is the flag of fs that name most likely meant ([nearest]),
// or "".
func nearestFlag(fs *flag.FlagSet, name string) string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	return nearest(name, names)
}

// nearestCommand is the entry of cmds that name most likely meant, by its
// name (for a verb, the word after the command's) or alias; "" when none
// is near.
func nearestCommand(cmds []command, name string) string {
	var names []string
	for _, c := range cmds {
		_, verb, isVerb := strings.Cut(c.name, " ")
		if isVerb {
			names = append(names, verb)
		} else {
			names = append(names, c.name)
		}
		if c.alias != "" && !strings.HasPrefix(c.alias, "-") {
			names = append(names, c.alias)
		}
	}
	return nearest(name, names)
}
