package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/internal/termrender"
)

// memoryVerbs are the memory commands, each with the number of ids it
// takes.
var memoryVerbs = map[string]int{"add": 0, "list": 0, "show": 1, "verify": 1, "supersede": 1, "forget": 1}

// cmdMemory runs oraculo memory VERB: the long-term memory of the index,
// in SQLite only for now.
func cmdMemory(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usageError{errors.New(msg("memory-usage"))}
	}
	verb := args[0]
	nids, ok := memoryVerbs[verb]
	if !ok {
		if verb == "-h" || verb == "--help" {
			fmt.Fprintln(stdout, msg("memory-usage"))
			return nil
		}
		return usageError{errors.New(msg("memory-usage"))}
	}
	fs, ixf := newIndexFlags("memory "+verb, stderr)
	var scope, key, value, source, chunk *string
	var verified, stated, all, asJSON, chain *bool
	switch verb {
	case "add":
		scope = fs.String("scope", "", "campaign, dm, player:NAME or session:N")
		key = fs.String("key", "", "what the entry is about")
		value = fs.String("value", "", "what the table settled")
		source = fs.String("source", "", "the note it comes from (default: stated by you, today)")
		chunk = fs.String("chunk", "", "the chunk it comes from (a hit's or a citation's id): its note is the source")
		stated = fs.Bool("stated", false, "stated by you, today (the default without --source)")
		verified = fs.Bool("verified", false, "store it verified, not as a hypothesis")
	case "list":
		scope = fs.String("scope", "", "only this scope")
		all = fs.Bool("all", false, "also the entries superseded")
		asJSON = fs.Bool("json", false, "print as JSON")
	case "show", "verify":
		asJSON = fs.Bool("json", false, "print as JSON")
	case "forget":
		chain = fs.Bool("chain", false, "also every entry it superseded, one after another")
	case "supersede":
		value = fs.String("value", "", "the new value")
		source = fs.String("source", "", "the note it comes from (default: stated by you, today)")
		chunk = fs.String("chunk", "", "the chunk it comes from (a hit's or a citation's id): its note is the source")
		verified = fs.Bool("verified", false, "store it verified, not as a hypothesis")
	}
	ids, err := parse(fs, args[1:])
	if err != nil {
		return err
	}
	if len(ids) != nids {
		return usageError{errors.New(msg("memory-needs-id", verb))}
	}
	if stated != nil && *stated && (*source != "" || *chunk != "") {
		return usageError{errors.New(msg("memory-stated-source"))}
	}
	if scope != nil && *scope != "" {
		if err := oraculo.ValidMemoryScope(*scope); err != nil {
			return usageError{err}
		}
	}
	eng, err := openEngine(ctx, ixf, true, oraculo.EmbedderConfig{}, stderr)
	if err != nil {
		return err
	}
	defer eng.Close()
	switch verb {
	case "add":
		note, err := memoryNote(ctx, eng, *source)
		if err != nil {
			return err
		}
		m, err := eng.AddMemory(ctx, oraculo.MemoryInput{Scope: *scope, Key: *key, Value: *value, Note: note, Chunk: *chunk, Verified: *verified, Author: memoryAuthor()})
		if err != nil {
			return memoryError(err)
		}
		fmt.Fprintln(stdout, msg("memory-added", m.ID, m.Scope, termrender.Escape(m.Key), m.Status))
	case "list":
		ms, err := eng.Memories(ctx, *scope, *all)
		if err != nil {
			return memoryError(err)
		}
		if *asJSON {
			return writeJSON(stdout, ms)
		}
		printMemories(stdout, ms)
	case "show":
		chain, err := eng.MemoryChain(ctx, ids[0])
		if err != nil {
			return memoryError(err)
		}
		if *asJSON {
			return writeJSON(stdout, chain)
		}
		printMemories(stdout, chain)
	case "verify":
		m, err := eng.VerifyMemory(ctx, ids[0])
		if err != nil {
			return memoryError(err)
		}
		if *asJSON {
			return writeJSON(stdout, m)
		}
		fmt.Fprintln(stdout, msg("memory-verified", m.ID))
	case "supersede":
		note, err := memoryNote(ctx, eng, *source)
		if err != nil {
			return err
		}
		m, err := eng.SupersedeMemory(ctx, ids[0], oraculo.MemoryInput{Value: *value, Note: note, Chunk: *chunk, Verified: *verified, Author: memoryAuthor()})
		if err != nil {
			return memoryError(err)
		}
		fmt.Fprintln(stdout, msg("memory-superseded", m.ID, ids[0]))
	case "forget":
		forget := []string{ids[0]}
		if *chain {
			ms, err := eng.MemoryChain(ctx, ids[0])
			if err != nil {
				return memoryError(err)
			}
			forget = forget[:0]
			for _, m := range ms {
				forget = append(forget, m.ID)
			}
		}
		for _, id := range forget {
			if err := eng.ForgetMemory(ctx, id); err != nil {
				return memoryError(err)
			}
			fmt.Fprintln(stdout, msg("memory-forgotten", id))
		}
	}
	return nil
}

// memoryError says in the user's language what the engine refused.
func memoryError(err error) error {
	switch {
	case errors.Is(err, oraculo.ErrMemoryForbidden):
		return errors.New(msg("memory-forbidden", engineText(err.Error())))
	}
	return err
}

// memoryAuthor is who runs the command: $USER, else "dm".
func memoryAuthor() string {
	if u := strings.TrimSpace(os.Getenv("USER")); u != "" {
		return u
	}
	return "dm"
}

// memoryNote is the note path of a --source: the file's path under one of
// the index's roots, or a note path as the index has it.
func memoryNote(ctx context.Context, eng *oraculo.Engine, file string) (string, error) {
	if file == "" {
		return "", nil
	}
	roots, err := eng.Roots(ctx)
	if err != nil {
		return "", err
	}
	if abs, err := filepath.Abs(file); err == nil {
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			abs = real
		}
		for _, root := range roots {
			rel, err := filepath.Rel(root, abs)
			if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				continue
			}
			if _, err := eng.Note(ctx, filepath.ToSlash(rel)); err == nil {
				return filepath.ToSlash(rel), nil
			}
		}
	}
	if _, err := eng.Note(ctx, filepath.ToSlash(file)); err == nil {
		return filepath.ToSlash(file), nil
	}
	return "", errors.New(msg("memory-source-not-indexed", file))
}

// printMemories prints entries one a line: id, status, scope, key, value,
// and what it superseded.
func printMemories(w io.Writer, ms []oraculo.Memory) {
	if len(ms) == 0 {
		fmt.Fprintln(w, msg("memory-none"))
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, m := range ms {
		state := m.Status
		if !m.Active {
			state += ", " + msg("memory-inactive")
		}
		if m.Stale {
			state += ", " + msg("memory-stale")
		}
		esc := termrender.Escape
		line := fmt.Sprintf("%s\t%s\t%s\t%s\t%s\t%s", m.ID, state, m.Scope, esc(m.Key), esc(m.Value), esc(m.Source))
		if m.Supersedes != "" {
			line += "\t" + msg("memory-supersedes", m.Supersedes)
		}
		fmt.Fprintln(tw, line)
	}
	tw.Flush()
}
