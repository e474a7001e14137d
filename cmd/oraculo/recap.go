package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/oraculo/oraculo/internal/termrender"
	"github.com/oraculo/oraculo/story"
)

// cmdRecap prints the recap of a session, the last one without an
// argument.
func cmdRecap(ctx context.Context, f *jsonFlags, rest []string, s stdio) error {
	n := 0
	if len(rest) > 1 {
		return usageError{errors.New(msg("recap-one-session"))}
	}
	if len(rest) == 1 {
		var err error
		if n, err = strconv.Atoi(rest[0]); err != nil || n <= 0 {
			return usageError{errors.New(msg("recap-bad-session", rest[0]))}
		}
	}
	eng, err := f.index.open(ctx, true)
	if err != nil {
		return err
	}
	defer eng.Close()
	r, err := eng.Recap(ctx, n)
	switch {
	case errors.Is(err, story.ErrNoSession) && n == 0:
		return errors.New(msg("recap-no-sessions"))
	case errors.Is(err, story.ErrNoSession):
		return errors.New(msg("recap-no-session", n))
	case err != nil:
		return err
	}
	return writeOr(s.out, *f.asJSON, r, printRecap)
}

// writeOr writes v as JSON, or as print prints it.
func writeOr[T any](w io.Writer, asJSON bool, v T, print func(io.Writer, T)) error {
	if asJSON {
		return writeJSON(w, v)
	}
	print(w, v)
	return nil
}

func printRecap(w io.Writer, r story.Recap) {
	title := msg("recap-title", r.Session)
	if r.Date != "" {
		title += " — " + termrender.Escape(r.Date)
	}
	fmt.Fprintln(w, title)
	fmt.Fprintf(w, "\n%s\n", msg("recap-events"))
	for i, e := range r.Events {
		fmt.Fprintf(w, "%3d. %s\n", i+1, momentLine(e))
	}
	if len(r.Events) == 0 {
		fmt.Fprintln(w, "     "+msg("recap-none"))
	}
	if len(r.Open) > 0 {
		fmt.Fprintf(w, "\n%s\n", msg("recap-open"))
		for _, o := range r.Open {
			fmt.Fprintf(w, "   - %s\n", momentLine(o))
		}
	}
}

// momentLine is a sentence of the notes and its citation, on one line.
func momentLine(m story.Moment) string {
	return fmt.Sprintf("%s  [%s · %s]", termrender.Escape(m.Text), termrender.Escape(m.Label), m.ID)
}
