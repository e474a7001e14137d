package query

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/oraculo/oraculo/compendium"
)

// token is one word of the question: a run of letters, digits and the
// combining marks that follow them.
type token struct {
	w          string // folded with compendium.Normalize
	start, end int    // byte span in the question
	dashBefore bool   // a hyphen or dash separates it from the previous token
	commaAfter bool   // a comma separates it from the next token
	short      bool   // a session word read from "S" glued to digits ("S12")
}

// tokenize splits q into tokens. A word that glues a session word to its
// number ("S12", "sesion12", "session12") becomes two tokens, "sesion" and
// the number, sharing the word's span.
func tokenize(q string) []token {
	var toks []token
	sep, start := "", -1
	emit := func(end int, before string) {
		w := compendium.Normalize(q[start:end])
		if n := len(toks); n > 0 && before == "." && isDigits(w) && isDigits(toks[n-1].w) {
			// "1.000" or "3.5" is one number, and not a session's.
			toks[n-1].w += "." + w
			toks[n-1].end = end
			return
		}
		t := token{w: w, start: start, end: end, dashBefore: strings.ContainsAny(before, "-‐‑‒–—")}
		if len(toks) > 0 && strings.Contains(before, ",") {
			toks[len(toks)-1].commaAfter = true
		}
		if kw, num, ok := splitGlued(w); ok {
			t.w, t.short = kw, strings.HasPrefix(w, "s") && !strings.HasPrefix(w, "ses")
			toks = append(toks, t)
			t.w, t.dashBefore, t.short = num, false, false
		}
		toks = append(toks, t)
	}
	before := ""
	for i := 0; i < len(q); {
		r, size := utf8.DecodeRuneInString(q[i:])
		inWord := r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r) || start >= 0 && unicode.Is(unicode.M, r))
		switch {
		case inWord && start < 0:
			start, before, sep = i, sep, ""
		case !inWord && start >= 0:
			emit(i, before)
			start = -1
			sep = q[i : i+size]
		case !inWord:
			sep += q[i : i+size]
		}
		i += size
	}
	if start >= 0 {
		emit(len(q), before)
	}
	return toks
}

// splitGlued splits "s12", "sesion12" and "session12" into a session word
// and its digits.
func splitGlued(w string) (kw, num string, ok bool) {
	for _, p := range []string{"sesion", "session", "s"} {
		rest, found := strings.CutPrefix(w, p)
		if found && isDigits(rest) {
			return "sesion", rest, true
		}
	}
	return "", "", false
}

func isDigits(w string) bool {
	return w != "" && strings.Trim(w, "0123456789") == ""
}
