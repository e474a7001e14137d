package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/internal/termrender"
	"github.com/oraculo/oraculo/story"
)

// cmdTimeline prints the timeline of the entity named (any alias) as the
// reader (--as) may see it.
func cmdTimeline(ctx context.Context, f *jsonFlags, rest []string, s stdio) error {
	name := strings.TrimSpace(strings.Join(rest, " "))
	if name == "" {
		return usageError{fmt.Errorf("%s", msg("timeline-needs-name"))}
	}
	eng, err := f.index.open(ctx, true)
	if err != nil {
		return err
	}
	defer eng.Close()
	tl, err := eng.Timeline(ctx, name)
	var unknown *story.UnknownEntityError
	if errors.As(err, &unknown) {
		m := msg("timeline-not-found", name)
		if len(unknown.Near) > 0 {
			m += "; " + msg("did-you-mean", strings.Join(unknown.Near, ", "))
		}
		return errors.New(m)
	}
	if err != nil {
		return err
	}
	if *f.asJSON {
		return writeJSON(s.out, tl)
	}
	printTimeline(s.out, tl)
	return nil
}

// printTimeline writes a timeline for a reader: the entity, one line a
// session with its date and citation, the long absences between, then
// the other notes that name it.
func printTimeline(w io.Writer, tl oraculo.Timeline) {
	head := termrender.Escape(tl.Name)
	if tl.Kind != "" {
		head += " (" + tl.Kind + ")"
	}
	if tl.FirstSession == nil {
		fmt.Fprintln(w, msg("timeline-no-sessions", head))
	} else {
		fmt.Fprintln(w, msg("timeline-head", head, len(tl.Sessions), *tl.FirstSession, *tl.LastSession))
	}
	if len(tl.Aliases) > 0 {
		fmt.Fprintf(w, "  %s: %s\n", msg("col-aliases"), termrender.Escape(strings.Join(tl.Aliases, ", ")))
	}
	if tl.Note != "" {
		fmt.Fprintf(w, "  %s: %s\n", msg("col-note"), termrender.Escape(tl.Note))
	}
	fmt.Fprintln(w)
	for _, en := range tl.Sessions {
		if en.AbsentBefore >= story.GapSessions {
			fmt.Fprintf(w, "  … %s …\n", msg("timeline-absent", en.AbsentBefore))
		}
		line := msg("timeline-session", *en.Session)
		if en.Date != "" {
			line += " (" + termrender.Escape(en.Date) + ")"
		}
		fmt.Fprintf(w, "%s — %s  [%s · %s]\n", line, termrender.Escape(en.Text), termrender.Escape(en.Label), en.ID)
	}
	if len(tl.Notes) > 0 {
		fmt.Fprintf(w, "\n%s\n", msg("timeline-notes"))
		for _, m := range tl.Notes {
			fmt.Fprintf(w, "  %s — %s  [%s]\n", termrender.Escape(m.File), termrender.Escape(m.Text), m.ID)
		}
	}
}
