// Command oraculo ingests a folder of notes into one SQLite index and
// searches it. See "oraculo -h".
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/ingest"
	"github.com/oraculo/oraculo/internal/progress"
	"github.com/oraculo/oraculo/internal/termrender"
	"golang.org/x/term"
)

var version = "0.1.0-dev"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is main without the process: it returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	lang = detectLang(uiLangArg(args))
	if len(args) == 0 {
		// No command: the usage, as an error (a script that forgot its
		// command should not go on as if it had run one).
		fmt.Fprint(stderr, usage())
		return 2
	}
	if args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stdout, usage())
		return 0
	}
	flagSetsMu.Lock()
	flagSets = flagSets[:0]
	flagSetsMu.Unlock()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, ok := readingAs(ctx, flagArg(args, "as"))
	if !ok {
		fmt.Fprintln(stderr, msg("error", msg("bad-role", flagArg(args, "as"))))
		return 2
	}
	defer startCPUProfile(stderr)()
	c, ok := lookup(commands, args[0])
	if !ok {
		unknownCommand(stderr, args[0])
		return 2
	}
	ran, err := c.dispatch(ctx, args[1:], stdio{in: stdin, out: stdout, err: stderr})
	return exitCode(err, args[0], ran, stdout, stderr)
}

// readingAs is ctx reading as --as says: the DM (role "" or dm), a player,
// or player:NAME, a player with a memory scope of their own; false when
// role is none of them.
func readingAs(ctx context.Context, role string) (context.Context, bool) {
	switch {
	case role == "", role == oraculo.RoleDM:
		return ctx, true
	case role == oraculo.RolePlayer:
		return oraculo.WithRole(ctx, oraculo.RolePlayer), true
	case strings.HasPrefix(role, oraculo.RolePlayer+":") && strings.TrimSpace(role[len(oraculo.RolePlayer)+1:]) != "":
		return oraculo.WithPlayer(ctx, role[len(oraculo.RolePlayer)+1:]), true
	}
	return ctx, false
}

// startCPUProfile writes a CPU profile of the command to
// $ORACULO_CPUPROFILE when it is set (for `go tool pprof`): where a slow
// ingest or search spends its time, on the user's own vault. The function
// it returns ends the profile.
func startCPUProfile(stderr io.Writer) (stop func()) {
	path := os.Getenv("ORACULO_CPUPROFILE")
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintln(stderr, msg("error", engineText(err.Error())))
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintln(stderr, msg("error", engineText(err.Error())))
		f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}

// exitCode says how command name ended (ran is the entry of the table
// that ran: the command or its verb) and returns the exit code: 0, 1 for
// a failure, 2 for a mistake in the command line, 130 when interrupted.
func exitCode(err error, name string, ran command, stdout, stderr io.Writer) int {
	var usage usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		// Asked for: the help goes to stdout, as a page to read or pipe.
		if ran.flags != nil {
			writeHelp(stdout, ran.name, ran.flags(ran.name, io.Discard))
		}
		return 0
	case isFlagError(err):
		flagError(err, name, ran, stderr)
		return 2
	case errors.Is(err, errDoctorFailed):
		return 1
	case errors.As(err, &usage):
		fmt.Fprintln(stderr, msg("error", engineText(err.Error())))
		return 2
	case errors.Is(err, context.Canceled):
		fmt.Fprintln(stderr, msg("interrupted"))
		return 130
	default:
		fmt.Fprintln(stderr, msg("error", engineText(err.Error())))
		return 1
	}
}

// flagError says what was wrong with a flag of command name, in one line
// with the flag meant when one of ran's flags is near, and a pointer to
// -h, not the whole list of flags.
func flagError(err error, name string, ran command, stderr io.Writer) {
	fmt.Fprintln(stderr, msg("error", engineText(err.Error())))
	if typo, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -"); ok && ran.flags != nil {
		if near := nearestFlag(ran.flags(ran.name, io.Discard), typo); near != "" {
			fmt.Fprintln(stderr, msg("did-you-mean", "--"+near))
		}
	}
	fmt.Fprintln(stderr, msg("see-help", name))
}

// unknownCommand says that name is no command: with the command meant
// and where the commands are listed when one is near, else with the
// usage; an option there is told to follow its command.
func unknownCommand(stderr io.Writer, name string) {
	if strings.HasPrefix(name, "-") {
		// An option where the command goes ("oraculo --ui-lang es").
		fmt.Fprintln(stderr, msg("command-first", name))
		fmt.Fprint(stderr, usage())
		return
	}
	fmt.Fprintln(stderr, msg("unknown-command", name))
	near := nearestCommand(append(slices.Clip(commands), command{name: "help"}), name)
	if near == "" {
		fmt.Fprint(stderr, usage())
		return
	}
	fmt.Fprintln(stderr, msg("did-you-mean", msg("quoted", near)))
	fmt.Fprintln(stderr, msg("see-commands"))
}

type usageError struct{ error }

// uiLangArg finds --ui-lang before flags are parsed, so that flag errors
// are already in the right language.
func uiLangArg(args []string) string { return flagArg(args, "ui-lang") }

// flagArg finds a flag's value among raw arguments, before parsing.
func flagArg(args []string, name string) string {
	for i, a := range args {
		if a == "--" {
			break
		}
		for _, dash := range []string{"--", "-"} {
			if v, ok := strings.CutPrefix(a, dash+name+"="); ok {
				return v
			}
			if a == dash+name && i+1 < len(args) {
				return args[i+1]
			}
		}
	}
	return ""
}

// newFlags makes a command's flag set with the flags every command shares.
func newFlags(name string, stderr io.Writer) (*flag.FlagSet, *string) {
	fs := flag.NewFlagSet("oraculo "+name, flag.ContinueOnError)
	// What the flag package prints (an error and every flag, or the help)
	// is kept: run prints the help for -h, and one line for an error.
	hf := &helpFlags{FlagSet: fs, stderr: stderr}
	fs.SetOutput(&hf.help)
	flagSetsMu.Lock()
	flagSets = append(flagSets, hf)
	flagSetsMu.Unlock()
	db := fs.String("db", "", "index file (default $ORACULO_DB or "+oraculo.DefaultDBPath+")")
	fs.String("ui-lang", "", "language of messages: es or en (default: locale)")
	fs.String("as", "", "read as dm (everything, the default), player (never a DM-only note) or player:NAME (a player with their own memory scope)")
	fs.String("config", "", "YAML file setting any of these flags (key: value, at the top or under the command's name); the command line wins over it (default $ORACULO_CONFIG, else oraculo.yaml beside the index)")
	return fs, db
}

// embedderFlags adds the dense path's flags; the returned function gives
// the config from flags, then environment (empty: the index's own).
func embedderFlags(fs *flag.FlagSet) func() oraculo.EmbedderConfig {
	provider := fs.String("embedder", "", "embedding provider for the dense path: ollama, openai, hashing or none (default: $ORACULO_EMBEDDER, else the index's)")
	model := fs.String("embed-model", "", "embedding model (default: $ORACULO_EMBED_MODEL; bge-m3 for ollama)")
	url := fs.String("embed-url", "", "embedding server base URL (default: $ORACULO_EMBED_URL; ollama: $OLLAMA_HOST or http://127.0.0.1:11434)")
	dims := fs.Int("embed-dims", 0, "vector size to ask for (openai dimensions; hashing size, default 1024)")
	return func() oraculo.EmbedderConfig {
		c := oraculo.EmbedderConfigFromEnv()
		if *provider != "" {
			c = oraculo.EmbedderConfig{Provider: strings.ToLower(*provider)}
		}
		if *model != "" {
			c.Model = *model
		}
		if *url != "" {
			c.URL = *url
		}
		if *dims != 0 {
			c.Dims = *dims
		}
		return c
	}
}

// openEngine opens an index for a command and wires the dense path and
// warnings.
func openEngine(ctx context.Context, ix *indexFlags, existing bool, cfg oraculo.EmbedderConfig, stderr io.Writer, more ...oraculo.Option) (*oraculo.Engine, error) {
	opts := append([]oraculo.Option{oraculo.WithWarnings(warnTo(stderr)), oraculo.WithEmbedder(cfg)}, more...)
	return ix.open(ctx, existing, opts...)
}

// usageIfConfig makes a model configuration that cannot work a usage
// error (exit 2, with the usage hint).
func usageIfConfig(err error) error {
	var ce *oraculo.ConfigError
	if errors.As(err, &ce) {
		return usageError{err}
	}
	return err
}

// parse parses flags anywhere among the arguments and returns the others.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, usageError{err}
		}
		args = fs.Args()
		if len(args) == 0 || args[0] == "--" {
			if len(args) > 0 {
				rest = append(rest, args[1:]...)
			}
			if hf := flagsOf(fs); hf != nil {
				hf.given = map[string]bool{}
				fs.Visit(func(f *flag.Flag) { hf.given[f.Name] = true })
			}
			warnings, err := applyConfig(fs)
			if err != nil {
				return nil, err
			}
			if hf := flagsOf(fs); hf != nil {
				for _, w := range warnings {
					fmt.Fprintln(hf.stderr, msg("warning", w))
				}
			}
			return rest, nil
		}
		rest = append(rest, args[0])
		args = args[1:]
	}
}

// termWidth is the width of the terminal w is, 0 when it is none.
func termWidth(w io.Writer) int {
	if f, ok := w.(*os.File); ok {
		if width, _, err := term.GetSize(int(f.Fd())); err == nil {
			return width
		}
	}
	return 0
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// ingestFlags are ingest's flags.
type ingestFlags struct {
	index           *indexFlags
	lang            *string
	maxWords        *int
	overlap         *int
	maxMB           *float64
	asJSON          *bool
	quiet           *bool
	embedder        func() oraculo.EmbedderConfig
	chat            func() oraculo.ChatConfig
	annotateWorkers *int
	secret          *string
	watching        *watchOptions
	followOutside   *bool
	noWait          *bool
	vault           *vaultFlags
}

func newIngestFlags(name string, stderr io.Writer) (*flag.FlagSet, *ingestFlags) {
	fs, ix := newIndexFlags(name, stderr)
	f := &ingestFlags{index: ix}
	f.lang = fs.String("lang", "", "language of the notes: auto (each note's own, recognised), es or en (every note in it) (default: the index's, auto for a new one)")
	f.maxWords = fs.Int("max-words", 0, "most words in a chunk (default: the index's, 1200 for a new one)")
	f.overlap = fs.Int("overlap-words", -1, "overlap of blind windows in words (default: the index's, or a tenth of --max-words)")
	f.maxMB = fs.Float64("max-file-mb", 16, "skip files larger than this many MB")
	f.asJSON = fs.Bool("json", false, "print the summary as JSON")
	f.quiet = fs.Bool("quiet", false, "no progress output")
	f.embedder = embedderFlags(fs)
	f.chat = chatFlags(fs)
	f.annotateWorkers = fs.Int("annotate-workers", 2, "chunks the chat model annotates at once")
	f.secret = fs.String("secret-folders", "", "comma-separated folders whose notes are DM-only, matched at any depth whatever the case and accents, \"none\" for none (default: the index's, DM for a new one); front matter \"visibility: dm\" works anywhere")
	f.watching = watchFlags(fs, "after reading the folders, keep watching them and update the index after each change, until Ctrl-C")
	f.followOutside = followLinksFlag(fs)
	f.noWait = fs.Bool("no-wait", false, "when another ingest of the index is running, fail at once saying who runs it (default: wait for it to end)")
	f.vault = newVaultFlags(fs)
	return fs, f
}

// cmdIngest reads the folders into the index, then with --watch keeps
// following them.
func cmdIngest(ctx context.Context, f *ingestFlags, dirs []string, s stdio) error {
	if len(dirs) == 0 {
		return usageError{errors.New(msg("ingest-no-dirs"))}
	}
	opts, err := f.options(s.err)
	if err != nil {
		return err
	}
	cfg, cc := f.embedder(), f.chat()
	// A folder that is not there fails before the index is created.
	if err := checkFolders(dirs); err != nil {
		return err
	}
	eng, err := openEngine(ctx, f.index, false, cfg, s.err, oraculo.WithChat(cc))
	if err != nil {
		return err
	}
	defer eng.Close()
	// The first ingest may read the whole vault; the later ones of
	// --watch, a few notes, under the process's usual collector.
	restoreGC := ingest.TuneGC()
	rep, err := ingestShowing(ctx, eng, dirs, opts, !*f.quiet, s.err)
	restoreGC()
	if err != nil {
		return err
	}
	if *f.asJSON {
		err = writeJSON(s.out, rep)
	} else {
		printIngestReport(s.out, eng.DBPath(), rep)
	}
	if err != nil || !*f.watching.on {
		return err
	}
	return followIngest(ctx, eng, rep.Roots, opts, f.watching, *f.asJSON, s.out, s.err)
}

// options are the ingest's options from the flags, checked (the models'
// configurations too), with its waits for another ingest said on stderr.
func (f *ingestFlags) options(stderr io.Writer) (oraculo.IngestOptions, error) {
	opts := oraculo.IngestOptions{Lang: *f.lang, MaxWords: *f.maxWords, MaxFileBytes: int64(*f.maxMB * (1 << 20)),
		FollowLinksOutside: *f.followOutside, PrivateFiles: privateFiles("", *f.index.db)}
	if *f.overlap >= 0 {
		opts.OverlapWords, opts.OverlapSet = *f.overlap, true
	}
	if err := oraculo.ValidateIngestOptions(opts); err != nil {
		return opts, err
	}
	if err := f.watching.validate(); err != nil {
		return opts, err
	}
	if _, err := oraculo.NewEmbedder(f.embedder()); err != nil {
		return opts, usageError{err}
	}
	if _, err := oraculo.NewChat(f.chat()); err != nil {
		return opts, usageError{err}
	}
	opts.AnnotateWorkers = *f.annotateWorkers
	f.vault.apply(&opts)
	opts.NoWait = *f.noWait
	opts.OnWait = func(h oraculo.IngestHolder) {
		fmt.Fprintln(stderr, msg("ingest-waiting", termrender.Escape(h.String())))
	}
	if *f.secret != "" {
		opts.SecretFoldersSet = true
		if *f.secret != "none" {
			opts.SecretFolders = strings.Split(*f.secret, ",")
		}
	}
	return opts, nil
}

// checkFolders fails unless every dir is a folder.
func checkFolders(dirs []string) error {
	for _, d := range dirs {
		if fi, err := os.Stat(d); err != nil {
			return fmt.Errorf("reading notes folder %q: %w", d, err)
		} else if !fi.IsDir() {
			return fmt.Errorf("reading notes folder %q: not a folder", d)
		}
	}
	return nil
}

// ingestShowing runs the ingest, with a progress bar per stage on stderr
// when show.
func ingestShowing(ctx context.Context, eng *oraculo.Engine, dirs []string, opts oraculo.IngestOptions, show bool, stderr io.Writer) (*oraculo.IngestReport, error) {
	var bar *progress.Bar
	stage := ""
	if show {
		opts.Progress = func(p oraculo.Progress) {
			if p.Stage != stage {
				if bar != nil {
					bar.Done()
				}
				stage = p.Stage
				bar = progress.New(stderr, isTerminal(stderr), msg("stage:"+p.Stage))
				bar.PageUnit, bar.Width = msg("pdf-pages-per-s"), termWidth(stderr)
				if _, ok := catalog["rate:"+p.Stage]; ok {
					bar.ItemUnit = msg("rate:" + p.Stage)
				}
			}
			bar.UpdatePages(p.Done, p.Total, p.Bytes, p.Pages, termrender.Escape(p.Path))
		}
	}
	rep, err := eng.Ingest(ctx, dirs, opts)
	if bar != nil {
		bar.Done()
	}
	return rep, err
}

// searchFlags are search's flags.
type searchFlags struct {
	index    *indexFlags
	k        *int
	paths    *string
	asJSON   *bool
	explain  *bool
	filter   func() (oraculo.Filter, error)
	embedder func() oraculo.EmbedderConfig
}

func newSearchFlags(name string, stderr io.Writer) (*flag.FlagSet, *searchFlags) {
	fs, ix := newIndexFlags(name, stderr)
	f := &searchFlags{index: ix}
	f.k = fs.Int("k", oraculo.DefaultK, "how many chunks to return")
	f.paths = fs.String("paths", "", "retrieval paths, comma-separated: bm25, dense, entity (default: all available)")
	f.asJSON = fs.Bool("json", false, "one JSON object per question, on one line")
	f.explain = fs.Bool("explain", false, "show how each hit was ranked: its rank in every path and the fusion score")
	f.filter = filterFlags(fs)
	f.embedder = embedderFlags(fs)
	return fs, f
}

// cmdSearch answers the question in words, else each line of stdin, with
// the chunks found.
func cmdSearch(ctx context.Context, f *searchFlags, words []string, s stdio) error {
	if *f.k < 1 {
		return usageError{errors.New(msg("bad-k"))}
	}
	filter, err := f.filter()
	if err != nil {
		return err
	}
	eng, err := openEngine(ctx, f.index, true, f.embedder(), s.err)
	if err != nil {
		return err
	}
	defer eng.Close()
	opts := oraculo.SearchOptions{K: *f.k, Filter: filter}
	if *f.paths != "" {
		opts.Paths = strings.Split(*f.paths, ",")
	}
	answer := func(q string) error { return f.search(ctx, eng, q, opts, s.out) }
	if len(words) > 0 {
		return answer(strings.Join(words, " "))
	}
	return eachLine(s.in, answer)
}

// search prints the hits for q, and how the question was understood.
func (f *searchFlags) search(ctx context.Context, eng *oraculo.Engine, q string, opts oraculo.SearchOptions, stdout io.Writer) error {
	var an oraculo.QueryAnalysis
	opts.Analysis = &an
	hits, err := eng.Search(ctx, q, opts)
	if err != nil {
		return err
	}
	if *f.asJSON {
		return writeJSONLine(stdout, struct {
			Question string                `json:"question"`
			Hits     []oraculo.Hit         `json:"hits"`
			Analysis oraculo.QueryAnalysis `json:"analysis"`
		}{q, hits, an})
	}
	printHits(stdout, q, hits, *f.explain)
	printAnalysis(stdout, an, *f.explain)
	return nil
}

// eachLine calls do with each line of r that is not blank, trimmed,
// until do fails.
func eachLine(r io.Reader, do func(line string) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		q := strings.TrimSpace(sc.Text())
		if q == "" {
			continue
		}
		if err := do(q); err != nil {
			return err
		}
	}
	return sc.Err()
}

// jsonFlags are the flags of a command that reads the index and may
// print JSON.
type jsonFlags struct {
	index  *indexFlags
	asJSON *bool
}

// jsonIndexFlags makes the flags of such a command, --json saying usage.
func jsonIndexFlags(usage string) func(name string, stderr io.Writer) (*flag.FlagSet, *jsonFlags) {
	return func(name string, stderr io.Writer) (*flag.FlagSet, *jsonFlags) {
		fs, ix := newIndexFlags(name, stderr)
		return fs, &jsonFlags{index: ix, asJSON: fs.Bool("json", false, usage)}
	}
}

// cmdChunks lists the chunks of the notes under paths (all without).
func cmdChunks(ctx context.Context, f *jsonFlags, paths []string, s stdio) error {
	eng, err := f.index.open(ctx, true)
	if err != nil {
		return err
	}
	defer eng.Close()
	chunks, err := eng.Chunks(ctx, paths)
	if err != nil {
		return err
	}
	if *f.asJSON {
		for _, c := range chunks {
			if err := writeJSONLine(s.out, c); err != nil {
				return err
			}
		}
		return nil
	}
	printChunks(s.out, chunks)
	return nil
}

// cmdStats says what the index holds.
func cmdStats(ctx context.Context, f *jsonFlags, _ []string, s stdio) error {
	// The index's own embedder: the paths a search would use.
	eng, err := openEngine(ctx, f.index, true, oraculo.EmbedderConfig{}, s.err)
	if err != nil {
		return err
	}
	defer eng.Close()
	st, err := eng.Stats(ctx)
	if err != nil {
		return err
	}
	if *f.asJSON {
		return writeJSON(s.out, st)
	}
	printStats(s.out, st)
	return nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

func writeJSONLine(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// helpFlags is a command's flag set with what it printed.
type helpFlags struct {
	*flag.FlagSet
	help   bytes.Buffer
	stderr io.Writer
	// given are the flags the command line set, not the config file.
	given map[string]bool
}

// flagsOf finds the helpFlags of fs.
func flagsOf(fs *flag.FlagSet) *helpFlags {
	flagSetsMu.Lock()
	defer flagSetsMu.Unlock()
	for _, hf := range flagSets {
		if hf.FlagSet == fs {
			return hf
		}
	}
	return nil
}

// flagSets are the flag sets the running command made (one run at a
// time, as lang; a server a test starts makes its own meanwhile).
var (
	flagSetsMu sync.Mutex
	flagSets   []*helpFlags
)

// isFlagError reports whether err is the flag package's parse error.
func isFlagError(err error) bool {
	m := err.Error()
	for _, p := range []string{"flag provided but not defined: ", "flag needs an argument: ", "invalid value ", "invalid boolean value ", "bad flag syntax: "} {
		if strings.HasPrefix(m, p) {
			return true
		}
	}
	return false
}
