package oraculo

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/oraculo/oraculo/analysis"
	"github.com/oraculo/oraculo/answer"
	"github.com/oraculo/oraculo/chat"
	"github.com/oraculo/oraculo/query"
	"github.com/oraculo/oraculo/rerank"
	"github.com/oraculo/oraculo/store"
	"github.com/oraculo/oraculo/text"
)

// DefaultCandidates is how many fused candidates Ask hands to the
// reranker (seed 000: at most 40).
const DefaultCandidates = 40

// Turn is one earlier exchange of a conversation.
type Turn struct {
	Question string `json:"question"`
	Answer   string `json:"answer,omitempty"`
	// Query is what that turn searched (its Answer.Query): a follow-up of
	// a follow-up then keeps the conversation's subject.
	Query string `json:"query,omitempty"`
}

// AskOptions tune [Engine.Ask].
type AskOptions struct {
	// Candidates is how many fused candidates are reranked (default 40).
	Candidates int
	// Paths restricts retrieval (default: every available path).
	Paths []string
	// Filter restricts retrieval to some sessions, folders or tags.
	Filter store.Filter
	// History holds the conversation's earlier turns, oldest first: a
	// question that does not stand alone is searched together with the
	// previous one, and the model sees them.
	History []Turn
	// Lang is the answer's language, "es" or "en" (default: the
	// question's).
	Lang string
	// Extractive answers without the chat model even when there is one.
	Extractive bool
	// OnDelta receives the generated answer as it streams (raw, before
	// verification; the verified text is in the returned Answer). The
	// model's reasoning never reaches it, nor the Answer.
	OnDelta func(string)
	// OnThinking, when set, is called when the chat model starts
	// reasoning while it writes the answer, before the deltas that follow
	// (see chat.Request.OnThinking): a front end can say that the model is
	// thinking until the next delta.
	OnThinking func()
	// OnVerified, when set, receives the answer's verified text while the
	// chat model writes it: each time a sentence is complete (see
	// answer.Settled) and its citations checked, the segments of the
	// verified text so far, each call's text starting with the previous
	// call's. A sentence without a valid citation comes marked (see
	// answer.CheckSettled), and the last one only once the next has begun.
	// It is not called before a citation is valid (an answer with
	// none is replaced by an abstention), nor for an extractive
	// answer, which is whole at once. The Answer's Segments go on from the
	// last call's, unless the chat model failed midway and the answer was
	// extracted from the notes instead.
	OnVerified func([]Segment)
}

// Answer is what Ask returns. Its JSON shape is public (`ask --json`).
type Answer struct {
	Question string `json:"question"`
	// Query is what was searched: the question, or the previous question
	// and this one when it does not stand alone (FollowUp).
	Query    string `json:"query"`
	FollowUp bool   `json:"follow_up"`
	// Analysis is what was understood of the query: the filters it ran
	// with, the kind of question.
	Analysis QueryAnalysis `json:"analysis"`
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
	// asked to write it: FallbackTimeout or FallbackError; empty
	// otherwise. Notice then says so to the reader, in the answer's
	// language, naming nothing of the setup (Warnings has the details).
	Fallback string `json:"fallback,omitempty"`
	Notice   string `json:"notice,omitempty"`
	Lang     string `json:"lang"`
	// Citations lists every citation the answer made, in order, valid or
	// not; Removed the invalid ones taken out of the text.
	Citations []Citation `json:"citations"`
	Removed   []Citation `json:"removed_citations"`
	// Uncited are sentences that make a claim without citing anything;
	// each is marked in Answer and Segments, "_(sin fuente)_" or
	// "_(unsupported)_" after it.
	Uncited []string `json:"uncited"`
	// Sentences counts the sentences of Answer that claim something, and
	// SupportedSentences those with a valid citation (see
	// answer.Check); an answer with none abstains.
	Sentences          int `json:"sentences"`
	SupportedSentences int `json:"supported_sentences"`
	// Segments are Answer cut at its citations, resolved by the same rule
	// that verified them: plain text and citation groups in order, whose
	// texts joined are Answer. Clients show citations from them rather
	// than parsing the text.
	Segments []Segment `json:"segments"`
	// Evidence is what the model was shown: full chunks, then summaries.
	Evidence []Evidence `json:"evidence"`
	// Candidates are the reranked candidates the evidence was chosen from.
	Candidates []Hit       `json:"candidates"`
	Rerank     RerankInfo  `json:"rerank"`
	Warnings   []string    `json:"warnings,omitempty"`
	Timings    Timings     `json:"timings"`
	Context    ContextInfo `json:"context"`
	// Memory lists the entries of long-term memory the answer was shown:
	// verified ones as evidence (cited as "Memoria: KEY"), the others as
	// unconfirmed.
	Memory []MemoryUse `json:"memory"`
	// Fused are the same candidates in the order search returned them,
	// before reranking: what the reranker changed. Not part of the JSON.
	Fused []Hit `json:"-"`
}

// Citation is one citation of an answer.
type Citation struct {
	// Label is the citation as written in the answer.
	Label string `json:"label"`
	// Evidence is the id of the evidence it resolved to, or null.
	Evidence *string `json:"evidence"`
	// Kind is "full", "summary" or "memory" for a resolved citation.
	Kind      string `json:"kind,omitempty"`
	Delivered bool   `json:"delivered"`
	Valid     bool   `json:"valid"`
}

// Segment is one part of an Answer's text.
type Segment struct {
	// Text is the part as written, brackets included for a citation group.
	Text string `json:"text"`
	// Citations are the labels of a citation group, in order, each with
	// the evidence it names; absent for plain text.
	Citations []Citation `json:"citations,omitempty"`
	// Supported is false for a sentence that claims something without a
	// valid citation; absent otherwise.
	Supported *bool `json:"supported,omitempty"`
	// Mark is "unsupported" for the mark that follows such a sentence
	// ("_(sin fuente)_"): Oráculo's words, not the answer's.
	Mark string `json:"mark,omitempty"`
}

// Evidence is one item delivered to the model.
type Evidence struct {
	ID    string `json:"id"`
	Label string `json:"label"`
	File  string `json:"file"`
	// Kind is "full" (the whole chunk), "summary" (one line) or "memory"
	// (a verified entry of long-term memory: its ID is the entry's, mN,
	// and File the note it came from, or "").
	Kind string `json:"kind"`
	Text string `json:"text,omitempty"`
}

// RerankInfo says how the candidates were reordered.
type RerankInfo struct {
	Reranker string `json:"reranker"`
	Reranked bool   `json:"reranked"`
	// Fallback says why the fused order was kept, when it was.
	Fallback string `json:"fallback,omitempty"`
}

// ContextInfo sizes what the model was shown.
type ContextInfo struct {
	Full      int `json:"full"`
	Summaries int `json:"summaries"`
	// Memory counts the verified memory entries delivered.
	Memory int `json:"memory"`
	Words  int `json:"words"`
}

// Timings are milliseconds per stage.
type Timings map[string]float64

func (t Timings) since(stage string, start time.Time) {
	t[stage] = float64(time.Since(start).Microseconds()) / 1000
}

// Ask answers a question from the notes: search, rerank, assemble the
// evidence, generate (or extract) an answer, and verify its citations.
// It fails only when the index cannot be read; a chat model that is
// missing or unreachable yields an extractive answer and a warning.
func (e *Engine) Ask(ctx context.Context, question string, opts AskOptions) (*Answer, error) {
	start := time.Now()
	question = strings.TrimSpace(question)
	if question == "" {
		return nil, errors.New("empty question")
	}
	vw, err := e.snapshot(ctx)
	if err != nil {
		return nil, err
	}
	ctx = withView(ctx, vw)
	terms := vw.questionAnalyzer(question).Terms
	a := newAnswer(question, opts.Lang)
	conv, err := e.converse(ctx, question, opts.History)
	if err != nil {
		return nil, err
	}
	a.Query, a.FollowUp = conv.Query, conv.FollowUp

	stage := time.Now()
	hits, err := e.retrieve(ctx, a, opts)
	if err != nil {
		return nil, err
	}
	a.Timings.since("search", stage)

	model := e.ChatModel()
	if opts.Extractive {
		model = nil
	}
	stage = time.Now()
	notes, err := e.annotations(ctx, model, hits)
	if err != nil {
		return nil, err
	}
	a.Fused = hits
	// The model's calls end before ctx does: an answer is due either way.
	modelCtx, cancel := modelBudget(ctx)
	defer cancel()
	a.Candidates, a.Rerank = e.rerank(modelCtx, model, question, hits, notes)
	a.Timings.since("rerank", stage)

	timeline := a.Analysis.Kind == query.KindArc || answer.AsksForTimeline(question)
	aopts := answer.AssembleOptions{Chronological: timeline}
	if timeline && model == nil {
		// Without a model a timeline quotes one sentence per session: it
		// may read more sessions than a model is shown.
		aopts.More = answer.TimelineFull - answer.DefaultFull
	}
	ev := assemble(a.Candidates, notes, aopts)
	if a.Memory, err = e.answerMemory(ctx, &ev, a.Query, a.Lang, terms); err != nil {
		return nil, err
	}
	a.Context, a.Evidence = ev.info(), ev.delivered()

	stage = time.Now()
	if opts.OnVerified != nil {
		opts.OnDelta = verifyAsItGoes(opts.OnDelta, opts.OnVerified, ev.evidence, ev.byChunk, a.Lang)
	}
	draft, err := e.draft(ctx, modelCtx, a, model, ev.evidence, conv.History, opts, terms, timeline)
	if err != nil {
		return nil, err
	}
	if len(hits) == 0 {
		// An index with no note the asker may see answers nothing: say
		// so, rather than that the notes do not mention the question.
		empty, err := e.noNotes(ctx)
		if err != nil {
			return nil, err
		}
		if empty {
			draft = answer.Draft{NoNotes: true, Owner: !isPlayer(ctx)}
		}
	}
	a.Timings.since("answer", stage)

	stage = time.Now()
	a.verified(answer.Judge(question, draft, ev.evidence, terms, a.Lang), ev.byChunk)
	a.Timings.since("verify", stage)
	a.Timings.since("total", start)
	return a, nil
}

// newAnswer is the empty answer to question, in lang or else in the
// question's language, with every list of the JSON present.
func newAnswer(question, lang string) *Answer {
	if lang == "" {
		lang = analysis.QuestionLang(question)
	}
	return &Answer{Question: question, Lang: lang, Timings: Timings{}, Citations: []Citation{}, Removed: []Citation{}, Uncited: []string{}, Segments: []Segment{}, Evidence: []Evidence{}, Memory: []MemoryUse{}}
}

// converse reads the question in the light of the conversation's earlier
// turns (see answer.Converse): what to search, and the history the model
// sees.
func (e *Engine) converse(ctx context.Context, question string, history []Turn) (answer.Conversation, error) {
	names, err := e.namesSomeone(ctx)
	if err != nil {
		return answer.Conversation{}, err
	}
	turns := make([]answer.Turn, len(history))
	for i, t := range history {
		turns[i] = answer.Turn(t)
	}
	return answer.Converse(question, turns, names), nil
}

// retrieve searches a's query: analysis, filter, the retrieval paths and
// fusion (see [Engine.Search]), with what was understood of it in
// a.Analysis. An index not yet built yields no hits.
func (e *Engine) retrieve(ctx context.Context, a *Answer, opts AskOptions) ([]Hit, error) {
	n := opts.Candidates
	if n <= 0 {
		n = DefaultCandidates
	}
	hits, err := e.Search(ctx, a.Query, SearchOptions{K: n, Paths: opts.Paths, Filter: opts.Filter, Analysis: &a.Analysis})
	if err != nil && !errors.Is(err, ErrNotIndexed) {
		return nil, err
	}
	if a.Analysis.Unfiltered {
		a.warn(e, "nothing in the sessions the question names (%s) matches it: every note was searched", a.Analysis.Said)
	}
	return hits, nil
}

// annotations returns the cached annotations of the hits' chunks, made by
// model: what the reranker and the summaries read. None without a model.
func (e *Engine) annotations(ctx context.Context, model chat.Model, hits []Hit) (map[int64]string, error) {
	if model == nil || len(hits) == 0 {
		return map[int64]string{}, nil
	}
	ids := make([]int64, len(hits))
	for i, h := range hits {
		ids[i] = h.chunk
	}
	return e.idx.Annotations(ctx, model.ID(), e.annotationPrompt(), ids)
}

// rerank reorders the candidates with the engine's reranker: the one set
// with SetReranker, else the chat model's, else none (fused order).
func (e *Engine) rerank(ctx context.Context, model chat.Model, question string, hits []Hit, notes map[int64]string) ([]Hit, RerankInfo) {
	e.mu.Lock()
	r := e.reranker
	e.mu.Unlock()
	if r == nil && model != nil {
		r = &rerank.LLM{Model: model, Lang: analysis.QuestionLang(question)}
	}
	if r == nil {
		return hits, RerankInfo{Reranker: "none", Fallback: "no chat model"}
	}
	cands := make([]rerank.Candidate, len(hits))
	for i, h := range hits {
		cands[i] = rerank.Candidate{ID: h.chunk, Label: h.Label, Annotation: notes[h.chunk], Text: h.Text}
	}
	res := r.Rerank(ctx, question, cands, answer.DefaultFull)
	order, fallback := rerank.Positions(cands, res.Order)
	if fallback != "" {
		return hits, RerankInfo{Reranker: r.Name(), Fallback: fallback}
	}
	out := make([]Hit, len(order))
	for i, p := range order {
		out[i] = hits[p]
		out[i].Rank = i + 1
	}
	return out, RerankInfo{Reranker: r.Name(), Reranked: res.Reranked, Fallback: res.Fallback}
}

// assembled is the evidence the model is shown, with the hits it was
// taken from.
type assembled struct {
	evidence answer.Context
	byChunk  map[int64]Hit
}

// assemble chooses the evidence from the reranked hits (see
// answer.Assemble with aopts).
func assemble(hits []Hit, notes map[int64]string, aopts answer.AssembleOptions) assembled {
	cands := make([]answer.Candidate, len(hits))
	byChunk := make(map[int64]Hit, len(hits))
	for i, h := range hits {
		byChunk[h.chunk] = h
		// The evidence is the notes as their reader sees them (wikilinks as
		// their shown text, no highlight or footnote marks): what the model
		// reads, what an answer quotes and what Evidence shows.
		c := answer.Candidate{ID: h.chunk, Label: h.Label, File: h.File, Title: h.Title, Headings: h.Headings,
			Text: text.Render(h.Text), Annotation: text.Render(notes[h.chunk]), Passage: text.Render(h.Passage)}
		if h.Session != nil {
			c.Session, c.InSession = *h.Session, true
		}
		cands[i] = c
	}
	ctxt := answer.Assemble(cands, aopts)
	return assembled{evidence: ctxt, byChunk: byChunk}
}

// info sizes the evidence.
func (ev assembled) info() ContextInfo {
	return ContextInfo{Full: len(ev.evidence.Full), Summaries: len(ev.evidence.Summaries), Memory: len(ev.evidence.Memory), Words: ev.evidence.Words}
}

// delivered is the evidence in its public shape: full chunks, then
// summaries.
func (ev assembled) delivered() []Evidence {
	out := []Evidence{}
	for _, it := range ev.evidence.Items() {
		out = append(out, Evidence{ID: ev.byChunk[it.ID].ID, Label: it.Label, File: it.File, Kind: it.Kind, Text: it.Text})
	}
	return out
}

// draft writes the answer to verify: generated by model, within
// modelCtx, when there is one and full evidence to show it, else (or when
// the model fails) extracted from the evidence. It sets a's Mode and
// Model.
func (e *Engine) draft(ctx, modelCtx context.Context, a *Answer, model chat.Model, evidence answer.Context, history []answer.Message, opts AskOptions, terms func(string) []string, timeline bool) (answer.Draft, error) {
	if model != nil && len(evidence.Full)+len(evidence.Memory) > 0 {
		text, err := generate(modelCtx, model, a.Lang, a.Question, evidence, history, opts)
		if err == nil {
			a.Mode, a.Model = "generated", model.ID()
			return answer.Draft{Text: text}, nil
		}
		if ctx.Err() != nil {
			return answer.Draft{}, ctx.Err()
		}
		a.fellBack(e, err)
	}
	a.Mode = "extractive"
	return e.extract(ctx, a.Question, evidence, terms, a.Lang, timeline)
}

// generate asks the chat model to answer from the evidence under the
// citation rule (see answer.Prompt), streaming to opts.OnDelta.
func generate(ctx context.Context, model chat.Model, lang, question string, evidence answer.Context, history []answer.Message, opts AskOptions) (string, error) {
	req := chat.Request{Messages: chatMessages(answer.Prompt(lang, question, evidence, history)), OnThinking: opts.OnThinking}
	return model.Chat(ctx, req, opts.OnDelta)
}

// verifyAsItGoes returns the OnDelta that passes each delta on to
// onDelta and, once a sentence is complete, the verified text so far,
// marked in lang, to onVerified, from the first valid citation on (see
// [AskOptions.OnVerified]).
func verifyAsItGoes(onDelta func(string), onVerified func([]Segment), evidence answer.Context, byChunk map[int64]Hit, lang string) func(string) {
	var raw strings.Builder
	done, valid := 0, false
	return func(delta string) {
		if onDelta != nil {
			onDelta(delta)
		}
		raw.WriteString(delta)
		text := raw.String()
		n := answer.Settled(text)
		// Each check reads the whole text so far: past a few pages it waits
		// for the text to grow by a quarter, so that a long answer costs a
		// few checks of its length, not one per sentence.
		if n <= done || (done > verifyEveryBytes && n-done < done/4) {
			return
		}
		v := answer.CheckSettled(text, evidence, lang)
		for _, c := range v.Citations {
			valid = valid || c.Valid
		}
		if !valid {
			return
		}
		done = n
		onVerified(segments(v.Segments, byChunk))
	}
}

// verifyEveryBytes is how long a streamed answer may grow before its
// verified text is shown a batch of sentences at a time (see
// verifyAsItGoes).
const verifyEveryBytes = 4096

// chatMessages converts a prompt to the chat client's messages.
func chatMessages(msgs []answer.Message) []chat.Message {
	out := make([]chat.Message, len(msgs))
	for i, m := range msgs {
		out[i] = chat.Message{Role: m.Role, Content: m.Content}
	}
	return out
}

// extract answers without a model (see answer.ExtractWith), as a timeline
// when timeline, looking up in the index which of the question's names
// the notes the asker may see use (or an inflection of: see
// [Engine.termOrKinUsed]).
func (e *Engine) extract(ctx context.Context, question string, evidence answer.Context, terms func(string) []string, lang string, timeline bool) (answer.Draft, error) {
	var err error
	d := answer.ExtractWith(question, evidence, terms, lang, func(t string) bool {
		used, lookupErr := e.termOrKinUsed(ctx, t)
		if lookupErr != nil {
			err = lookupErr
			return true
		}
		return used
	}, answer.ExtractOptions{Timeline: timeline})
	return d, err
}

// termPrefixUser is a store that can tell whether a term starting with a
// prefix occurs in the notes (the SQLite index can).
type termPrefixUser interface {
	TermPrefixUsed(ctx context.Context, prefix string, public bool) (bool, error)
}

// termOrKinUsed reports whether an analysed term, or one that shares the
// start of its stem (all but its last two letters, at least four: its
// inflections), occurs in a note the asker may see. A player's lookup
// never counts a DM-only note: such a word reads as absent either way.
func (e *Engine) termOrKinUsed(ctx context.Context, term string) (bool, error) {
	public := isPlayer(ctx)
	used, err := e.idx.TermUsed(ctx, term, public)
	if err != nil || used {
		return used, err
	}
	p, ok := e.idx.(termPrefixUser)
	if !ok {
		return false, nil
	}
	r := []rune(term)
	if len(r) < 4 {
		return false, nil
	}
	return p.TermPrefixUsed(ctx, string(r[:max(4, len(r)-2)]), public)
}

// noNotes reports whether the index holds no note the asker may see.
func (e *Engine) noNotes(ctx context.Context) (bool, error) {
	n, err := e.idx.Units(ctx, isPlayer(ctx))
	if err != nil {
		return false, fmt.Errorf("counting the notes: %w", err)
	}
	return n == 0, nil
}

// verified puts the verdict on the answer's text into a, resolving each
// citation to the public id of the chunk it names.
func (a *Answer) verified(v answer.Verdict, byChunk map[int64]Hit) {
	a.Answer, a.Grounding, a.Abstained = v.Text, v.Grounding, v.Abstained
	a.Sentences, a.SupportedSentences = v.Sentences, v.Supported
	a.Segments = segments(v.Segments, byChunk)
	for _, c := range v.Citations {
		a.Citations = append(a.Citations, citation(c, byChunk))
	}
	for _, c := range v.Removed {
		a.Removed = append(a.Removed, citation(c, byChunk))
	}
	if v.Uncited != nil {
		a.Uncited = v.Uncited
	}
}

// CitedEvidence returns the delivered evidence the answer's valid
// citations name, each once, in the order of its first citation: the
// answer's sources.
func (a *Answer) CitedEvidence() []Evidence {
	byID := make(map[string]Evidence, len(a.Evidence))
	for _, ev := range a.Evidence {
		byID[ev.ID] = ev
	}
	seen := map[string]bool{}
	var out []Evidence
	for _, c := range a.Citations {
		if !c.Valid || c.Evidence == nil || seen[*c.Evidence] {
			continue
		}
		seen[*c.Evidence] = true
		if ev, ok := byID[*c.Evidence]; ok {
			out = append(out, ev)
		}
	}
	return out
}

func (a *Answer) warn(e *Engine, format string, args ...any) {
	s := fmt.Sprintf(format, args...)
	a.Warnings = append(a.Warnings, s)
	e.warn("%s", s)
}

// citation turns a verified citation into the public shape.
func citation(c answer.Citation, byChunk map[int64]Hit) Citation {
	out := Citation{Label: c.Label, Kind: c.Kind, Delivered: c.Delivered, Valid: c.Valid}
	if c.Evidence != nil {
		if h, ok := byChunk[*c.Evidence]; ok {
			id := h.ID
			out.Evidence = &id
		}
	}
	return out
}

// SegmentsText is the text segs make together: the verified text so far
// that [AskOptions.OnVerified] is given, marks included.
func SegmentsText(segs []Segment) string {
	var b strings.Builder
	for _, s := range segs {
		b.WriteString(s.Text)
	}
	return b.String()
}

// segments turns the segments of a verified text into the public shape.
func segments(segs []answer.Segment, byChunk map[int64]Hit) []Segment {
	out := make([]Segment, 0, len(segs))
	for _, s := range segs {
		p := Segment{Text: s.Text, Supported: s.Supported, Mark: s.Mark}
		for _, c := range s.Citations {
			p.Citations = append(p.Citations, citation(c, byChunk))
		}
		out = append(out, p)
	}
	return out
}

// namesSomeone reports whether a question names an entity of the
// compendium (for the follow-up rule: a name makes a question stand
// alone); nil when the compendium is empty, so the rule's own fallback
// (a capitalised word) applies.
func (e *Engine) namesSomeone(ctx context.Context) (func(string) bool, error) {
	st, err := e.entityIndex(ctx)
	if err != nil || st == nil || st.Matcher == nil || len(st.Entities) == 0 {
		return nil, err
	}
	return func(q string) bool { return len(st.Matcher.Find(q)) > 0 }, nil
}

// annotationPrompt is the version key of annotations: the prompt's
// version and the notes' language.
func (e *Engine) annotationPrompt() string {
	// The notes' one language, or the main one (Spanish) when each note's
	// is recognised: annotations made before keep their key.
	e.mu.Lock()
	defer e.mu.Unlock()
	return answer.AnnotationPromptVersion + "-" + e.analyzer.Lang()
}
