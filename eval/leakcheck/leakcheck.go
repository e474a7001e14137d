// Package leakcheck finds what a player must never see of a campaign's
// DM-only notes in any output: the leak tests of the engine and of the
// server share it. It is harness code (it reads the engine's chunks), so it
// lives beside eval rather than under internal/, which holds only leaves.
package leakcheck

import (
	"encoding/json"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/oraculo/oraculo"
)

// Secrets is what of the DM-only chunks must not reach a player: their
// ids, files and labels, and their sentences that no chunk players may
// see also says. Questions are aimed at them: each secret sentence, and
// each chunk's label and heading path.
type Secrets struct {
	IDs, Files, Labels []string
	Sentences          []string
	Questions          []string
}

var sentenceEnd = regexp.MustCompile(`[.!?\n]+`)

// Collect gathers the secrets of the chunks for which secret is true.
func Collect(all []oraculo.ChunkInfo, secret func(oraculo.ChunkInfo) bool) Secrets {
	var public strings.Builder
	for _, c := range all {
		if !secret(c) {
			public.WriteString(strings.ToLower(c.Text))
		}
	}
	var s Secrets
	for _, c := range all {
		if !secret(c) {
			continue
		}
		s.IDs, s.Files, s.Labels = append(s.IDs, c.ID), append(s.Files, c.File), append(s.Labels, c.Label)
		for _, sent := range sentenceEnd.Split(c.Text, -1) {
			sent = strings.TrimSpace(strings.Trim(sent, "-*#> "))
			if len(strings.Fields(sent)) >= 6 && !strings.Contains(public.String(), strings.ToLower(sent)) {
				s.Sentences = append(s.Sentences, sent)
				s.Questions = append(s.Questions, sent)
			}
		}
		s.Questions = append(s.Questions, c.Label, strings.Join(c.Headings, " "))
	}
	return s
}

// Matcher finds the secrets of a [Secrets] in a response in one pass
// over it, however many secrets there are. It is safe for concurrent use.
type Matcher struct {
	ids, files, labels, sentences []string
	exact                         *automaton // ids, files and labels, in the text as it is
	folded                        *automaton // sentences, in the lowercased text
}

// Matcher returns a matcher of the secrets as they are now: secrets
// added to s later are not sought.
func (s Secrets) Matcher() *Matcher {
	m := &Matcher{
		ids:       append([]string(nil), s.IDs...),
		files:     append([]string(nil), s.Files...),
		labels:    append([]string(nil), s.Labels...),
		sentences: append([]string(nil), s.Sentences...),
	}
	// Pattern k of the exact automaton is secret k/3's id, file or label
	// (k%3); pattern k of the folded one is sentence k/2, raw or escaped.
	var exact, folded []string
	for i, id := range m.ids {
		exact = append(exact, `"`+id+`"`, m.files[i], `"`+m.labels[i])
	}
	for _, sent := range m.sentences {
		low := strings.ToLower(sent)
		escaped, _ := json.Marshal(low)
		folded = append(folded, low, strings.Trim(string(escaped), `"`))
	}
	m.exact, m.folded = newAutomaton(exact), newAutomaton(folded)
	return m
}

// Find returns what of the secrets data (a JSON response or document)
// shows: an id as a JSON string, a file, a label opening a JSON string, or
// a sentence, raw or JSON-escaped, in any case. It names each secret
// found once per time it is listed, ids, files and labels first, in the
// order of the secrets.
func (m *Matcher) Find(data []byte) []string {
	exact, folded := m.exact.start(), m.folded.start()
	var buf [4]byte
	for i := 0; i < len(data); {
		c := data[i]
		exact.feed(c)
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			folded.feed(c)
			i++
			continue
		}
		// Lowercase as strings.ToLower does: rune by rune, an invalid
		// byte becoming U+FFFD.
		r, size := utf8.DecodeRune(data[i:])
		for _, b := range data[i+1 : i+size] {
			exact.feed(b)
		}
		for _, b := range utf8.AppendRune(buf[:0], unicode.ToLower(r)) {
			folded.feed(b)
		}
		i += size
	}
	var out []string
	for i, id := range m.ids {
		if exact.found[3*i] {
			out = append(out, "id "+id)
		}
		if exact.found[3*i+1] {
			out = append(out, "file "+m.files[i])
		}
		if exact.found[3*i+2] {
			out = append(out, "label "+m.labels[i])
		}
	}
	for i, sent := range m.sentences {
		if folded.found[2*i] || folded.found[2*i+1] {
			out = append(out, "text "+sent)
		}
	}
	return out
}
