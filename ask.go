package oraculo

import (
	"cmp"
	"context"
	"errors"
	"strings"
	"time"

	"github.com/oraculo/oraculo/analysis"
	"github.com/oraculo/oraculo/answer"
	"github.com/oraculo/oraculo/chat"
	"github.com/oraculo/oraculo/rerank"
	"github.com/oraculo/oraculo/retrieve"
	"github.com/oraculo/oraculo/snapshot"
	"github.com/oraculo/oraculo/story"
)

// DefaultCandidates is how many fused candidates Ask hands to the
// reranker (seed 000: at most 40).
const DefaultCandidates = 40

// Turn is one earlier exchange of a conversation (see [answer.Turn]).
type Turn = answer.Turn

// AskOptions tune [Engine.Ask] (see [answer.AskOptions]).
type AskOptions = answer.AskOptions

// Answer is what Ask returns (see [answer.Answer]). Its JSON shape is
// public (`ask --json`).
type Answer = answer.Answer

// Citation is one citation of an answer.
type Citation = answer.PublicCitation

// Segment is one part of an Answer's text.
type Segment = answer.PublicSegment

// Evidence is one item delivered to the model.
type Evidence = answer.Evidence

// RerankInfo says how the candidates were reordered.
type RerankInfo = rerank.Info

// ContextInfo sizes what the model was shown.
type ContextInfo = answer.ContextInfo

// Timings are milliseconds per stage.
type Timings = answer.Timings

// Usage is the tokens of an answer's chat-model calls (see
// [answer.Usage]).
type Usage = answer.Usage

// Sources of an answer's Usage (see [answer.UsageModel]).
const (
	UsageModel    = answer.UsageModel
	UsageEstimate = answer.UsageEstimate
	UsageNone     = answer.UsageNone
)

// Ask answers a question from the notes: search, rerank, assemble the
// evidence, generate (or extract) an answer, and verify its citations.
// It fails only when the index cannot be read; a chat model that is
// missing or unreachable yields an extractive answer and a warning.
func (e *Engine) Ask(ctx context.Context, question string, opts AskOptions) (*Answer, error) {
	start := time.Now()
	vw, a, history, err := e.begin(ctx, question, &opts)
	if err != nil {
		return nil, err
	}
	terms := vw.QuestionAnalyzer(a.Question).Terms
	if err := e.candidates(ctx, vw, a, opts); err != nil {
		return nil, err
	}
	model, modelCtx, cancel := e.answerModel(ctx, opts)
	defer cancel()
	var meter *chat.Meter
	if model != nil {
		meter = chat.NewMeter(model)
		model = meter
	}
	notes, err := e.reranked(ctx, modelCtx, a, model)
	if err == nil {
		err = e.arc(ctx, a)
	}
	if err != nil {
		return nil, err
	}
	ev, err := e.evidence(ctx, vw, a, notes, terms, model == nil)
	if err != nil {
		return nil, err
	}
	d, err := e.draft(ctx, modelCtx, a, ev, model, history, opts, terms)
	if err != nil {
		return nil, err
	}
	a.Verify(d, ev, terms)
	if meter != nil {
		a.Usage = answer.UsageOf(meter.Total())
	}
	a.Timings.Since("total", start)
	return a, nil
}

// begin opens the answer to question: the snapshot it is read from, the
// empty answer, and the history the model sees (see [Engine.converse]).
func (e *Engine) begin(ctx context.Context, question string, opts *AskOptions) (*snapshot.Snapshot, *Answer, []answer.Message, error) {
	question = strings.TrimSpace(question)
	if question == "" {
		return nil, nil, nil, errors.New("empty question")
	}
	vw, err := e.snapshot(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	a := answer.NewAnswer(question, opts.Lang)
	history, err := e.converse(ctx, vw, a, opts)
	return vw, a, history, err
}

// converse reads a's question in the light of the conversation's earlier
// turns (see answer.Converse): what to search goes to a.Query, and it
// returns the history the model sees. A name of the compendium makes a
// question stand alone. A question that asks what happened next searches
// the sessions after those the previous answer cited (see
// answer.Conversation.After), unless opts name sessions.
func (e *Engine) converse(ctx context.Context, vw *snapshot.Snapshot, a *Answer, opts *AskOptions) ([]answer.Message, error) {
	st, err := vw.Entities(ctx, isPlayer(ctx))
	if err != nil {
		return nil, err
	}
	var names func(string) bool
	if st != nil {
		names = answer.NamesSomeone(st.Matcher, len(st.Entities))
	}
	conv := answer.Converse(a.Question, opts.History, names)
	a.Query, a.FollowUp = conv.Query, conv.FollowUp
	if !conv.Continues || len(opts.Filter.Sessions) > 0 {
		return conv.History, nil
	}
	known, err := vw.Sessions(ctx, isPlayer(ctx))
	if last, after, ok := conv.After(known); ok && len(after) > 0 {
		a.After, opts.Filter.Sessions = &last, after
	} else if ok {
		e.warnOn(a, "no session after session %d: every note was searched", last)
	}
	return conv.History, err
}

// candidates searches a's query (analysis, filter, the retrieval paths
// and fusion: see [Engine.Find]) for its candidates in fused order, into
// a.Fused, with what was understood of it in a.Analysis; it is timed as
// the stage "search". An index not yet built yields none.
func (e *Engine) candidates(ctx context.Context, v *snapshot.Snapshot, a *Answer, opts AskOptions) error {
	defer a.Timings.Since("search", time.Now())
	n := cmp.Or(max(opts.Candidates, 0), DefaultCandidates)
	r, err := e.searchAt(ctx, v, a.Query, SearchOptions{K: n, Paths: opts.Paths, Filter: opts.Filter})
	if r.Analysis.Kind != "" {
		a.Analysis = r.Analysis
	}
	if err != nil && !errors.Is(err, ErrNotIndexed) {
		return err
	}
	if a.Analysis.Unfiltered {
		e.warnOn(a, "nothing in the sessions the question names (%s) matches it: every note was searched", a.Analysis.Said)
	}
	a.Fused = r.Hits
	return e.recapped(ctx, v, a)
}

// arc adds to the candidates of a history of an entity the question
// names the sessions of its timeline that search did not find (see
// answer.WithTimeline), as the asker may read them, when the timeline
// fits an answer: an entity named in most sessions (a player's
// character) is told by the sessions the question's words find.
func (e *Engine) arc(ctx context.Context, a *Answer) error {
	if !a.Timeline() || a.After != nil || len(a.Analysis.Entities) == 0 {
		return nil
	}
	t, err := e.Timeline(ctx, a.Analysis.Entities[0])
	if errors.Is(err, story.ErrUnknownEntity) {
		return nil
	}
	if err != nil || len(t.Sessions) > answer.TimelineSentences {
		return err
	}
	hits, err := e.storyHits(ctx, answer.TimelineChunks(t), "timeline")
	if err == nil {
		a.Candidates, a.Moments = answer.WithTimeline(a.Candidates, hits), answer.TimelineMoments(t)
	}
	return err
}

// recapped makes the candidates of a question that asks for one session
// told in short (see answer.AsksForRecap) that session's chunks in
// order, and its recap's events what an extractive answer tells.
func (e *Engine) recapped(ctx context.Context, v *snapshot.Snapshot, a *Answer) error {
	known := func() ([]int, error) { return v.Sessions(ctx, isPlayer(ctx)) }
	n, ok, err := answer.AsksForRecapLazily(a.Question, known)
	if err != nil || !ok || a.FollowUp {
		return err
	}
	r, err := e.Recap(ctx, n)
	if errors.Is(err, story.ErrNoSession) {
		return nil
	}
	if err != nil {
		return err
	}
	hits, err := e.storyHits(ctx, r.ChunkIDs, "recap")
	if err == nil && len(hits) > 0 {
		a.Fused, a.Told = hits, r.Events
	}
	return err
}

// storyHits are the chunks ids, in order, as hits the asker may read
// (none of a DM-only note for a player), found by path.
func (e *Engine) storyHits(ctx context.Context, ids []int64, path string) ([]Hit, error) {
	chunks, err := e.idx.Chunks(ctx, ids)
	if err != nil {
		return nil, err
	}
	redact, err := e.askerRedactor(ctx)
	if err != nil {
		return nil, err
	}
	hits := make([]Hit, 0, len(chunks))
	for _, c := range chunks {
		if !c.Restricted || !isPlayer(ctx) {
			hits = append(hits, retrieve.HitFrom(c, len(hits)+1, 0, map[string]int{path: 1}))
		}
	}
	retrieve.Redact(hits, redact)
	return hits, nil
}

// annotations returns the cached annotations of the hits' chunks, made by
// model: what the reranker and the summaries read. None without a model.
func (e *Engine) annotations(ctx context.Context, model chat.Model, hits []Hit) (map[int64]string, error) {
	if model == nil || len(hits) == 0 {
		return map[int64]string{}, nil
	}
	return e.idx.Annotations(ctx, model.ID(), e.annotationPrompt(), retrieve.Chunks(hits))
}

// answerModel returns the chat model that reranks the candidates and
// writes the answer, none when opts.Extractive, and the context in which
// it does: its calls end before ctx does, since an answer is due either
// way (see answer.ModelBudget).
func (e *Engine) answerModel(ctx context.Context, opts AskOptions) (chat.Model, context.Context, context.CancelFunc) {
	model := e.ChatModel()
	if opts.Extractive {
		model = nil
	}
	modelCtx, cancel := answer.ModelBudget(ctx)
	return model, modelCtx, cancel
}

// reranked reads the annotations of a's candidates made by model and
// reranks the candidates, within modelCtx, into a.Candidates and a.Rerank
// with the engine's reranker (see rerank.Choose, rerank.Reorder), timed
// as the stage "rerank"; it returns the annotations.
func (e *Engine) reranked(ctx, modelCtx context.Context, a *Answer, model chat.Model) (map[int64]string, error) {
	stage := time.Now()
	notes, err := e.annotations(ctx, model, a.Fused)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	r := rerank.Choose(e.reranker, model, analysis.QuestionLang(a.Question))
	e.mu.Unlock()
	a.Candidates, a.Rerank = rerank.Reorder(modelCtx, r, a.Question, a.Fused, notes, answer.DefaultFull)
	a.Timings.Since("rerank", stage)
	return notes, nil
}

// evidence chooses the evidence from a's reranked candidates and adds the
// memory the asker may see (see answer.Deliver, [Engine.answerMemory]):
// more of it for a timeline when no model writes the answer (extractive).
// It sets a's Memory, Context and Evidence.
func (e *Engine) evidence(ctx context.Context, vw *snapshot.Snapshot, a *Answer, notes map[int64]string, terms func(string) []string, extractive bool) (*answer.Delivery, error) {
	ev := answer.Deliver(a.Candidates, notes, a.DeliverOptions(extractive))
	var err error
	if a.Memory, err = e.answerMemory(ctx, vw, ev, a.Query, a.Lang, terms); err != nil {
		return nil, err
	}
	a.Context, a.Evidence = ev.Info(), ev.Evidence()
	return ev, nil
}

// draft writes the answer to verify from the evidence (see answer.Write):
// generated by model, within modelCtx, or extracted, looking up in the
// index what the notes the asker may see hold. It sets a's Mode and Model,
// and says so when the model failed; it is timed as the stage "answer".
func (e *Engine) draft(ctx, modelCtx context.Context, a *Answer, ev *answer.Delivery, model chat.Model, history []answer.Message, opts AskOptions, terms func(string) []string) (answer.Draft, error) {
	stage := time.Now()
	w, err := answer.Write(ctx, modelCtx, ev, answer.DraftOptions{
		Question: a.Question, Lang: a.Lang, Model: model, History: history, Terms: terms, Timeline: a.Timeline(), Subject: a.Subject(), Moments: a.Moments, Told: a.Told,
		State: a.Analysis.State, Session: answer.SessionsOf(a.Candidates),
		Notes: e.idx, Public: isPlayer(ctx), Found: len(a.Fused) > 0,
		OnDelta: opts.OnDelta, OnThinking: opts.OnThinking, OnVerified: opts.OnVerified,
	})
	a.Mode, a.Model = w.Mode, w.Model
	if w.Failed != nil {
		e.warn("%s", a.ModelFailed(w.Failed))
	}
	a.Timings.Since("answer", stage)
	return w.Draft, err
}

// SegmentsText is the text segs make together: the verified text so far
// that [AskOptions.OnVerified] is given, marks included.
func SegmentsText(segs []Segment) string { return answer.SegmentsText(segs) }

// annotationPrompt is the version key of annotations (see
// answer.AnnotationKey).
func (e *Engine) annotationPrompt() string {
	// The notes' one language, or the main one (Spanish) when each note's
	// is recognised: annotations made before keep their key.
	e.mu.Lock()
	defer e.mu.Unlock()
	return answer.AnnotationKey(e.analyzer.Lang())
}

// warnOn adds a warning to a and gives it to the warning sink.
func (e *Engine) warnOn(a *Answer, format string, args ...any) {
	e.warn("%s", a.Warn(format, args...))
}
