package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/internal/termrender"
)

// compendiumFlags are compendium's flags.
type compendiumFlags struct {
	index  *indexFlags
	asJSON *bool
	kind   *string
}

func newCompendiumFlags(name string, stderr io.Writer) (*flag.FlagSet, *compendiumFlags) {
	fs, ix := newIndexFlags(name, stderr)
	f := &compendiumFlags{index: ix}
	f.asJSON = fs.Bool("json", false, "print as JSON (one object per entity with list; one object with show)")
	f.kind = fs.String("kind", "", "only entities of this kind (pc, npc, place, faction, god, item, other)")
	return fs, f
}

// cmdCompendium lists the compendium or shows one entity.
func cmdCompendium(ctx context.Context, f *compendiumFlags, rest []string, s stdio) error {
	asJSON, kind, stdout := f.asJSON, f.kind, s.out
	verb := "list"
	if len(rest) > 0 {
		verb, rest = rest[0], rest[1:]
	}
	eng, err := f.index.open(ctx, true)
	if err != nil {
		return err
	}
	defer eng.Close()
	switch verb {
	case "list":
		all, err := eng.Compendium(ctx)
		if err != nil {
			return err
		}
		var out []oraculo.CompendiumEntry
		for _, e := range all {
			if *kind == "" || e.Kind == *kind {
				out = append(out, e)
			}
		}
		if *asJSON {
			for _, e := range out {
				if err := writeJSONLine(stdout, e); err != nil {
					return err
				}
			}
			return nil
		}
		printCompendium(stdout, out)
		return nil
	case "show":
		if len(rest) == 0 {
			return usageError{fmt.Errorf("%s", msg("compendium-show-needs-name"))}
		}
		name := strings.Join(rest, " ")
		e, ok, err := eng.FindEntity(ctx, name)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("%s", msg("compendium-not-found", name))
		}
		if *asJSON {
			return writeJSON(stdout, e)
		}
		printEntity(stdout, e)
		return nil
	}
	return usageError{fmt.Errorf("%s", msg("compendium-verb", verb))}
}

func printCompendium(w io.Writer, es []oraculo.CompendiumEntry) {
	if len(es) == 0 {
		fmt.Fprintln(w, msg("compendium-empty"))
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", msg("col-name"), msg("col-kind"), msg("col-chunks"), msg("stats-sessions"), msg("col-aliases"))
	for _, e := range es {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\n", termrender.Escape(e.Name), e.Kind, e.Chunks, len(e.Sessions), termrender.Escape(clip(strings.Join(e.Aliases, ", "), 60)))
	}
	tw.Flush()
}

func printEntity(w io.Writer, e oraculo.CompendiumEntry) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	sessions := make([]string, len(e.Sessions))
	for i, s := range e.Sessions {
		sessions[i] = fmt.Sprint(s)
	}
	for _, row := range [][2]string{
		{msg("col-name"), termrender.Escape(e.Name)},
		{msg("col-kind"), e.Kind},
		{msg("col-aliases"), termrender.Escape(strings.Join(e.Aliases, ", "))},
		{msg("col-note"), termrender.Escape(e.Note)},
		{msg("col-source"), termrender.Escape(e.Source)},
		{msg("col-chunks"), fmt.Sprint(e.Chunks)},
		{msg("stats-sessions"), strings.Join(sessions, ", ")},
		{msg("col-file"), strings.Join(e.Files, ", ")},
	} {
		fmt.Fprintf(tw, "%s\t%s\n", row[0], row[1])
	}
	tw.Flush()
}
