package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/oraculo/oraculo/internal/termrender"
	"github.com/oraculo/oraculo/story"
)

// threadsFlags are threads' flags.
type threadsFlags struct {
	index  *indexFlags
	asJSON *bool
	quiet  *int
}

func newThreadsFlags(name string, stderr io.Writer) (*flag.FlagSet, *threadsFlags) {
	fs, ix := newIndexFlags(name, stderr)
	f := &threadsFlags{index: ix}
	f.asJSON = fs.Bool("json", false, "print as one JSON object")
	f.quiet = fs.Int("quiet", story.DefaultQuiet, "list the entities of two or more sessions absent from the last N sessions")
	return fs, f
}

// cmdThreads prints the threads the notes left open.
func cmdThreads(ctx context.Context, f *threadsFlags, rest []string, s stdio) error {
	if len(rest) > 0 {
		return usageError{fmt.Errorf("%s", msg("threads-no-args"))}
	}
	if *f.quiet <= 0 {
		return usageError{fmt.Errorf("%s", msg("threads-bad-quiet", *f.quiet))}
	}
	eng, err := f.index.open(ctx, true)
	if err != nil {
		return err
	}
	defer eng.Close()
	th, err := eng.Threads(ctx, *f.quiet)
	if err != nil {
		return err
	}
	return writeOr(s.out, *f.asJSON, th, printThreads)
}

func printThreads(w io.Writer, th story.Threads) {
	fmt.Fprintln(w, msg("threads-title", th.LastSession, th.QuietSessions))
	if len(th.Threads) == 0 {
		fmt.Fprintln(w, msg("threads-none"))
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", msg("col-kind"), msg("threads-col-title"), msg("threads-col-open"), msg("threads-col-mentions"), msg("threads-col-introduced"), msg("threads-col-last"))
	for _, t := range th.Threads {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%s\n", msg("thread-"+t.Kind), termrender.Escape(clip(t.Title, 60)), t.OpenSessions, t.Mentions, citeLabel(t.Introduced), citeLabel(t.Last))
	}
	tw.Flush()
}

// citeLabel is a passage's label and id.
func citeLabel(m story.Moment) string {
	return fmt.Sprintf("%s [%s]", termrender.Escape(clip(m.Label, 40)), m.ID)
}
