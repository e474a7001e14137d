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
	"strings"
	"sync"
	"syscall"

	"github.com/oraculo/oraculo"
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
		fmt.Fprint(stderr, msg("usage"))
		return 2
	}
	if args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stdout, msg("usage"))
		return 0
	}
	flagSetsMu.Lock()
	flagSets = flagSets[:0]
	flagSetsMu.Unlock()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	switch role := flagArg(args, "as"); {
	case role == "", role == oraculo.RoleDM:
	case role == oraculo.RolePlayer:
		ctx = oraculo.WithRole(ctx, oraculo.RolePlayer)
	case strings.HasPrefix(role, oraculo.RolePlayer+":") && strings.TrimSpace(role[len(oraculo.RolePlayer)+1:]) != "":
		// --as player:NAME: a player with a memory scope of their own.
		ctx = oraculo.WithPlayer(ctx, role[len(oraculo.RolePlayer)+1:])
	default:
		fmt.Fprintln(stderr, msg("error", msg("bad-role", role)))
		return 2
	}
	cmd, rest := args[0], args[1:]
	// ORACULO_CPUPROFILE=FILE writes a CPU profile of the command (for
	// `go tool pprof`): where a slow ingest or search spends its time, on
	// the user's own vault.
	if path := os.Getenv("ORACULO_CPUPROFILE"); path != "" {
		if f, err := os.Create(path); err != nil {
			fmt.Fprintln(stderr, msg("error", engineText(err.Error())))
		} else if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(stderr, msg("error", engineText(err.Error())))
			f.Close()
		} else {
			defer f.Close()
			defer pprof.StopCPUProfile()
		}
	}
	var err error
	switch cmd {
	case "ingest":
		err = cmdIngest(ctx, rest, stdout, stderr)
	case "search":
		err = cmdSearch(ctx, rest, stdin, stdout, stderr)
	case "ask":
		err = cmdAsk(ctx, rest, stdout, stderr)
	case "chat":
		err = cmdChat(ctx, rest, stdin, stdout, stderr)
	case "show":
		err = cmdShow(ctx, rest, stdout, stderr)
	case "chunks":
		err = cmdChunks(ctx, rest, stdout, stderr)
	case "stats":
		err = cmdStats(ctx, rest, stdout, stderr)
	case "eval":
		err = cmdEval(ctx, rest, stdout, stderr)
	case "bench":
		err = cmdBench(ctx, rest, stdout, stderr)
	case "compendium":
		err = cmdCompendium(ctx, rest, stdout, stderr)
	case "mcp":
		err = cmdMCP(ctx, rest, stdin, stdout, stderr)
	case "doctor":
		err = cmdDoctor(ctx, rest, stdout, stderr)
	case "serve":
		err = cmdServe(ctx, rest, stdout, stderr)
	case "token":
		err = cmdToken(ctx, rest, stdout, stderr)
	case "memory":
		err = cmdMemory(ctx, rest, stdout, stderr)
	case "version", "--version":
		fmt.Fprintln(stdout, "oraculo", version)
	default:
		fmt.Fprintln(stderr, msg("unknown-command", cmd))
		fmt.Fprint(stderr, msg("usage"))
		return 2
	}
	var usage usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		// Asked for: the help goes to stdout, as a page to read or pipe.
		if fs := lastFlags(); fs != nil {
			writeHelp(stdout, strings.TrimPrefix(fs.Name(), "oraculo "), fs.FlagSet)
		}
		return 0
	case isFlagError(err):
		// One line and a pointer to -h, not the whole list of flags.
		fmt.Fprintln(stderr, msg("error", engineText(err.Error())))
		if name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -"); ok {
			if fs := lastFlags(); fs != nil {
				if near := nearestFlag(fs.FlagSet, name); near != "" {
					fmt.Fprintln(stderr, msg("did-you-mean", "--"+near))
				}
			}
		}
		fmt.Fprintln(stderr, msg("see-help", cmd))
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
	fs.String("config", "", "config file setting any of these flags (default $ORACULO_CONFIG, else oraculo.yaml beside the index)")
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

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func cmdIngest(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, ix := newIndexFlags("ingest", stderr)
	corpusLang := fs.String("lang", "", "language of the notes: auto (each note's own, recognised), es or en (every note in it) (default: the index's, auto for a new one)")
	maxWords := fs.Int("max-words", 0, "most words in a chunk (default: the index's, 1200 for a new one)")
	overlap := fs.Int("overlap-words", -1, "overlap of blind windows in words (default: the index's, or a tenth of --max-words)")
	maxMB := fs.Float64("max-file-mb", 16, "skip files larger than this many MB")
	asJSON := fs.Bool("json", false, "print the summary as JSON")
	quiet := fs.Bool("quiet", false, "no progress output")
	embedder := embedderFlags(fs)
	chatCfg := chatFlags(fs)
	annotateWorkers := fs.Int("annotate-workers", 2, "chunks the chat model annotates at once")
	secret := fs.String("secret-folders", "", "comma-separated folders whose notes are DM-only, matched at any depth whatever the case and accents, \"none\" for none (default: the index's, DM for a new one); front matter \"visibility: dm\" works anywhere")
	watching := watchFlags(fs, "after reading the folders, keep watching them and update the index after each change, until Ctrl-C")
	followOutside := followLinksFlag(fs)
	noWait := fs.Bool("no-wait", false, "when another ingest of the index is running, fail at once saying who runs it (default: wait for it to end)")
	dirs, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(dirs) == 0 {
		return usageError{errors.New(msg("ingest-no-dirs"))}
	}
	opts := oraculo.IngestOptions{Lang: *corpusLang, MaxWords: *maxWords, MaxFileBytes: int64(*maxMB * (1 << 20)),
		FollowLinksOutside: *followOutside, PrivateFiles: privateFiles("", *ix.db)}
	if *overlap >= 0 {
		opts.OverlapWords, opts.OverlapSet = *overlap, true
	}
	if err := oraculo.ValidateIngestOptions(opts); err != nil {
		return err
	}
	if err := watching.validate(); err != nil {
		return err
	}
	cfg := embedder()
	if _, err := oraculo.NewEmbedder(cfg); err != nil {
		return usageError{err}
	}
	cc := chatCfg()
	if _, err := oraculo.NewChat(cc); err != nil {
		return usageError{err}
	}
	opts.AnnotateWorkers = *annotateWorkers
	opts.NoWait = *noWait
	opts.OnWait = func(h oraculo.IngestHolder) {
		fmt.Fprintln(stderr, msg("ingest-waiting", termrender.Escape(h.String())))
	}
	if *secret != "" {
		opts.SecretFoldersSet = true
		if *secret != "none" {
			opts.SecretFolders = strings.Split(*secret, ",")
		}
	}
	// A folder that is not there fails before the index is created.
	for _, d := range dirs {
		if fi, err := os.Stat(d); err != nil {
			return fmt.Errorf("reading notes folder %q: %w", d, err)
		} else if !fi.IsDir() {
			return fmt.Errorf("reading notes folder %q: not a folder", d)
		}
	}
	eng, err := openEngine(ctx, ix, false, cfg, stderr, oraculo.WithChat(cc))
	if err != nil {
		return err
	}
	defer eng.Close()
	var bar *progress.Bar
	stage := ""
	if !*quiet {
		opts.Progress = func(p oraculo.Progress) {
			if p.Stage != stage {
				if bar != nil {
					bar.Done()
				}
				stage = p.Stage
				bar = progress.New(stderr, isTerminal(stderr), msg("stage:"+p.Stage))
				bar.PageUnit = msg("pdf-pages-per-s")
			}
			bar.UpdatePages(p.Done, p.Total, p.Bytes, p.Pages, termrender.Escape(p.Path))
		}
	}
	rep, err := eng.Ingest(ctx, dirs, opts)
	if bar != nil {
		bar.Done()
	}
	if err != nil {
		return err
	}
	if *asJSON {
		err = writeJSON(stdout, rep)
	} else {
		printIngestReport(stdout, eng.DBPath(), rep)
	}
	if err != nil || !*watching.on {
		return err
	}
	return followIngest(ctx, eng, rep.Roots, opts, watching, *asJSON, stdout, stderr)
}

func cmdSearch(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs, ix := newIndexFlags("search", stderr)
	k := fs.Int("k", oraculo.DefaultK, "how many chunks to return")
	paths := fs.String("paths", "", "retrieval paths, comma-separated: bm25, dense, entity (default: all available)")
	asJSON := fs.Bool("json", false, "one JSON object per question, on one line")
	explain := fs.Bool("explain", false, "show how each hit was ranked: its rank in every path and the fusion score")
	filter := filterFlags(fs)
	embedder := embedderFlags(fs)
	words, err := parse(fs, args)
	if err != nil {
		return err
	}
	if *k < 1 {
		return usageError{errors.New(msg("bad-k"))}
	}
	f, err := filter()
	if err != nil {
		return err
	}
	eng, err := openEngine(ctx, ix, true, embedder(), stderr)
	if err != nil {
		return err
	}
	defer eng.Close()
	opts := oraculo.SearchOptions{K: *k, Filter: f}
	if *paths != "" {
		opts.Paths = strings.Split(*paths, ",")
	}
	answer := func(q string) error {
		var an oraculo.QueryAnalysis
		o := opts
		o.Analysis = &an
		hits, err := eng.Search(ctx, q, o)
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSONLine(stdout, struct {
				Question string                `json:"question"`
				Hits     []oraculo.Hit         `json:"hits"`
				Analysis oraculo.QueryAnalysis `json:"analysis"`
			}{q, hits, an})
		}
		printHits(stdout, q, hits, *explain)
		printAnalysis(stdout, an, *explain)
		return nil
	}
	if len(words) > 0 {
		return answer(strings.Join(words, " "))
	}
	sc := bufio.NewScanner(stdin)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		q := strings.TrimSpace(sc.Text())
		if q == "" {
			continue
		}
		if err := answer(q); err != nil {
			return err
		}
	}
	return sc.Err()
}

func cmdChunks(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, ix := newIndexFlags("chunks", stderr)
	asJSON := fs.Bool("json", false, "one JSON object per chunk, on one line")
	paths, err := parse(fs, args)
	if err != nil {
		return err
	}
	eng, err := ix.open(ctx, true)
	if err != nil {
		return err
	}
	defer eng.Close()
	chunks, err := eng.Chunks(ctx, paths)
	if err != nil {
		return err
	}
	if *asJSON {
		for _, c := range chunks {
			if err := writeJSONLine(stdout, c); err != nil {
				return err
			}
		}
		return nil
	}
	printChunks(stdout, chunks)
	return nil
}

func cmdStats(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, ix := newIndexFlags("stats", stderr)
	asJSON := fs.Bool("json", false, "print as JSON")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	// The index's own embedder: the paths a search would use.
	eng, err := openEngine(ctx, ix, true, oraculo.EmbedderConfig{}, stderr)
	if err != nil {
		return err
	}
	defer eng.Close()
	st, err := eng.Stats(ctx)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(stdout, st)
	}
	printStats(stdout, st)
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

func lastFlags() *helpFlags {
	flagSetsMu.Lock()
	defer flagSetsMu.Unlock()
	if len(flagSets) == 0 {
		return nil
	}
	return flagSets[len(flagSets)-1]
}

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

// nearestFlag is the defined flag closest to name (edit distance at most
// a third of its length, at least 1; or name a prefix of it), or "".
func nearestFlag(fs *flag.FlagSet, name string) string {
	best, bestD := "", 0
	fs.VisitAll(func(f *flag.Flag) {
		d := editDistance(name, f.Name)
		if strings.HasPrefix(f.Name, name) && len(name) >= 2 {
			d = min(d, 1)
		}
		if d <= max(1, len(f.Name)/3) && (best == "" || d < bestD) {
			best, bestD = f.Name, d
		}
	})
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
