package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/internal/termrender"
)

// memoryIDs are the memory commands, each with the number of ids it
// takes.
var memoryIDs = map[string]int{"memory add": 0, "memory list": 0, "memory show": 1, "memory verify": 1, "memory supersede": 1, "memory forget": 1}

// memoryFlags are the flags of oraculo memory VERB, the long-term memory
// of the index: each verb defines its own, the others stay nil.
type memoryFlags struct {
	verb                                 string // "memory add"
	index                                *indexFlags
	scope, key, value, source, chunk     *string
	verified, stated, all, asJSON, chain *bool
}

func newMemoryFlags(name string, stderr io.Writer) (*flag.FlagSet, *memoryFlags) {
	fs, ixf := newIndexFlags(name, stderr)
	f := &memoryFlags{verb: name, index: ixf}
	switch name {
	case "memory add":
		f.scope = fs.String("scope", "", "campaign, dm, player:NAME or session:N")
		f.key = fs.String("key", "", "what the entry is about")
		f.value = fs.String("value", "", "what the table settled")
		f.source = fs.String("source", "", "the note it comes from (default: stated by you, today)")
		f.chunk = fs.String("chunk", "", "the chunk it comes from (a hit's or a citation's id): its note is the source")
		f.stated = fs.Bool("stated", false, "stated by you, today (the default without --source)")
		f.verified = fs.Bool("verified", false, "store it verified, not as a hypothesis")
	case "memory list":
		f.scope = fs.String("scope", "", "only this scope")
		f.all = fs.Bool("all", false, "also the entries superseded")
		f.asJSON = fs.Bool("json", false, "print as JSON")
	case "memory show", "memory verify":
		f.asJSON = fs.Bool("json", false, "print as JSON")
	case "memory forget":
		f.chain = fs.Bool("chain", false, "also every entry it superseded, one after another")
	case "memory supersede":
		f.value = fs.String("value", "", "the new value")
		f.source = fs.String("source", "", "the note it comes from (default: stated by you, today)")
		f.chunk = fs.String("chunk", "", "the chunk it comes from (a hit's or a citation's id): its note is the source")
		f.verified = fs.Bool("verified", false, "store it verified, not as a hypothesis")
	}
	return fs, f
}

// open checks the verb's arguments and flags, then opens the index, in
// SQLite only for now.
func (f *memoryFlags) open(ctx context.Context, ids []string, stderr io.Writer) (*oraculo.Engine, error) {
	if len(ids) != memoryIDs[f.verb] {
		return nil, usageError{errors.New(msg("memory-needs-id", strings.TrimPrefix(f.verb, "memory ")))}
	}
	if f.stated != nil && *f.stated && (*f.source != "" || *f.chunk != "") {
		return nil, usageError{errors.New(msg("memory-stated-source"))}
	}
	if f.scope != nil && *f.scope != "" {
		if err := oraculo.ValidMemoryScope(*f.scope); err != nil {
			return nil, usageError{err}
		}
	}
	return openEngine(ctx, f.index, true, oraculo.EmbedderConfig{}, stderr)
}

// with opens the index for the verb and runs do on it.
func (f *memoryFlags) with(ctx context.Context, ids []string, s stdio, do func(eng *oraculo.Engine) error) error {
	eng, err := f.open(ctx, ids, s.err)
	if err != nil {
		return err
	}
	defer eng.Close()
	return do(eng)
}

// print prints v as JSON with --json, else as text does.
func (f *memoryFlags) print(w io.Writer, v any, text func()) error {
	if *f.asJSON {
		return writeJSON(w, v)
	}
	text()
	return nil
}

// memoryAdd adds an entry.
func memoryAdd(ctx context.Context, f *memoryFlags, ids []string, s stdio) error {
	return f.with(ctx, ids, s, func(eng *oraculo.Engine) error {
		note, err := memoryNote(ctx, eng, *f.source)
		if err != nil {
			return err
		}
		m, err := eng.AddMemory(ctx, oraculo.MemoryInput{Scope: *f.scope, Key: *f.key, Value: *f.value, Note: note, Chunk: *f.chunk, Verified: *f.verified, Author: memoryAuthor()})
		if err != nil {
			return memoryError(err)
		}
		fmt.Fprintln(s.out, msg("memory-added", m.ID, m.Scope, termrender.Escape(m.Key), m.Status))
		return nil
	})
}

// memoryList lists the active entries the reader may see.
func memoryList(ctx context.Context, f *memoryFlags, ids []string, s stdio) error {
	return f.with(ctx, ids, s, func(eng *oraculo.Engine) error {
		ms, err := eng.Memories(ctx, *f.scope, *f.all)
		if err != nil {
			return memoryError(err)
		}
		return f.print(s.out, ms, func() { printMemories(s.out, ms) })
	})
}

// memoryShow shows an entry and those it superseded.
func memoryShow(ctx context.Context, f *memoryFlags, ids []string, s stdio) error {
	return f.with(ctx, ids, s, func(eng *oraculo.Engine) error {
		chain, err := eng.MemoryChain(ctx, ids[0])
		if err != nil {
			return memoryError(err)
		}
		return f.print(s.out, chain, func() { printMemories(s.out, chain) })
	})
}

// memoryVerify marks an entry verified.
func memoryVerify(ctx context.Context, f *memoryFlags, ids []string, s stdio) error {
	return f.with(ctx, ids, s, func(eng *oraculo.Engine) error {
		m, err := eng.VerifyMemory(ctx, ids[0])
		if err != nil {
			return memoryError(err)
		}
		return f.print(s.out, m, func() { fmt.Fprintln(s.out, msg("memory-verified", m.ID)) })
	})
}

// memorySupersede replaces an active entry with a new value.
func memorySupersede(ctx context.Context, f *memoryFlags, ids []string, s stdio) error {
	return f.with(ctx, ids, s, func(eng *oraculo.Engine) error {
		note, err := memoryNote(ctx, eng, *f.source)
		if err != nil {
			return err
		}
		m, err := eng.SupersedeMemory(ctx, ids[0], oraculo.MemoryInput{Value: *f.value, Note: note, Chunk: *f.chunk, Verified: *f.verified, Author: memoryAuthor()})
		if err != nil {
			return memoryError(err)
		}
		fmt.Fprintln(s.out, msg("memory-superseded", m.ID, ids[0]))
		return nil
	})
}

// memoryForget deletes an entry, with --chain those it superseded too.
func memoryForget(ctx context.Context, f *memoryFlags, ids []string, s stdio) error {
	return f.with(ctx, ids, s, func(eng *oraculo.Engine) error {
		forget := []string{ids[0]}
		if *f.chain {
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
			fmt.Fprintln(s.out, msg("memory-forgotten", id))
		}
		return nil
	})
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
