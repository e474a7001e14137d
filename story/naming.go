package story

import (
	"sort"
	"strings"
	"unicode"

	"github.com/oraculo/oraculo/compendium"
	"github.com/oraculo/oraculo/store"
)

// naming finds where a text names one entity: by its name or an alias,
// whole words, case and accents ignored ([compendium.Normalize]'s words),
// and by the forms the compendium's matcher derives from them (see
// [compendium.Matcher]): a multi-word name or alias without its leading
// article when the next word is capitalised ("la Dama Velada" → "Dama
// Velada"), and an "el X" alias after "del" or "al" ("del archiduque" names
// "el Archiduque"). Unlike the matcher, it tolerates no misspelling, and a
// form inside a longer name still counts ("Serpa" in "la Puerta del
// Serpa"): a text names the entity when its words hold one of the forms.
type naming struct {
	// forms are the forms' words, by their first word.
	forms map[string][][]string
}

// newNaming prepares the forms of e.
func newNaming(e store.Entity) *naming {
	n := &naming{forms: map[string][][]string{}}
	for _, s := range append([]string{e.Name}, e.Aliases...) {
		ws := strings.Fields(compendium.Normalize(s))
		if len(ws) == 0 {
			continue
		}
		n.add(ws)
		if len(ws) >= 3 && isArticle(ws[0]) && capitalised(s, ws[0]) {
			n.add(ws[1:])
		}
		if len(ws) >= 2 && ws[0] == "el" {
			n.add(append([]string{"del"}, ws[1:]...))
			n.add(append([]string{"al"}, ws[1:]...))
		}
	}
	return n
}

func (n *naming) add(ws []string) {
	for _, f := range n.forms[ws[0]] {
		if strings.Join(f, " ") == strings.Join(ws, " ") {
			return
		}
	}
	fs := append(n.forms[ws[0]], ws)
	// Longest first: a match covers as many words as it can.
	sort.SliceStable(fs, func(a, b int) bool { return len(fs[a]) > len(fs[b]) })
	n.forms[ws[0]] = fs
}

// isArticle reports the articles a derived form drops.
func isArticle(w string) bool {
	switch w {
	case "el", "la", "los", "las", "lo", "the":
		return true
	}
	return false
}

// capitalised reports whether, in the name s, the word after its leading
// article art is capitalised.
func capitalised(s, art string) bool {
	rest := strings.TrimSpace(s)
	if len(rest) < len(art) {
		return false
	}
	rest = strings.TrimLeft(rest[len(art):], " -'’")
	for _, r := range rest {
		return unicode.IsUpper(r) || unicode.IsTitle(r)
	}
	return false
}

// count returns how many times text names the entity.
func (n *naming) count(text string) int {
	ws := strings.Fields(compendium.Normalize(text))
	c := 0
	for i := 0; i < len(ws); i++ {
		for _, f := range n.forms[ws[i]] {
			if hasAt(ws, i, f) {
				c++
				i += len(f) - 1
				break
			}
		}
	}
	return c
}

// names reports whether text names the entity.
func (n *naming) names(text string) bool { return n.count(text) > 0 }

// hasAt reports whether ws holds f at i.
func hasAt(ws []string, i int, f []string) bool {
	if i+len(f) > len(ws) {
		return false
	}
	for j, w := range f {
		if ws[i+j] != w {
			return false
		}
	}
	return true
}
