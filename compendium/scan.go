package compendium

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/oraculo/oraculo/text"
)

// word is one word of a line, as the name scanner sees it.
type word struct {
	text     string // as written
	norm     string // Normalize(text)
	cap      bool   // starts with a capital letter (and is not an all-caps word, unless roman)
	roman    bool   // an all-caps roman numeral ("VII"): may continue a name, not start it
	particle bool   // a lowercase particle that may join a name: de, del, la, las, los, el
	number   bool   // all digits
	start    bool   // first word of a sentence
	joined   bool   // only spaces separate it from the previous word
}

// lineWords splits one cleaned line into words. Sentence starts are the
// start of the line (after heading, list, quote and table markers), and
// the word after . ! ? … : ¿ ¡ an opening quote, a dash or a table "|".
// Hyphens and apostrophes between letters stay inside a word ("Kael-Dur").
func lineWords(line string) []word {
	line = stripLineMarkers(line)
	var ws []word
	sentence := true // the next word starts a sentence
	joined := false  // only spaces since the previous word
	prevSpace := true
	wstart := -1
	flush := func(end int) {
		if wstart < 0 {
			return
		}
		ws = append(ws, makeWord(line[wstart:end], sentence, joined && len(ws) > 0))
		wstart = -1
		sentence = false
		joined = true
	}
	for i := 0; i < len(line); {
		r, size := utf8.DecodeRuneInString(line[i:])
		if text.IsWordRune(r) || wstart >= 0 && unicode.Is(unicode.M, r) {
			if wstart < 0 {
				wstart = i
			}
			i += size
			prevSpace = false
			continue
		}
		if wstart >= 0 && (r == '-' || r == '\'' || r == '’') && i+size < len(line) {
			if n, _ := utf8.DecodeRuneInString(line[i+size:]); unicode.IsLetter(n) {
				i += size
				continue
			}
		}
		flush(i)
		switch r {
		case ' ', '\t', '\u00a0':
		case '.', '!', '?', '…', ':', '¿', '¡', '“', '«', '—', '–', '|':
			sentence, joined = true, false
		case '"':
			if prevSpace {
				sentence = true // an opening quote
			}
			joined = false
		default:
			joined = false
		}
		prevSpace = r == ' ' || r == '\t'
		i += size
	}
	flush(len(line))
	return ws
}

func makeWord(text string, start, joined bool) word {
	w := word{text: text, norm: Normalize(text), start: start, joined: joined}
	first, _ := utf8.DecodeRuneInString(text)
	w.number = unicode.IsDigit(first)
	upper, letters := 0, 0
	for _, r := range text {
		if unicode.IsLetter(r) {
			letters++
			if unicode.IsUpper(r) || unicode.IsTitle(r) {
				upper++
			}
		}
	}
	switch {
	case letters >= 2 && upper == letters:
		// Shouting ("NO", "QUÉ") or an acronym ("DM", "PJ"): not a name
		// word, except a roman numeral after a name ("Azhor VII").
		w.roman = strings.Trim(text, "IVXLCDM") == ""
		w.cap = w.roman
	case unicode.IsUpper(first) || unicode.IsTitle(first):
		w.cap = true
	case particles[text]:
		w.particle = true
	}
	return w
}

// stripLineMarkers removes the block markers at the start of a line:
// heading #s, blockquote >, list bullets and numbers, task boxes.
func stripLineMarkers(line string) string {
	for {
		t := strings.TrimLeft(line, " \t")
		if level, h := text.ATXHeading(t); level > 0 {
			line = h
			continue
		}
		var ok bool
		for _, cut := range [...]func(string) (string, bool){text.CutQuoteMarker, text.CutListMarker, text.CutTaskBox} {
			if line, ok = cut(t); ok {
				break
			}
		}
		if !ok {
			return t
		}
	}
}

// sequence is one maximal run of capitalised words of a line, possibly
// joined by up to two particles ("Torre de Sal de Ezkarra", "Barrio de los
// Faroles"), after stripping leading stop words.
type sequence struct {
	words   []word
	start   bool // its first word starts a sentence
	dateCtx bool // "3 de Brumal", "Brumal del 1347", "Altasol del año pasado"
}

// lineSequences returns the capitalised sequences of one line's words.
func lineSequences(ws []word) []sequence {
	var out []sequence
	for i := 0; i < len(ws); {
		if !ws[i].cap || ws[i].roman {
			i++
			continue
		}
		end := i + 1
		for j := end; j < len(ws) && ws[j].joined; {
			if ws[j].cap {
				end = j + 1
				j++
				continue
			}
			k := j
			for k < len(ws) && k-j < 2 && ws[k].particle && ws[k].joined {
				k++
			}
			if k > j && k < len(ws) && ws[k].cap && !ws[k].roman && ws[k].joined {
				end = k + 1
				j = k + 1
				continue
			}
			break
		}
		s := sequence{words: ws[i:end], start: ws[i].start}
		// Leading stop words ("En Caldemora", "Los Gatos de Cal") go; the
		// rest no longer starts the sentence.
		for len(s.words) > 0 && (isStop(s.words[0].norm) || particles[s.words[0].norm]) {
			s.words = s.words[1:]
			s.start = false
		}
		if len(s.words) > 0 {
			first := i + (end - i - len(s.words))
			s.dateCtx = first >= 2 && (ws[first-1].norm == "de" || ws[first-1].norm == "del") && isDay(ws[first-2]) ||
				end+1 < len(ws) && (ws[end].norm == "de" || ws[end].norm == "del") && (ws[end+1].number && len(ws[end+1].norm) >= 3 || ws[end+1].norm == "ano")
			out = append(out, s)
		}
		i = end
	}
	return out
}

// isDay reports whether w is a day of a month: 1 to 31.
func isDay(w word) bool {
	if !w.number || len(w.norm) > 2 {
		return false
	}
	n := 0
	for i := 0; i < len(w.norm); i++ {
		if w.norm[i] < '0' || w.norm[i] > '9' {
			return false
		}
		n = n*10 + int(w.norm[i]-'0')
	}
	return n >= 1 && n <= 31
}

// surface joins the words as written, with single spaces.
func surface(ws []word) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = w.text
	}
	return strings.Join(parts, " ")
}

// key joins the normalised words.
func key(ws []word) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = w.norm
	}
	return strings.Join(parts, " ")
}
