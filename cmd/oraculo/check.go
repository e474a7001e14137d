package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/internal/termrender"
	"github.com/oraculo/oraculo/story"
)

// checkFlags are check's flags: the index, --json and the chat model
// that judges each pair.
type checkFlags struct {
	index  *indexFlags
	asJSON *bool
	chat   func() oraculo.ChatConfig
}

func newCheckFlags(name string, stderr io.Writer) (*flag.FlagSet, *checkFlags) {
	fs, ix := newIndexFlags(name, stderr)
	f := &checkFlags{index: ix, asJSON: fs.Bool("json", false, "print as JSON")}
	f.chat = chatFlags(fs)
	return fs, f
}

// cmdCheck prints the notes' contradictions, grouped by entity.
func cmdCheck(ctx context.Context, f *checkFlags, _ []string, s stdio) error {
	cc := f.chat()
	if _, err := oraculo.NewChat(cc); err != nil {
		return usageError{err}
	}
	eng, err := f.index.open(ctx, true, oraculo.WithChat(cc), oraculo.WithWarnings(warnTo(s.err)))
	if err != nil {
		return err
	}
	defer eng.Close()
	res, err := eng.Check(ctx)
	if err != nil {
		return err
	}
	for _, w := range res.Warnings {
		warnTo(s.err)(w)
	}
	if *f.asJSON {
		if res.Contradictions == nil {
			res.Contradictions = []story.Contradiction{}
		}
		return writeJSON(s.out, res)
	}
	printContinuity(s.out, res)
	return nil
}

func printContinuity(w io.Writer, res oraculo.Continuity) {
	if len(res.Contradictions) == 0 {
		fmt.Fprintln(w, msg("check-none"))
		return
	}
	entity := ""
	for _, c := range res.Contradictions {
		if c.Entity != entity {
			if entity != "" {
				fmt.Fprintln(w)
			}
			entity = c.Entity
			fmt.Fprintln(w, termrender.Escape(entity))
		}
		what := msg("check-" + c.Kind)
		if c.Field != "" {
			what = msg("check-field-named", termrender.Escape(c.Field))
		}
		fmt.Fprintf(w, "  %s · %s\n", what, msg("check-verdict-"+c.Verdict))
		for _, m := range []story.Moment{c.First, c.Second} {
			fmt.Fprintf(w, "    [%s] %s\n", termrender.Escape(m.Label), termrender.Escape(m.Text))
		}
		if c.Reason != "" {
			fmt.Fprintf(w, "    %s\n", termrender.Escape(c.Reason))
		}
	}
}
