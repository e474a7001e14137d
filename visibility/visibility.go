// Package visibility decides who may see a note: everyone at the table, or
// the DM (the notes' owner) only.
//
// A note is DM-only when it lies in a secret folder (at any depth, whatever
// the case and accents: "DM", "dm", "Campaña/DM", "Máster"), when it is a
// symbolic link to a note in one, when its front matter says so in any of
// the ways people write it ("visibility: dm", "Visibilidad: solo DM",
// "visible: false", "visibility: [dm]", "secreto: true", ...), or when it
// carries a DM tag ("dm", "secreto", "dm-only", ...).
//
// The rules fail closed: a front-matter key that looks like a visibility
// setting but is not understood, or a visibility value that is not, makes
// the note DM-only with a warning naming the problem, so that a typo never
// publishes a secret. A front matter that could not be parsed is scanned
// line by line for the same keys.
//
// Decide is pure: the same inputs give the same decision at ingest (where
// it is stored in the same write as the note) and when the rules or the
// secret folders change (where every stored note is decided again).
// [Settle] is where that happens: it takes every stored note's decision
// again, in one write, when the folders or the rules changed.
package visibility

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/oraculo/oraculo/compendium"
)

// Version names these rules. An index decided with another version decides
// every note again.
const Version = "2"

// Reasons a note is DM-only (Decision.Reason).
const (
	ReasonFolder      = "folder"
	ReasonLink        = "link"
	ReasonFrontMatter = "front-matter"
	ReasonTag         = "tag"
	// ReasonUnclear: a visibility setting that was not understood.
	ReasonUnclear = "unclear"
	// ReasonUnknown is stored for notes not yet decided (an index written
	// by an older version); readers treat them as DM-only.
	ReasonUnknown = "unknown"
)

// Note is what a decision is taken from.
type Note struct {
	// Path is the note's path relative to its notes folder, forward slashes.
	Path string
	// Link, for a symbolic link, is where it points: relative to the notes
	// folder when inside it, else the part of the target's path below the
	// folder both share (see LinkPath). Empty for ordinary files.
	Link string
	// FrontMatter is the parsed front matter (nil when none).
	FrontMatter map[string]any
	// RawFrontMatter is the text of a front matter that could not be
	// parsed ("" otherwise).
	RawFrontMatter string
}

// Decision says whether a note is DM-only and why.
type Decision struct {
	DMOnly bool
	// Reason is one of the Reason constants ("" when public).
	Reason string
	// Detail names what decided, e.g. `folder "DM"` or `visibility: dm`.
	Detail string
	// Warnings are visibility settings that were not understood, for the
	// ingest report.
	Warnings []string
}

// Rules are the secret folders a note is judged against.
type Rules struct {
	folders [][]string // each a sequence of normalised path components
	names   []string
}

// NewRules returns rules for the secret folders (paths relative to a notes
// folder, one or more components: "DM", "Campaña/Secretos").
func NewRules(folders []string) Rules {
	var r Rules
	for _, f := range folders {
		comps := components(f)
		if len(comps) > 0 {
			r.folders = append(r.folders, comps)
			r.names = append(r.names, f)
		}
	}
	return r
}

// components splits a path and normalises each part (case, accents,
// punctuation and spacing folded).
func components(p string) []string {
	var out []string
	for _, c := range strings.Split(strings.ReplaceAll(p, "\\", "/"), "/") {
		if n := compendium.Normalize(c); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// InSecretFolder returns the secret folder that p lies in (or names), or
// "" when none: the folder's components must appear in p, in order and
// next to each other, at any depth.
func (r Rules) InSecretFolder(p string) string {
	comps := components(p)
	for i, f := range r.folders {
		for start := 0; start+len(f) <= len(comps); start++ {
			match := true
			for j := range f {
				if comps[start+j] != f[j] {
					match = false
					break
				}
			}
			if match {
				return r.names[i]
			}
		}
	}
	return ""
}

// Decide decides a note. The first reason found is kept: folder, link,
// front matter, tag.
func (r Rules) Decide(n Note) Decision {
	if f := r.InSecretFolder(n.Path); f != "" {
		d := Decision{DMOnly: true, Reason: ReasonFolder, Detail: fmt.Sprintf("folder %q", f)}
		d.Warnings = frontMatter(n).Warnings
		return d
	}
	if n.Link != "" {
		if f := r.InSecretFolder(n.Link); f != "" {
			d := Decision{DMOnly: true, Reason: ReasonLink, Detail: fmt.Sprintf("link to %q in folder %q", n.Link, f)}
			d.Warnings = frontMatter(n).Warnings
			return d
		}
	}
	return frontMatter(n)
}

// LinkPath says where a link points for the folder rules: the target
// relative to root when it lies inside root, else the target's path below
// the deepest folder it shares with root (so that a link to
// /home/ana/Secretos/x.md from /home/ana/Campaña is judged by
// "Secretos/x.md"). Both paths must be absolute and clean.
func LinkPath(root, target string) string {
	root, target = path.Clean(filepathToSlash(root)), path.Clean(filepathToSlash(target))
	if rel, ok := strings.CutPrefix(target, strings.TrimSuffix(root, "/")+"/"); ok {
		return rel
	}
	rc, tc := strings.Split(root, "/"), strings.Split(target, "/")
	i := 0
	for i < len(rc) && i < len(tc) && rc[i] == tc[i] {
		i++
	}
	return strings.Join(tc[i:], "/")
}

func filepathToSlash(p string) string { return strings.ReplaceAll(p, "\\", "/") }

// Key classes.
const (
	keyNone     = iota
	keyAudience // the value names who may see the note
	keyVisible  // the value says whether players may see it
	keyFlag     // true makes the note DM-only
	keyLookalike
	keyTags
)

// audienceKeys, flagKeys: keys in normalised form with spaces removed.
var (
	audienceKeys = set("visibility", "visibilidad", "audience", "audiencia", "acceso", "access", "visibleto", "visiblepara")
	visibleKeys  = set("visible")
	flagKeys     = set("dmonly", "gmonly", "solodm", "sologm", "solomaster", "solodj", "onlydm", "onlygm",
		"secret", "secreto", "secreta", "private", "privado", "privada", "hidden", "oculto", "oculta",
		"spoilerdm", "dmsecret", "secretodm")
	// lookalike fragments: a key holding one of them is probably meant as
	// a visibility setting.
	lookalikeParts = []string{"visib", "audien", "acces", "permis", "secret", "privad", "privat", "ocult", "hidden",
		"dmonly", "gmonly", "solodm", "sologm", "onlydm", "onlygm", "solomaster", "soloparael", "restrict", "restring"}
	tagKeys = set("tags", "tag", "etiquetas", "etiqueta")
)

// Value words, normalised.
var (
	secretWords = set("dm", "gm", "dj", "mj", "master", "director", "secret", "secreto", "secreta", "secretos",
		"secretas", "private", "privado", "privada", "hidden", "oculto", "oculta", "restricted", "restringido",
		"restringida", "confidential", "confidencial", "dmonly", "gmonly", "solodm", "false", "no", "none", "nadie", "nobody")
	publicWords = set("public", "publico", "publica", "all", "everyone", "everybody", "todos", "todas", "todo", "players",
		"player", "jugadores", "jugador", "jugadoras", "party", "grupo", "mesa", "table", "open", "abierto", "abierta",
		"true", "yes", "si")
	fillerWords = set("solo", "only", "para", "el", "la", "los", "las", "del", "de", "for", "the", "just", "al", "a", "y", "and", "o", "or")
	trueWords   = set("true", "yes", "si", "y", "1", "on", "verdadero", "cierto")
	falseWords  = set("false", "no", "n", "0", "off", "falso")
	// secretTags are tags that mark a DM note.
	secretTags = set("dm", "gm", "dj", "dmonly", "gmonly", "solodm", "sologm", "secreto", "secreta", "secret",
		"privado", "privada", "private", "oculto", "oculta", "hidden", "dmsecret", "secretodm", "dmnotes", "notasdm")
)

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// classify returns a key's class.
func classify(key string) int {
	k := strings.ReplaceAll(compendium.Normalize(key), " ", "")
	switch {
	case k == "":
		return keyNone
	case audienceKeys[k]:
		return keyAudience
	case visibleKeys[k]:
		return keyVisible
	case flagKeys[k]:
		return keyFlag
	case tagKeys[k]:
		return keyTags
	}
	for _, p := range lookalikeParts {
		if strings.Contains(k, p) {
			return keyLookalike
		}
	}
	return keyNone
}

// verdict is what one value says.
type verdict int

const (
	unset verdict = iota
	public
	secret
	unclear
)

// audience judges a value that names who may see the note: a word or
// phrase ("dm", "solo DM", "jugadores"), a list of them, or nothing.
func audience(v any) verdict {
	switch t := v.(type) {
	case nil:
		return unset
	case string:
		words := strings.Fields(compendium.Normalize(t))
		var kept []string
		for _, w := range words {
			if !fillerWords[w] {
				kept = append(kept, w)
			}
		}
		if len(kept) == 0 {
			if len(words) == 0 {
				return unset
			}
			return unclear
		}
		secrets, publics := 0, 0
		for _, w := range kept {
			switch {
			case secretWords[w]:
				secrets++
			case publicWords[w]:
				publics++
			}
		}
		switch {
		case secrets == len(kept):
			return secret
		case publics == len(kept):
			return public
		}
		return unclear // unknown words, or secret and public ones mixed
	case []any:
		out := unset
		for _, e := range t {
			switch v := audience(e); {
			case v == unclear, v == secret && out == public, v == public && out == secret:
				return unclear
			case v != unset:
				out = v
			}
		}
		return out
	}
	return unclear // a number, a boolean, a map
}

// boolean reads a yes/no value: (value, understood).
func boolean(v any) (bool, bool) {
	switch t := v.(type) {
	case bool:
		return t, true
	case int:
		return t != 0, t == 0 || t == 1
	case float64:
		return t != 0, t == 0 || t == 1
	case string:
		w := compendium.Normalize(t)
		switch {
		case trueWords[w]:
			return true, true
		case falseWords[w]:
			return false, true
		}
	}
	return false, false
}

// frontMatter decides from the front matter and the tags.
func frontMatter(n Note) Decision {
	var d Decision
	decide := func(reason, detail string) {
		if !d.DMOnly {
			d.DMOnly, d.Reason, d.Detail = true, reason, detail
		}
	}
	warn := func(key string, v any, what string) {
		d.Warnings = append(d.Warnings, fmt.Sprintf("front matter %s: %s; the note is DM-only until it says \"visibility: dm\" or \"visibility: public\"",
			describe(key, v), what))
		decide(ReasonUnclear, describe(key, v))
	}
	keys := make([]string, 0, len(n.FrontMatter))
	for k := range n.FrontMatter {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := n.FrontMatter[k]
		switch class := classify(k); class {
		case keyAudience, keyVisible:
			if b, ok := boolean(v); ok && class == keyVisible {
				if !b {
					decide(ReasonFrontMatter, describe(k, v))
				}
				continue
			}
			switch audience(v) {
			case secret:
				decide(ReasonFrontMatter, describe(k, v))
			case unclear:
				warn(k, v, "value not understood")
			}
		case keyFlag:
			b, ok := boolean(v)
			switch {
			case ok && b:
				decide(ReasonFrontMatter, describe(k, v))
			case ok, v == nil:
			default:
				warn(k, v, "expected true or false")
			}
		case keyLookalike:
			switch audience(v) {
			case public, unset:
				d.Warnings = append(d.Warnings, fmt.Sprintf("front matter %s looks like a visibility setting but is not one Oráculo reads (write \"visibility: dm\" or \"visibility: public\"); the note stays visible to players", describe(k, v)))
			default:
				warn(k, v, "looks like a visibility setting but is not one Oráculo reads")
			}
		case keyTags:
			for _, tag := range tags(v) {
				if secretTag(tag) {
					decide(ReasonTag, fmt.Sprintf("tag %q", tag))
				}
			}
		}
	}
	if n.RawFrontMatter != "" {
		for _, line := range strings.Split(n.RawFrontMatter, "\n") {
			key, value, ok := strings.Cut(line, ":")
			if !ok {
				continue
			}
			switch classify(strings.TrimSpace(key)) {
			case keyAudience, keyVisible, keyFlag, keyLookalike:
				d.Warnings = append(d.Warnings, fmt.Sprintf("front matter could not be read and it has %q: the note is DM-only until its front matter is fixed",
					strings.TrimSpace(key)+": "+strings.TrimSpace(value)))
				decide(ReasonUnclear, "unreadable front matter with "+strings.TrimSpace(key))
			}
		}
	}
	return d
}

// tags lists a tags value: a list, or a string of tags separated by commas
// or spaces.
func tags(v any) []string {
	var out []string
	switch t := v.(type) {
	case string:
		out = strings.FieldsFunc(t, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
	case []any:
		for _, e := range t {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
	}
	return out
}

// secretTag: a tag, or a part of a nested tag ("dm/secretos"), that marks
// a DM note.
func secretTag(tag string) bool {
	for _, part := range strings.Split(strings.TrimPrefix(strings.TrimSpace(tag), "#"), "/") {
		if secretTags[strings.ReplaceAll(compendium.Normalize(part), " ", "")] {
			return true
		}
	}
	return false
}

// describe prints a key and value as a user wrote them, shortened.
func describe(key string, v any) string {
	s := fmt.Sprint(v)
	if l, ok := v.([]any); ok {
		parts := make([]string, len(l))
		for i, e := range l {
			parts[i] = fmt.Sprint(e)
		}
		s = "[" + strings.Join(parts, ", ") + "]"
	}
	if r := []rune(s); len(r) > 60 {
		s = string(r[:57]) + "..."
	}
	return fmt.Sprintf("%q", key+": "+s)
}
