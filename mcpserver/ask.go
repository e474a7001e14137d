package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/link"
)

const askDescription = `Answer a question from the notes alone. Every claim in the answer is followed by the label of the note it comes from, e.g. [Sesión 17]; each citation is checked against the evidence the answer was written from, and invalid ones are removed. A sentence left without a valid citation is marked "(sin fuente)" or "(unsupported)": relay it as unsupported, if at all. When the notes do not say, or nothing in the answer is supported, the answer abstains (abstained: true) instead of guessing. With no chat model configured the answer is extractive: the notes' own sentences. Pass the conversation's earlier turns in history so that a follow-up ("¿y después?", "what about him?") keeps its subject. Read a cited source whole with read_chunk and the evidence id.`

// AskInput is the ask tool's input.
type AskInput struct {
	Question string   `json:"question" jsonschema:"the question, in the notes' language when possible"`
	History  []Turn   `json:"history,omitempty" jsonschema:"the conversation's earlier questions and answers, oldest first, for follow-up questions"`
	Filters  *Filters `json:"filters,omitempty" jsonschema:"restrict the evidence to some sessions, folders or tags before ranking"`
}

// Turn is one earlier exchange of a conversation.
type Turn struct {
	Question string `json:"question" jsonschema:"an earlier question"`
	Answer   string `json:"answer,omitempty" jsonschema:"the answer it got"`
	Query    string `json:"query,omitempty" jsonschema:"the query that answer reported, if known: it keeps a conversation's subject across follow-ups"`
}

// AskOutput is the ask tool's result.
type AskOutput struct {
	Question  string `json:"question" jsonschema:"the question asked"`
	Answer    string `json:"answer" jsonschema:"the verified answer; each claim is followed by the label of its source in brackets"`
	Abstained bool   `json:"abstained" jsonschema:"true when the notes do not answer the question"`
	// Grounding is "direct", "closest" or "none" (see oraculo.Answer).
	Grounding string `json:"grounding,omitempty" jsonschema:"direct (the notes answer it), closest (only what comes closest, said so) or none (the notes do not say)"`
	// Sentences and SupportedSentences count the answer's claims and
	// those with a valid citation.
	Sentences          int `json:"sentences" jsonschema:"how many sentences of the answer claim something"`
	SupportedSentences int `json:"supported_sentences" jsonschema:"how many of them cite evidence the answer was written from; the others are marked (sin fuente) or (unsupported) in the answer"`
	// Mode is "generated" or "extractive".
	Mode      string      `json:"mode" jsonschema:"generated (written by the chat model) or extractive (the notes' own sentences)"`
	Query     string      `json:"query" jsonschema:"what was searched: the question, or joined with the previous one for a follow-up"`
	FollowUp  bool        `json:"follow_up" jsonschema:"true when the question was read as a follow-up of the history"`
	Fallback  string      `json:"fallback,omitempty" jsonschema:"why the answer is extractive although a chat model was asked for one: timeout (it did not answer in time) or error"`
	Notice    string      `json:"notice,omitempty" jsonschema:"set with fallback: tells the reader that the model did not write this answer; show it with the answer"`
	Citations []Citation  `json:"citations" jsonschema:"every citation the answer made, in order"`
	Evidence  []Evidence  `json:"evidence" jsonschema:"what the answer was written from: whole chunks, then one-line summaries"`
	Memory    []MemoryUse `json:"memory,omitempty" jsonschema:"the entries of long-term memory the answer was shown"`
	Warnings  []string    `json:"warnings,omitempty" jsonschema:"problems that did not stop the answer, such as an unreachable chat model"`
}

// MemoryUse is an entry of long-term memory an answer was shown.
type MemoryUse struct {
	ID     string `json:"id" jsonschema:"the entry's id, for memory_show"`
	Key    string `json:"key" jsonschema:"what it is about"`
	Value  string `json:"value" jsonschema:"its value"`
	Status string `json:"status" jsonschema:"hypothesis or verified"`
	Stale  bool   `json:"stale" jsonschema:"its note changed since it was verified"`
	Use    string `json:"use" jsonschema:"evidence (delivered under its label, citable) or unconfirmed (shown as not settled: never a source, relay it as unconfirmed if at all)"`
	Label  string `json:"label,omitempty" jsonschema:"its label when it is evidence: Memoria: KEY"`
}

// Citation is one citation of an answer.
type Citation struct {
	Label    string  `json:"label" jsonschema:"the label as written in the answer"`
	Evidence *string `json:"evidence" jsonschema:"the id of the evidence it names (for read_chunk), or null"`
	Valid    bool    `json:"valid" jsonschema:"true when it names evidence the answer was written from"`
	URL      string  `json:"url,omitempty" jsonschema:"the page of the cited passage on the server, with the cited sentence marked (opens without a token)"`
}

// Evidence is one item the answer was written from.
type Evidence struct {
	ID    string `json:"id" jsonschema:"the chunk's id, for read_chunk (for memory, the entry's id, for memory_show)"`
	Label string `json:"label" jsonschema:"what to cite it by"`
	File  string `json:"file" jsonschema:"the note's path"`
	Kind  string `json:"kind" jsonschema:"full (the whole chunk was used), summary (one line of it) or memory (a verified entry of the table's long-term memory)"`
	URL   string `json:"url,omitempty" jsonschema:"the page of the passage on the server (opens without a token)"`
}

func (t *tools) ask(ctx context.Context, _ *mcp.CallToolRequest, in AskInput) (*mcp.CallToolResult, AskOutput, error) {
	q := strings.TrimSpace(in.Question)
	if q == "" {
		return nil, AskOutput{}, errors.New("the question is empty")
	}
	opts := oraculo.AskOptions{History: make([]oraculo.Turn, 0, len(in.History)), Filter: in.Filters.filter()}
	for _, h := range in.History {
		opts.History = append(opts.History, oraculo.Turn{Question: h.Question, Answer: h.Answer, Query: h.Query})
	}
	a, err := t.eng.Ask(ctx, q, opts)
	if err != nil {
		return nil, AskOutput{}, t.failure(ctx, "ask", err)
	}
	out := AskOutput{
		Question: a.Question, Answer: a.Answer, Abstained: a.Abstained, Mode: a.Mode, Fallback: a.Fallback, Notice: a.Notice, Query: a.Query, FollowUp: a.FollowUp,
		Grounding: a.Grounding, Sentences: a.Sentences, SupportedSentences: a.SupportedSentences,
		Citations: make([]Citation, len(a.Citations)), Evidence: make([]Evidence, len(a.Evidence)),
	}
	links := t.linksFor(ctx)
	for i, c := range a.Citations {
		out.Citations[i] = Citation{Label: c.Label, Evidence: c.Evidence, Valid: c.Valid}
		if links != nil && c.Valid && c.Evidence != nil && c.Kind != "memory" {
			out.Citations[i].URL = links.Passage(ctx, *c.Evidence, "")
		}
	}
	for _, m := range a.Memory {
		out.Memory = append(out.Memory, MemoryUse{ID: m.ID, Key: m.Key, Value: m.Value, Status: m.Status, Stale: m.Stale, Use: m.Use, Label: m.Label})
	}
	for i, e := range a.Evidence {
		out.Evidence[i] = Evidence{ID: e.ID, Label: e.Label, File: e.File, Kind: e.Kind}
		if links != nil && e.Kind != "memory" {
			out.Evidence[i].URL = links.Passage(ctx, e.ID, "")
		}
	}
	// Warnings name the operator's setup (model servers and their
	// errors): the DM's to read, not a player's.
	if oraculo.RoleFrom(ctx) == oraculo.RoleDM {
		out.Warnings = a.Warnings
	}
	text := out.Answer
	if links != nil {
		text = links.Text(ctx, a.Segments)
	}
	return textResult(askText(out, text, links, a.Lang)), out, nil
}

// linksFor is the link maker for a call in ctx, or nil when links cannot
// be made there (none configured, or no base to point them to).
func (t *tools) linksFor(ctx context.Context) *link.Maker {
	if t.links == nil || !t.links.HasBase(ctx) {
		return nil
	}
	return t.links
}

// askWords are the words askText puts around an answer, in one language.
type askWords struct {
	sources, unconfirmed, abstained, partial, warning string
}

// askWordsFor are askText's words in lang, the answer's: Spanish for
// "es", English otherwise, so that an answer reads in one language.
func askWordsFor(lang string) askWords {
	if lang == "es" {
		return askWords{
			sources:     "Fuentes:",
			unconfirmed: "Memoria sin confirmar, no es una fuente (%s, %s): %s: %s",
			abstained:   "(Las notas no responden a esta pregunta.)",
			partial:     "(%d de %d frases respaldadas por las notas; las demás van marcadas sin fuente.)",
			warning:     "Aviso: %s",
		}
	}
	return askWords{
		sources:     "Sources:",
		unconfirmed: "Unconfirmed memory, not a source (%s, %s): %s: %s",
		abstained:   "(The notes do not answer this question.)",
		partial:     "(%d of %d sentences supported by the notes; the others are marked unsupported.)",
		warning:     "Warning: %s",
	}
}

// askText is an answer as a reader would want it: text (the answer, its
// citations links when links is set), then the sources it cites with
// their ids, in lang, the answer's language.
func askText(out AskOutput, text string, links *link.Maker, lang string) string {
	words := askWordsFor(lang)
	var b strings.Builder
	if out.Notice != "" {
		fmt.Fprintf(&b, "(%s)\n\n", out.Notice)
	}
	b.WriteString(text)
	b.WriteString("\n")
	cited := map[string]bool{}
	for _, c := range out.Citations {
		if c.Valid && c.Evidence != nil {
			cited[*c.Evidence] = true
		}
	}
	first := true
	for _, e := range out.Evidence {
		if !cited[e.ID] {
			continue
		}
		if first {
			b.WriteString("\n" + words.sources + "\n")
			first = false
		}
		delete(cited, e.ID)
		switch {
		case e.URL != "":
			fmt.Fprintf(&b, "- [%s](%s) %s (id %s)", e.Label, e.URL, e.File, e.ID)
			if o := links.Obsidian(e.File); o != "" {
				fmt.Fprintf(&b, " · [Obsidian](%s)", o)
			}
			b.WriteString("\n")
		default:
			fmt.Fprintf(&b, "- [%s] %s (id %s)\n", e.Label, e.File, e.ID)
		}
	}
	for _, m := range out.Memory {
		if m.Use == oraculo.MemoryUnconfirmed {
			fmt.Fprintf(&b, "\n"+words.unconfirmed+"\n", m.ID, m.Status, m.Key, m.Value)
		}
	}
	if out.Abstained {
		b.WriteString("\n" + words.abstained + "\n")
	} else if out.SupportedSentences < out.Sentences {
		fmt.Fprintf(&b, "\n"+words.partial+"\n", out.SupportedSentences, out.Sentences)
	}
	for _, w := range out.Warnings {
		fmt.Fprintf(&b, "\n"+words.warning+"\n", w)
	}
	return b.String()
}
