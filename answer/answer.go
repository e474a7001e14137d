package answer

import (
	"fmt"
	"time"

	"github.com/oraculo/oraculo/analysis"
	"github.com/oraculo/oraculo/query"
	"github.com/oraculo/oraculo/rerank"
	"github.com/oraculo/oraculo/retrieve"
	"github.com/oraculo/oraculo/story"
)

// Answer is what Ask returns. Its JSON shape is public (`ask --json`).
type Answer struct {
	Question string `json:"question"`
	// Query is what was searched: the question, or the previous question
	// and this one when it does not stand alone (FollowUp).
	Query    string `json:"query"`
	FollowUp bool   `json:"follow_up"`
	// After is set for a question that asks what happened next ("¿y
	// después?"): the last session the previous answer cited, after which
	// it searched (see [Continues]).
	After *int `json:"after_session,omitempty"`
	// Analysis is what was understood of the query: the filters it ran
	// with, the kind of question.
	Analysis query.Understanding `json:"analysis"`
	// Answer is the verified text: citations that name nothing delivered
	// are removed.
	Answer    string `json:"answer"`
	Abstained bool   `json:"abstained"`
	// Grounding is "direct" (the answer says what the evidence says about
	// the question), "closest" (nothing answers squarely: the answer
	// quotes what comes closest, and says so) or "none" (the notes are
	// known not to say, or nothing was found); Abstained is true only
	// with "none".
	Grounding string `json:"grounding"`
	// Mode is "generated" (the chat model wrote it) or "extractive"
	// (sentences of the evidence, no model).
	Mode  string `json:"mode"`
	Model string `json:"model,omitempty"`
	// Fallback says why an answer is extractive although a chat model was
	// asked to write it: [FallbackTimeout] or [FallbackError]; empty
	// otherwise. Notice then says so to the reader, in the answer's
	// language, naming nothing of the setup (Warnings has the details).
	Fallback string `json:"fallback,omitempty"`
	Notice   string `json:"notice,omitempty"`
	Lang     string `json:"lang"`
	// Citations lists every citation the answer made, in order, valid or
	// not; Removed the invalid ones taken out of the text.
	Citations []PublicCitation `json:"citations"`
	Removed   []PublicCitation `json:"removed_citations"`
	// Uncited are sentences that make a claim without citing anything;
	// each is marked in Answer and Segments, "_(sin fuente)_" or
	// "_(unsupported)_" after it.
	Uncited []string `json:"uncited"`
	// Sentences counts the sentences of Answer that claim something, and
	// SupportedSentences those with a valid citation (see
	// [Check]); an answer with none abstains.
	Sentences          int `json:"sentences"`
	SupportedSentences int `json:"supported_sentences"`
	// Segments are Answer cut at its citations, resolved by the same rule
	// that verified them: plain text and citation groups in order, whose
	// texts joined are Answer. Clients show citations from them rather
	// than parsing the text.
	Segments []PublicSegment `json:"segments"`
	// Evidence is what the model was shown: full chunks, then summaries.
	Evidence []Evidence `json:"evidence"`
	// Candidates are the reranked candidates the evidence was chosen from.
	Candidates []retrieve.Hit `json:"candidates"`
	Rerank     rerank.Info    `json:"rerank"`
	Warnings   []string       `json:"warnings,omitempty"`
	Timings    Timings        `json:"timings"`
	// Usage is the tokens of the chat-model calls made for the answer;
	// Source "none" (zero tokens) for an extractive one.
	Usage   Usage       `json:"usage"`
	Context ContextInfo `json:"context"`
	// Memory lists the entries of long-term memory the answer was shown:
	// verified ones as evidence (cited as "Memoria: KEY"), the others as
	// unconfirmed.
	Memory []MemoryUse `json:"memory"`
	// Sessions are the sessions the valid citations name, ascending: what
	// a front end keeps with the turn (see [Turn.Sessions]).
	Sessions []int `json:"cited_sessions,omitempty"`
	// Moments are, by chunk, the sentences of the timeline of the entity
	// an arc is about (see [TimelineMoments]). Not part of the JSON.
	Moments map[int64]string `json:"-"`
	// Told are the moments an extracted answer tells in order instead of
	// choosing sentences: a recap's events (see [Delivery.TellMoments]).
	Told []story.Moment `json:"-"`
	// Fused are the same candidates in the order search returned them,
	// before reranking: what the reranker changed. Not part of the JSON.
	Fused []retrieve.Hit `json:"-"`
}

// MemoryUse is an entry of long-term memory an answer was shown. Its JSON shape
// is public (`ask --json`, "memory").
type MemoryUse struct {
	ID     string `json:"id"`
	Scope  string `json:"scope"`
	Key    string `json:"key"`
	Value  string `json:"value"`
	Status string `json:"status"`
	Stale  bool   `json:"stale"`
	// Use is "evidence" (delivered under Label, citable) or "unconfirmed"
	// (shown as not settled: a hypothesis, or stale; never citable).
	Use   string `json:"use"`
	Label string `json:"label,omitempty"`
}

// Uses of a memory entry in an answer.
const (
	MemoryEvidence    = "evidence"
	MemoryUnconfirmed = "unconfirmed"
)

// NewAnswer is the empty answer to question, in lang or else in the
// question's language, with every list of the JSON present.
func NewAnswer(question, lang string) *Answer {
	if lang == "" {
		lang = analysis.QuestionLang(question)
	}
	return &Answer{Question: question, Lang: lang, Timings: Timings{}, Usage: Usage{Source: UsageNone}, Citations: []PublicCitation{}, Removed: []PublicCitation{},
		Uncited: []string{}, Segments: []PublicSegment{}, Evidence: []Evidence{}, Memory: []MemoryUse{}}
}

// Timeline reports whether a's question asks for a history over the
// campaign: an arc, or in a timeline's words (see [AsksForTimeline]).
func (a *Answer) Timeline() bool {
	return a.Analysis.Kind == query.KindArc || a.After != nil || AsksForTimeline(a.Question) || a.asksEntityHistory()
}

// Verify judges the draft against the evidence (see [Judge]) and puts
// the verdict into a, each citation naming its evidence by public id;
// it is timed as the stage "verify".
func (a *Answer) Verify(d Draft, ev *Delivery, terms func(string) []string) {
	stage := time.Now()
	v := Judge(a.Question, d, ev.Context, terms, a.Lang)
	a.Answer, a.Grounding, a.Abstained = v.Text, v.Grounding, v.Abstained
	a.Sentences, a.SupportedSentences = v.Sentences, v.Supported
	a.Segments, a.Citations, a.Removed = ev.Segments(v.Segments), ev.Citations(v.Citations), ev.Citations(v.Removed)
	if v.Uncited != nil {
		a.Uncited = v.Uncited
	}
	a.Sessions = a.citedSessions()
	a.Timings.Since("verify", stage)
}

// CitedEvidence returns the delivered evidence the answer's valid
// citations name, each once, in the order of its first citation: the
// answer's sources.
func (a *Answer) CitedEvidence() []Evidence { return Cited(a.Evidence, a.Citations) }

// Warn adds a warning to a's and returns it.
func (a *Answer) Warn(format string, args ...any) string {
	s := fmt.Sprintf(format, args...)
	a.Warnings = append(a.Warnings, s)
	return s
}

// ModelFailed records on a that the chat model failed with err, and that
// the answer is extracted from the notes instead (see [FellBack]): the
// notice for the reader, which names nothing of the setup, and the
// warning naming the failure, which it returns.
func (a *Answer) ModelFailed(err error) string {
	f := FellBack(err, a.Lang)
	a.Fallback, a.Notice = f.Why, f.Notice
	return a.Warn("%s", f.Warning)
}
