package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/internal/termrender"
	"github.com/oraculo/oraculo/link"
)

// chatFlags adds the chat model's flags; the returned function gives the
// config from flags, then environment (empty: the index's own).
func chatFlags(fs *flag.FlagSet) func() oraculo.ChatConfig {
	provider := fs.String("chat", "", "chat model provider for annotations, reranking and answers: ollama, openai or none (default: $ORACULO_CHAT, else the index's)")
	model := fs.String("chat-model", "", "chat model (default: $ORACULO_CHAT_MODEL; qwen2.5:7b for ollama)")
	url := fs.String("chat-url", "", "chat server base URL (default: $ORACULO_CHAT_URL; ollama: $OLLAMA_HOST or http://127.0.0.1:11434)")
	timeout := fs.Duration("chat-timeout", 0, "longest wait for one answer, however fast the model writes (default: $ORACULO_CHAT_TIMEOUT, else 2m)")
	firstToken := fs.Duration("chat-first-token-timeout", 0, "longest wait for the model to start its answer; past it the answer is extracted from the notes (default: $ORACULO_CHAT_FIRST_TOKEN_TIMEOUT, else 30s)")
	idle := fs.Duration("chat-idle-timeout", 0, "longest silence of the model inside its answer; past it the answer is extracted from the notes (default: $ORACULO_CHAT_IDLE_TIMEOUT, else 15s)")
	return func() oraculo.ChatConfig {
		c := oraculo.ChatConfigFromEnv()
		if *provider != "" {
			c.Provider, c.Model, c.URL = strings.ToLower(*provider), "", ""
		}
		if *model != "" {
			c.Model = *model
		}
		if *url != "" {
			c.URL = *url
		}
		for _, f := range []struct{ flag, dst *time.Duration }{{timeout, &c.Timeout}, {firstToken, &c.FirstTokenTimeout}, {idle, &c.IdleTimeout}} {
			if *f.flag != 0 {
				*f.dst = *f.flag
			}
		}
		return c
	}
}

// askFlags are the flags ask and chat share.
type askFlags struct {
	index      *indexFlags
	candidates *int
	paths      *string
	answerLang *string
	extractive *bool
	models     *modelFlags
	filter     func() (oraculo.Filter, error)
	parsed     oraculo.Filter
}

// modelFlags are the model flags of the commands that answer (ask, chat,
// eval, serve, mcp): embedder, chat model and reranker, each a function
// that gives the config from flags, then environment.
type modelFlags struct {
	embedder func() oraculo.EmbedderConfig
	chat     func() oraculo.ChatConfig
	rerank   func() oraculo.RerankConfig
}

func newModelFlags(fs *flag.FlagSet) *modelFlags {
	return &modelFlags{embedder: embedderFlags(fs), chat: chatFlags(fs), rerank: rerankFlags(fs)}
}

// warnTo prints the engine's warnings on w, in the interface language
// when they are ones it knows.
func warnTo(w io.Writer) func(string) {
	return func(s string) { fmt.Fprintln(w, msg("warning", engineText(s))) }
}

func newAskFlags(name string, stderr io.Writer) (*flag.FlagSet, *askFlags) {
	fs, ix := newIndexFlags(name, stderr)
	f := &askFlags{index: ix}
	f.candidates = fs.Int("k", oraculo.DefaultCandidates, "how many fused candidates the reranker sees")
	f.paths = fs.String("paths", "", "retrieval paths, comma-separated: bm25, dense, entity (default: all available)")
	f.answerLang = fs.String("lang", "", "language of the answer: es or en (default: the question's)")
	f.extractive = fs.Bool("extractive", false, "answer with the notes' own sentences, without the chat model")
	f.filter = filterFlags(fs)
	f.models = newModelFlags(fs)
	return fs, f
}

// rerankFlags adds the reranker's flags over the environment's config.
func rerankFlags(fs *flag.FlagSet) func() oraculo.RerankConfig {
	kind := fs.String("rerank", "", "reranker: auto (the chat model's), llm, cross or none (default: $ORACULO_RERANK, else auto)")
	url := fs.String("rerank-url", "", "cross-encoder server (default: $ORACULO_RERANK_URL), e.g. http://127.0.0.1:8082")
	model := fs.String("rerank-model", "", "cross-encoder model name (default: $ORACULO_RERANK_MODEL)")
	shape := fs.String("rerank-shape", "", "cross-encoder API: jina (/v1/rerank: llama.cpp, Jina, Cohere-like) or tei (Hugging Face TEI /rerank)")
	budget := fs.Duration("rerank-budget", 0, "cross-encoder latency budget; sets how many candidates it scores (default 2s)")
	return func() oraculo.RerankConfig {
		c := oraculo.RerankConfigFromEnv()
		for dst, v := range map[*string]string{&c.Kind: strings.ToLower(*kind), &c.URL: *url, &c.Model: *model, &c.Shape: strings.ToLower(*shape)} {
			if v != "" {
				*dst = v
			}
		}
		c.Budget = *budget
		return c
	}
}

// open opens the index with the dense path and the chat model wired.
func (f *askFlags) open(ctx context.Context, stderr io.Writer) (*oraculo.Engine, error) {
	if *f.candidates < 1 {
		return nil, usageError{errors.New(msg("bad-k"))}
	}
	if l := *f.answerLang; l != "" && l != "es" && l != "en" {
		return nil, usageError{errors.New(msg("bad-answer-lang", l))}
	}
	var err error
	if f.parsed, err = f.filter(); err != nil {
		return nil, err
	}
	return f.models.open(ctx, f.index, warnTo(stderr))
}

// open opens an existing index for the commands that answer (ask, chat,
// serve, mcp): the dense path, the chat model and the reranker wired,
// warnings (a missing chat model among them) sent to warn.
func (m *modelFlags) open(ctx context.Context, ix *indexFlags, warn func(string)) (*oraculo.Engine, error) {
	cc := m.chat()
	if _, err := oraculo.NewChat(cc); err != nil {
		return nil, usageError{err}
	}
	eng, err := ix.open(ctx, true, oraculo.WithWarnings(warn),
		oraculo.WithEmbedder(m.embedder()), oraculo.WithChat(cc), oraculo.WithReranker(m.rerank()))
	if err != nil {
		return nil, err
	}
	if eng.ChatModel() == nil {
		warn(msg("no-chat-model"))
	}
	return eng, nil
}

func (f *askFlags) options(history []oraculo.Turn) oraculo.AskOptions {
	o := oraculo.AskOptions{Candidates: *f.candidates, Lang: *f.answerLang, Extractive: *f.extractive, History: history, Filter: f.parsed}
	if *f.paths != "" {
		o.Paths = strings.Split(*f.paths, ",")
	}
	return o
}

// askCommandFlags are ask's flags: those it shares with chat, and how it
// prints the answer.
type askCommandFlags struct {
	*askFlags
	asJSON        *bool
	publicURL     *string
	obsidianVault *string
}

func newAskCommandFlags(name string, stderr io.Writer) (*flag.FlagSet, *askCommandFlags) {
	fs, af := newAskFlags(name, stderr)
	f := &askCommandFlags{askFlags: af}
	f.asJSON = fs.Bool("json", false, "print the answer as one JSON object")
	f.publicURL = fs.String("public-url", "http://127.0.0.1:8080", `where the links in --json's "markdown" point: the address oraculo serve answers at for this index`)
	f.obsidianVault = fs.String("obsidian-vault", "", `the name of the Obsidian vault that holds the notes: --json's "markdown" also links each source to its note there`)
	return fs, f
}

// cmdAsk answers the question in words.
func cmdAsk(ctx context.Context, f *askCommandFlags, words []string, s stdio) error {
	question := strings.TrimSpace(strings.Join(words, " "))
	if question == "" {
		return usageError{errors.New(msg("ask-no-question"))}
	}
	eng, err := f.open(ctx, s.err)
	if err != nil {
		return err
	}
	defer eng.Close()
	opts := f.options(nil)
	var shown verifiedText
	if !*f.asJSON && isTerminal(s.out) {
		opts.OnVerified = shown.printTo(s.out, nil)
		opts.OnThinking = thinkingNote(s.err, &shown.streamed)
	}
	a, err := eng.Ask(ctx, question, opts)
	if err != nil {
		return err
	}
	if *f.asJSON {
		return writeJSON(s.out, askJSON{Answer: a, Markdown: renderedAnswer(ctx, eng, a, f.index, *f.publicURL, *f.obsidianVault, s.err)})
	}
	printAnswer(s.out, a, shown)
	return nil
}

// verifiedText is what a terminal was shown of an answer as it streamed:
// only its verified text, a sentence at a time (see
// oraculo.AskOptions.OnVerified), never the raw generation.
type verifiedText struct {
	sent     string
	streamed bool
	// live is set once the answer is streamed to the terminal: a
	// fallback to the extractive answer is then said, as the reader
	// waited for the model.
	live bool
}

// printTo returns the OnVerified that prints to w what is new in the
// verified text, while ok (when set) says so.
func (v *verifiedText) printTo(w io.Writer, ok func() bool) func([]oraculo.Segment) {
	v.live = true
	return func(segs []oraculo.Segment) {
		if ok != nil && !ok() {
			return
		}
		text := oraculo.SegmentsText(segs)
		if rest, found := strings.CutPrefix(text, v.sent); found && rest != "" {
			fmt.Fprint(w, termrender.EscapeText(rest))
			v.sent, v.streamed = text, true
		}
	}
}

// askJSON is what ask --json prints: the Answer, and Markdown, its text
// as a chat front end would show it.
type askJSON struct {
	*oraculo.Answer
	// Markdown is the verified answer with each citation a link to its
	// passage on the server that serves the index, and the list of sources.
	Markdown string `json:"markdown"`
}

// renderedAnswer is a as Markdown with its citations links to the pages of
// their passages at base, and the names its notes write as wikilinks
// links to the pages of those notes, signed with the index's link key
// (the one serve uses); without a key to sign with, the plain verified
// text.
func renderedAnswer(ctx context.Context, eng *oraculo.Engine, a *oraculo.Answer, ix *indexFlags, base, vault string, stderr io.Writer) string {
	key, err := ix.linkKey(ctx)
	if err != nil {
		fmt.Fprintln(stderr, msg("warning", engineText(err.Error())))
		return a.Answer
	}
	notes, err := eng.NoteLinks(ctx, a)
	if err != nil {
		// Only the links to notes are lost.
		fmt.Fprintln(stderr, msg("warning", engineText(err.Error())))
	}
	m := &link.Maker{Key: key, Base: base, ObsidianVault: vault}
	return m.AnswerNotes(ctx, a, m.Sources(ctx, a), notes)
}

// thinkingNote returns an AskOptions.OnThinking that says on w that the
// model is thinking, on a line of its own: only before the answer has
// begun to stream (*streamed), so that a streamed answer is not cut.
func thinkingNote(w io.Writer, streamed *bool) func() {
	return func() {
		if !*streamed {
			fmt.Fprintln(w, msg("ask-thinking"))
		}
	}
}

// printAnswer writes an answer for people: the verified text (its end
// when the start was streamed already), what verification changed, and
// the sources.
func printAnswer(w io.Writer, a *oraculo.Answer, shown verifiedText) []oraculo.Evidence {
	printAnswerText(w, a, shown)
	if a.FollowUp {
		fmt.Fprintln(w, msg("ask-query", termrender.Escape(a.Query)))
	}
	if len(a.Removed) > 0 {
		labels := make([]string, len(a.Removed))
		for i, c := range a.Removed {
			labels[i] = "[" + termrender.Escape(c.Label) + "]"
		}
		fmt.Fprintln(w, msg("ask-removed", strings.Join(labels, " ")))
	}
	if a.SupportedSentences < a.Sentences && !a.Abstained {
		fmt.Fprintln(w, msg("ask-unsupported", a.SupportedSentences, a.Sentences, strings.Trim(oraculo.Unsupported(a.Lang), "_")))
	}
	sources := a.CitedEvidence()
	printSources(w, sources)
	printUnconfirmed(w, a.Memory)
	rr := a.Rerank.Reranker
	if !a.Rerank.Reranked && a.Rerank.Fallback != "" {
		rr += ": " + engineText(a.Rerank.Fallback)
	}
	footer := msg("ask-footer", answerMode(a), rr, a.Context.Full, a.Context.Summaries, a.Timings["total"]/1000)
	if a.Usage.Calls > 0 {
		footer += msg("ask-usage", a.Usage.TotalTokens, msg("usage:"+a.Usage.Source))
	}
	fmt.Fprintln(w, footer)
	return sources
}

// printAnswerText writes the answer's verified text, what of it the
// terminal was not shown yet.
func printAnswerText(w io.Writer, a *oraculo.Answer, shown verifiedText) {
	rest, ok := strings.CutPrefix(a.Answer, shown.sent)
	switch {
	case a.Fallback != "" && shown.live:
		// The model did not answer (in time): what it wrote and was
		// verified stays above, and the answer extracted from the notes
		// follows, saying why.
		if shown.sent != "" {
			fmt.Fprint(w, "\n\n")
		}
		fmt.Fprintf(w, "%s\n%s\n", msg("ask-fallback-"+a.Fallback), termrender.EscapeText(a.Answer))
	case ok:
		fmt.Fprintln(w, termrender.EscapeText(rest))
	default:
		// The chat model failed midway and the answer was extracted from
		// the notes: what was streamed stays true, and the answer follows.
		fmt.Fprintf(w, "\n\n%s\n", termrender.EscapeText(a.Answer))
	}
}

// printSources lists the evidence an answer cites, numbered as /open
// takes them.
func printSources(w io.Writer, sources []oraculo.Evidence) {
	if len(sources) == 0 {
		return
	}
	fmt.Fprintln(w, msg("ask-sources"))
	for i, ev := range sources {
		kind := ""
		switch ev.Kind {
		case "summary":
			kind = " " + msg("ask-summary")
		case "memory":
			kind = " " + msg("ask-memory")
		}
		if ev.File == "" {
			fmt.Fprintf(w, "  %d. [%s]%s  ·  %s\n", i+1, termrender.Escape(ev.Label), kind, ev.ID)
			continue
		}
		fmt.Fprintf(w, "  %d. [%s]%s  ·  %s  ·  %s\n", i+1, termrender.Escape(ev.Label), kind, termrender.Escape(ev.File), ev.ID)
	}
}

// printUnconfirmed lists the entries of memory shown as not settled: the
// user sees them as the model did, never as a source.
func printUnconfirmed(w io.Writer, uses []oraculo.MemoryUse) {
	for _, u := range uses {
		if u.Use != oraculo.MemoryUnconfirmed {
			continue
		}
		why := msg("ask-memory-hypothesis")
		if u.Stale {
			why = msg("ask-memory-stale")
		}
		fmt.Fprintln(w, msg("ask-memory-unconfirmed", termrender.Escape(u.Key), termrender.Escape(u.Value), u.ID, why))
	}
}

// answerMode says how an answer was made: extractive or by which model,
// and how grounded it is.
func answerMode(a *oraculo.Answer) string {
	mode := msg("mode:" + a.Mode)
	if a.Model != "" {
		mode += " (" + a.Model + ")"
	}
	switch {
	case a.Grounding == "direct" && a.SupportedSentences < a.Sentences:
		mode += " · " + msg("grounding:partial", a.SupportedSentences, a.Sentences)
	case a.Grounding != "":
		mode += " · " + msg("grounding:"+a.Grounding)
	}
	return mode
}

// cmdChat is a terminal conversation: each line is a question; earlier
// turns make later questions follow up. On a terminal the line can be
// edited and earlier questions recalled (arrow-up, also from earlier
// sessions), Ctrl-C stops an answer and Ctrl-D (or Ctrl-C at an empty
// prompt) leaves; answers are wrapped to the terminal's width with their
// emphasis shown. Piped in, questions are read line by line.
func cmdChat(ctx context.Context, f *askFlags, rest []string, s stdio) error {
	if len(rest) > 0 {
		return usageError{errors.New(msg("eval-extra-args"))}
	}
	c := &chatSession{f: f, out: s.out, stderr: s.err, tty: newChatTerm(s.in, s.out)}
	if c.tty != nil {
		// Raw mode does not return the carriage at a line's end; the
		// warnings are wrapped between words, as the answers are.
		if isTerminal(s.err) {
			c.stderr = crlfWriter{wordWrapper{s.err, c.tty.width}}
		}
		c.render = termrender.NewWriter(c.tty.out, termrender.Options{Width: c.tty.width(), Style: chatStyle()})
		c.out = c.render
	}
	eng, err := f.open(ctx, c.stderr)
	if err != nil {
		return err
	}
	defer eng.Close()
	c.eng, c.interactive = eng, isTerminal(s.out)
	fmt.Fprintln(c.out, msg("chat-hello"))
	stop, err := c.startReading(ctx, s)
	if err != nil {
		return err
	}
	defer stop()
	return c.converse(ctx)
}

// chatSession is a conversation in the terminal: where it reads and
// writes, and what it keeps of the turns so far.
type chatSession struct {
	eng *oraculo.Engine
	f   *askFlags
	// out receives the answers: the terminal's renderer (render), or
	// stdout when not on a terminal.
	out         io.Writer
	stderr      io.Writer
	render      *termrender.Writer
	tty         *chatTerm
	interactive bool
	readLine    func() (string, bool, error)
	history     []oraculo.Turn
	sources     []oraculo.Evidence
	last        *oraculo.Answer
}

// startReading sets where the questions come from: the terminal's line
// editor, with the questions of earlier sessions, or stdin line by line.
// stop ends the terminal's raw mode.
func (c *chatSession) startReading(ctx context.Context, s stdio) (stop func(), err error) {
	if c.tty == nil {
		sc := bufio.NewScanner(s.in)
		sc.Buffer(make([]byte, 64*1024), 1<<20)
		c.readLine = func() (string, bool, error) {
			fmt.Fprint(s.out, chatPrompt)
			if !sc.Scan() {
				fmt.Fprintln(s.out)
				return "", false, sc.Err()
			}
			return sc.Text(), true, nil
		}
		return func() {}, nil
	}
	fmt.Fprintln(c.out, msg("chat-keys"))
	l, err := c.f.index.location()
	if err != nil {
		return nil, err
	}
	if err := c.tty.start(ctx, s.in, loadChatHistory(chatHistoryPath(ctx, l), maxChatHistory)); err != nil {
		return nil, err
	}
	c.readLine = c.tty.readLine
	return c.tty.close, nil
}

// converse reads and answers lines until the user leaves, the input ends
// or ctx does.
func (c *chatSession) converse(ctx context.Context) error {
	for {
		if c.render != nil {
			c.render.EndLine()
			c.render.SetWidth(c.tty.width())
		}
		line, ok, err := c.readLine()
		if !ok {
			return err
		}
		line = strings.TrimSpace(line)
		switch {
		case line == "":
			continue
		case line == "/exit" || line == "/quit" || line == "/salir":
			return nil
		case strings.HasPrefix(line, "/"):
			c.command(ctx, line)
			continue
		}
		if intent, text := oraculo.MemoryIntent(line); intent != "" {
			if err := chatMemory(ctx, c.eng, c.out, c.readLine, intent, text); err != nil {
				return err
			}
			continue
		}
		if leave, err := c.ask(ctx, line); leave {
			return err
		}
	}
}

// command runs a chat command other than /exit: /new, /open N, or any
// other, which gets the list of them.
func (c *chatSession) command(ctx context.Context, line string) {
	switch {
	case line == "/new" || line == "/nuevo":
		c.history, c.sources, c.last = nil, nil, nil
		fmt.Fprintln(c.out, msg("chat-new"))
	case strings.HasPrefix(line, "/open") || strings.HasPrefix(line, "/abrir"):
		c.open(ctx, line)
	default:
		fmt.Fprintln(c.out, msg("chat-help"))
	}
}

// open shows source N of the last answer, the sentences it backs marked.
func (c *chatSession) open(ctx context.Context, line string) {
	fields := strings.Fields(line)
	n := 0
	if len(fields) == 2 {
		n, _ = strconv.Atoi(fields[1])
	}
	if n < 1 || n > len(c.sources) {
		fmt.Fprintln(c.out, msg("chat-open-usage", len(c.sources)))
		return
	}
	ch, err := c.eng.Chunk(ctx, c.sources[n-1].ID)
	if err != nil {
		fmt.Fprintln(c.out, msg("error", engineText(err.Error())))
		return
	}
	text := strings.TrimSpace(link.Render(ch.Text))
	text = highlight(text, citedSpans(text, claimsFor(c.last, ch.ID)))
	if c.render == nil {
		text = strings.NewReplacer(termrender.MarkStart, "»", termrender.MarkEnd, "«").Replace(text)
	}
	fmt.Fprintf(c.out, "── [%s] · %s ──\n%s\n", termrender.Escape(ch.Label), termrender.Escape(ch.File), termrender.EscapeText(text))
}

// ask answers a question, streamed on a terminal, where Ctrl-C stops it;
// leave is set when the chat must end (ctx ended, or Ctrl-C twice).
func (c *chatSession) ask(ctx context.Context, line string) (leave bool, err error) {
	opts := c.f.options(c.history)
	askCtx, cancel := context.WithCancel(ctx)
	var shown verifiedText
	if c.interactive {
		// Stopped: what still comes is dropped.
		opts.OnVerified = shown.printTo(c.out, func() bool { return askCtx.Err() == nil })
		opts.OnThinking = thinkingNote(c.stderr, &shown.streamed)
	}
	stop := func() bool { return false }
	if c.tty != nil {
		stop = c.tty.watch(cancel)
	}
	a, err := c.eng.Ask(askCtx, line, opts)
	stopped := askCtx.Err() != nil // a Ctrl-C after the answer stops nothing
	twice := stop()
	cancel()
	switch {
	case ctx.Err() != nil:
		return true, ctx.Err()
	case stopped:
		if c.render != nil {
			c.render.EndLine()
		}
		fmt.Fprintln(c.out, msg("chat-cancelled"))
		return twice, nil
	case err != nil:
		fmt.Fprintln(c.out, msg("error", engineText(err.Error())))
		return false, nil
	}
	c.sources = printAnswer(c.out, a, shown)
	c.last = a
	c.history = append(c.history, oraculo.Turn{Question: line, Answer: a.Answer, Query: a.Query, Sessions: a.Sessions})
	return false, nil
}

// cmdShow prints the chunk behind an id (a search hit's or a citation's).
func cmdShow(ctx context.Context, f *jsonFlags, ids []string, s stdio) error {
	if len(ids) == 0 {
		return usageError{errors.New(msg("show-needs-id"))}
	}
	eng, err := f.index.open(ctx, true)
	if err != nil {
		return err
	}
	defer eng.Close()
	for _, id := range ids {
		c, err := eng.Chunk(ctx, id)
		if err != nil {
			return err
		}
		if *f.asJSON {
			if err := writeJSONLine(s.out, c); err != nil {
				return err
			}
			continue
		}
		fmt.Fprintf(s.out, "── [%s] · %s · %s ──\n%s\n", termrender.Escape(c.Label), termrender.Escape(c.File), c.ID, termrender.EscapeText(strings.TrimSpace(c.Text)))
	}
	return nil
}

// chatMemory handles a chat line that asks to remember or to forget.
// "Remember" proposes an entry, a hypothesis in the asker's scope (the
// campaign for the DM, player:NAME for a player), saved only when the user
// says yes; nothing said in the chat is ever saved verified. "Forget" lists
// the entries the asker may forget that match and asks which one.
func chatMemory(ctx context.Context, eng *oraculo.Engine, out io.Writer, readLine func() (string, bool, error), intent, text string) error {
	switch intent {
	case oraculo.IntentRemember:
		return chatRemember(ctx, eng, out, readLine, text)
	case oraculo.IntentForget:
		return chatForget(ctx, eng, out, readLine, text)
	}
	return nil
}

// chatRemember proposes the entry text says and saves it when the user
// says yes.
func chatRemember(ctx context.Context, eng *oraculo.Engine, out io.Writer, readLine func() (string, bool, error), text string) error {
	scope, ok := oraculo.RememberScope(ctx)
	if !ok {
		fmt.Fprintln(out, msg("chat-memory-no-scope"))
		return nil
	}
	key, value := oraculo.MemoryKey(text)
	fmt.Fprintln(out, msg("chat-remember-propose", scope, termrender.Escape(key), termrender.Escape(value)))
	line, ok, err := readLine()
	if !ok {
		return err
	}
	if !saysYes(line) {
		fmt.Fprintln(out, msg("chat-remember-no"))
		return nil
	}
	m, err := eng.AddMemory(ctx, oraculo.MemoryInput{Scope: scope, Key: key, Value: value, Author: memoryAuthor()})
	if err != nil {
		fmt.Fprintln(out, msg("error", engineText(memoryError(err).Error())))
		return nil
	}
	fmt.Fprintln(out, msg("chat-remember-saved", m.ID, m.Scope, termrender.Escape(m.Key)))
	return nil
}

// chatForget lists the entries matching text the asker may forget, and
// forgets the one the user picks.
func chatForget(ctx context.Context, eng *oraculo.Engine, out io.Writer, readLine func() (string, bool, error), text string) error {
	ms, err := eng.Forgettable(ctx, text)
	if err != nil {
		fmt.Fprintln(out, msg("error", engineText(memoryError(err).Error())))
		return nil
	}
	if len(ms) == 0 {
		fmt.Fprintln(out, msg("chat-forget-none", text))
		return nil
	}
	fmt.Fprintln(out, msg("chat-forget-which"))
	for i, m := range ms {
		fmt.Fprintf(out, "  %d. %s · %s · %s: %s\n", i+1, m.ID, m.Scope, termrender.Escape(m.Key), termrender.Escape(m.Value))
	}
	line, ok, err := readLine()
	if !ok {
		return err
	}
	line = strings.TrimSpace(line)
	var pick *oraculo.Memory
	for i := range ms {
		if line == strconv.Itoa(i+1) || line == ms[i].ID {
			pick = &ms[i]
		}
	}
	if pick == nil {
		fmt.Fprintln(out, msg("chat-forget-kept"))
		return nil
	}
	if err := eng.ForgetMemory(ctx, pick.ID); err != nil {
		fmt.Fprintln(out, msg("error", engineText(memoryError(err).Error())))
		return nil
	}
	fmt.Fprintln(out, msg("memory-forgotten", pick.ID))
	return nil
}

// saysYes reports whether a reply is a yes, in Spanish or English.
func saysYes(line string) bool {
	switch strings.ToLower(strings.Trim(strings.TrimSpace(line), ".!¡")) {
	case "s", "si", "sí", "y", "yes", "vale", "ok":
		return true
	}
	return false
}
