// Package leakcheck finds what a player must never see of a campaign's
// DM-only notes in any output: the leak tests of the engine and of the
// server share it.
package leakcheck

import (
	"encoding/json"
	"regexp"
	"strings"

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

// Find returns what of the secrets data (a JSON response or document)
// shows: an id as a JSON string, a file, a label opening a JSON string, or
// a sentence, raw or JSON-escaped, in any case.
func (s Secrets) Find(data []byte) []string {
	text := string(data)
	lower := strings.ToLower(text)
	var out []string
	for i, id := range s.IDs {
		if strings.Contains(text, `"`+id+`"`) {
			out = append(out, "id "+id)
		}
		if strings.Contains(text, s.Files[i]) {
			out = append(out, "file "+s.Files[i])
		}
		if strings.Contains(text, `"`+s.Labels[i]) {
			out = append(out, "label "+s.Labels[i])
		}
	}
	for _, sent := range s.Sentences {
		low := strings.ToLower(sent)
		escaped, _ := json.Marshal(low)
		if strings.Contains(lower, low) || strings.Contains(lower, strings.Trim(string(escaped), `"`)) {
			out = append(out, "text "+sent)
		}
	}
	return out
}
