package chunk

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/oraculo/oraculo/text"
)

// maxMarkerRest is the most words a plain or bold session marker may carry
// after its separator and still have them kept in the heading text; it is
// also the most words a plain "Sesión 7 — Título" line may have.
const maxMarkerRest = 12

// sessionHeader is what the detector knows about one session header line.
type sessionHeader struct {
	number  int
	heading string
	// level is the ATX level of a heading header, 0 for a bold or plain
	// marker.
	level int
	// long is set when the marker line goes on with more text than a title
	// and the heading kept only the marker: the line is content too.
	long bool
}

// DetectSession reports whether one line is a session header, its number and
// its heading text.
//
// Accepted forms, with "Sesión", "Sesion" or "Session" in any case, followed
// by an optional number sign ("nº", "#", "núm.", ...) and digits:
//
//   - an ATX heading of any level whose text starts with the session word and
//     number ("## Sesión 12 — Título", "### SESIÓN 4: x", "# Sesion 3");
//   - a line whose bold span ("**…**" or "__…__") starts with the marker and
//     is either the whole line ("**Sesión 7 — Título**") or is followed only
//     after a colon or dash ("**Sesión 7:** texto");
//   - a plain line starting with the marker and nothing else ("Sesión 7"), a
//     colon ("Sesión 7: texto", any length) or a dash separator
//     ("Sesión 7 — Título", the whole line at most 12 words).
//
// Markers may be indented by at most three spaces, as in Markdown. A number
// may carry a one-letter suffix ("Sesión 5b" is session 5, a split session);
// longer letter runs ("Sesión 5ta") are rejected. Passing mentions, list
// items, table rows, quotes and lines that do not start with the session
// word are not headers. The heading is the line without Markdown markers;
// for a plain or bold marker whose text after the separator has more than 12
// words the heading is only the marker up to the number ("Sesión 7").
func DetectSession(line string) (number int, heading string, ok bool) {
	h, ok := detectSession(line)
	if !ok {
		return 0, "", false
	}
	return h.number, h.heading, true
}

func detectSession(line string) (sessionHeader, bool) {
	if level, h := text.ATXHeading(line); level > 0 {
		h = stripMarkers(h)
		n, _, ok := parseMarker(h, false)
		if !ok {
			return sessionHeader{}, false
		}
		return sessionHeader{number: n, heading: h, level: level}, true
	}
	r := strings.TrimRightFunc(text.Unindent(line), unicode.IsSpace)
	if r == "" {
		return sessionHeader{}, false
	}
	if strings.HasPrefix(r, "**") || strings.HasPrefix(r, "__") {
		return detectBold(r)
	}
	n, end, ok := parseMarker(r, false)
	if !ok {
		return sessionHeader{}, false
	}
	tail := strings.TrimLeft(r[end:], " \t")
	switch {
	case tail == "":
	case tail[0] == ':':
	case startsWithDash(tail) && len(strings.Fields(r)) <= maxMarkerRest:
	default:
		return sessionHeader{}, false
	}
	h, long := markerHeading(r, end)
	return sessionHeader{number: n, heading: h, long: long}, true
}

// detectBold handles a line (already unindented and right-trimmed) that
// opens with a bold delimiter.
func detectBold(r string) (sessionHeader, bool) {
	delim := r[:2]
	rest := strings.TrimLeft(r[2:], "*_")
	closeAt := strings.Index(rest, delim)
	if closeAt < 0 {
		return sessionHeader{}, false
	}
	inner := strings.TrimSpace(strings.TrimRight(rest[:closeAt], "*_"))
	after := strings.TrimLeft(rest[closeAt:], "*_")
	n, end, ok := parseMarker(inner, false)
	if !ok {
		return sessionHeader{}, false
	}
	innerTail := strings.TrimLeft(inner[end:], " \t")
	afterTrim := strings.TrimSpace(after)
	switch {
	case afterTrim == "":
	case innerTail != "" && startsWithSeparator(innerTail):
	case innerTail == "" && startsWithSeparator(afterTrim):
	default:
		return sessionHeader{}, false
	}
	text := strings.TrimSpace(strings.ReplaceAll(inner+after, delim, ""))
	h, long := markerHeading(text, end)
	return sessionHeader{number: n, heading: h, long: long}, true
}

// markerHeading returns the heading text of a plain or bold marker line
// whose session number ends at byte end: the whole text, or only the marker
// when nothing or too much follows the separator (long reports the latter).
func markerHeading(text string, end int) (heading string, long bool) {
	marker := strings.TrimSpace(text[:end])
	tail := strings.TrimLeft(text[end:], " \t")
	if tail == "" {
		return marker, false
	}
	if startsWithSeparator(tail) {
		_, sz := utf8.DecodeRuneInString(tail)
		rest := strings.TrimSpace(tail[sz:])
		if rest == "" {
			return marker, false
		}
		if len(strings.Fields(rest)) > maxMarkerRest {
			return marker, true
		}
	}
	return strings.TrimSpace(text), false
}

func startsWithSeparator(s string) bool {
	return strings.HasPrefix(s, ":") || startsWithDash(s)
}

// startsWithDash reports whether s opens with a dash used as a separator: an
// em or en dash, or a hyphen followed by a space or nothing (so "7-8" is not
// a separator).
func startsWithDash(s string) bool {
	switch {
	case strings.HasPrefix(s, "—"), strings.HasPrefix(s, "–"):
		return true
	case strings.HasPrefix(s, "-"):
		return len(s) == 1 || s[1] == ' ' || s[1] == '\t'
	}
	return false
}

// numberSigns are the optional signs between the session word and its
// number, matched case-insensitively.
var numberSigns = []string{"#", "nº", "n°", "n.º", "n.°", "no.", "nro.", "núm.", "num.", "número", "numero"}

// parseMarker matches the session word at the very start of s, then an
// optional number sign and the number. It returns the number and the byte
// offset just after it (and after a one-letter suffix). In a file name
// (fileName true) underscores, hyphens and dots may separate the word from
// the number.
func parseMarker(s string, fileName bool) (n, end int, ok bool) {
	i := matchSessionWord(s)
	if i < 0 {
		return 0, 0, false
	}
	skip := func() {
		for i < len(s) {
			c := s[i]
			if c == ' ' || c == '\t' || (fileName && (c == '_' || c == '-' || c == '.')) {
				i++
				continue
			}
			break
		}
	}
	skip()
	for _, sign := range numberSigns {
		if len(s)-i >= len(sign) && strings.EqualFold(s[i:i+len(sign)], sign) {
			i += len(sign)
			skip()
			break
		}
	}
	j := i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j == i || j-i > 9 {
		return 0, 0, false
	}
	n, err := strconv.Atoi(s[i:j])
	if err != nil {
		return 0, 0, false
	}
	if j < len(s) {
		r, sz := utf8.DecodeRuneInString(s[j:])
		if unicode.IsLetter(r) {
			next, _ := utf8.DecodeRuneInString(s[j+sz:])
			if r > unicode.MaxASCII || j+sz < len(s) && (unicode.IsLetter(next) || unicode.IsDigit(next)) {
				return 0, 0, false
			}
			j += sz
		}
	}
	return n, j, true
}

// matchSessionWord returns the byte length of the session word ("sesión",
// "sesion" or "session", any case, the ó precomposed or as o plus a
// combining acute) at the start of s, or -1. The word must not run on into
// more letters ("Sesiones").
func matchSessionWord(s string) int {
	for _, w := range [...]string{"sesion", "session"} {
		i := 0
		matched := true
		for k := 0; k < len(w); k++ {
			if i >= len(s) {
				matched = false
				break
			}
			r, sz := utf8.DecodeRuneInString(s[i:])
			r = unicode.ToLower(r)
			want := rune(w[k])
			if r != want && (want != 'o' || r != 'ó') {
				matched = false
				break
			}
			i += sz
			if r == 'o' && strings.HasPrefix(s[i:], "\u0301") {
				i += len("\u0301")
			}
		}
		if !matched {
			continue
		}
		if i < len(s) {
			r, _ := utf8.DecodeRuneInString(s[i:])
			if unicode.IsLetter(r) || unicode.Is(unicode.Mn, r) {
				continue
			}
		}
		return i
	}
	return -1
}

// stripMarkers removes the Markdown emphasis that wraps a heading's text and
// any bold delimiters inside it.
func stripMarkers(text string) string {
	text = strings.TrimSpace(text)
	for changed := true; changed; {
		changed = false
		for _, w := range [...]string{"**", "__", "*", "_"} {
			if len(text) > 2*len(w) && strings.HasPrefix(text, w) && strings.HasSuffix(text, w) {
				text = strings.TrimSpace(text[len(w) : len(text)-len(w)])
				changed = true
			}
		}
	}
	return strings.TrimSpace(strings.ReplaceAll(text, "**", ""))
}

// SessionFromPath reports whether a file name is a session and its number:
// the file stem starts with the session word and a number ("Sesiones/Sesion
// 7.md", "sesion 25.md", "Sesión 3.txt", "sesion_07.md", "Session-12 La
// cripta.md"). A prefix of digits and separators, such as a date, is
// allowed ("2024-03-12 Sesión 7.md"); folders are not looked at.
func SessionFromPath(path string) (number int, ok bool) {
	stem := fileStem(path)
	stem = strings.TrimLeft(stem, "0123456789 _-.")
	n, _, ok := parseMarker(stem, true)
	if !ok {
		return 0, false
	}
	return n, true
}

// fileStem returns the base name of a slash-separated path without its
// extension.
func fileStem(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		p = p[i+1:]
	}
	if i := strings.LastIndexByte(p, '.'); i > 0 {
		p = p[:i]
	}
	return p
}

// parentFolder returns the name of the folder that holds the file, or "" for
// a file at the root.
func parentFolder(p string) string {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return ""
	}
	dir := p[:i]
	if j := strings.LastIndexByte(dir, '/'); j >= 0 {
		dir = dir[j+1:]
	}
	if dir == "." {
		return ""
	}
	return dir
}

// DocTitle derives a document's title: its explicit Title (the front
// matter's, or a converted document's own) if non-empty, else its file
// stem. A Markdown note's first level-one ATX heading above any session
// header and outside code fences (Markdown markers stripped) is taken
// instead of the stem only when it says the stem's words, accents and case
// aside ("# Ser Morcant" in ser-morcant.md): Obsidian titles a note by its
// file name, and a note's first "# Acciones Notables" is a section of it.
// Other documents (text, converted PDF, DOCX, HTML) keep their first
// level-one heading as their title.
func DocTitle(doc Document) string {
	return docTitle(doc, scanLines(doc.Text))
}

func docTitle(doc Document, lines []lineInfo) string {
	if t := strings.TrimSpace(doc.Title); t != "" {
		return t
	}
	stem := fileStem(doc.Path)
	// Only a level-one heading above the first session names the whole
	// document; one inside a session names a part of it.
	for _, l := range lines {
		if l.sess {
			break
		}
		if l.level == 1 && l.heading != "" {
			if !isMarkdownPath(doc.Path) || sameWords(l.heading, stem) {
				return l.heading
			}
			break
		}
	}
	return stem
}

// isMarkdownPath reports a note's path with a Markdown extension.
func isMarkdownPath(p string) bool {
	ext := strings.ToLower(p[strings.LastIndexByte(p, '.')+1:])
	return strings.Contains(p, ".") && (ext == "md" || ext == "markdown")
}

// sameWords reports whether a and b are the same words, folded (case and
// accents aside), whatever separates them ("Ser Morcant", "ser-morcant").
func sameWords(a, b string) bool {
	words := func(s string) []string {
		s = text.Fold(s)
		var out []string
		for i, j := range text.Words(s) {
			out = append(out, s[i:j])
		}
		return out
	}
	wa, wb := words(a), words(b)
	if len(wa) == 0 || len(wa) != len(wb) {
		return false
	}
	for i := range wa {
		if wa[i] != wb[i] {
			return false
		}
	}
	return true
}
