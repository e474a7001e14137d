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
	"time"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/index"
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
	var scope, key, value, source *string
	var verified, all, asJSON *bool
	switch verb {
	case "add":
		scope = fs.String("scope", "", "campaign, player:NAME or session:N")
		key = fs.String("key", "", "what the entry is about")
		value = fs.String("value", "", "what the table settled")
		source = fs.String("source", "", "the note it comes from (default: stated by you, today)")
		verified = fs.Bool("verified", false, "store it verified, not as a hypothesis")
	case "list":
		scope = fs.String("scope", "", "only this scope")
		all = fs.Bool("all", false, "also the entries superseded")
		asJSON = fs.Bool("json", false, "print as JSON")
	case "show":
		asJSON = fs.Bool("json", false, "print as JSON")
	case "supersede":
		value = fs.String("value", "", "the new value")
	}
	ids, err := parse(fs, args[1:])
	if err != nil {
		return err
	}
	if len(ids) != nids {
		return usageError{errors.New(msg("memory-needs-id", verb))}
	}
	l, err := ixf.location()
	if err != nil {
		return err
	}
	if l.cluster() {
		return errors.New(msg("memory-no-cluster"))
	}
	// Which entries a player may see is not settled yet (issue 18's
	// scopes): until it is, a player's view shows none rather than all.
	if oraculo.RoleFrom(ctx) == oraculo.RolePlayer {
		return usageError{errors.New(msg("memory-dm-only"))}
	}
	db := oraculo.DBPath(l.db)
	if _, err := os.Stat(db); err != nil {
		return notIndexed{msg("memory-no-index", db)}
	}
	ix, err := index.Open(ctx, db)
	if err != nil {
		return err
	}
	defer ix.Close()
	switch verb {
	case "add":
		src, err := memorySource(ctx, ix, *source)
		if err != nil {
			return err
		}
		m, err := ix.AddMemory(ctx, index.Memory{Scope: *scope, Key: *key, Value: *value, Source: src, Author: memoryAuthor()}, *verified)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, msg("memory-added", m.ID, m.Scope, m.Key, m.Status))
	case "list":
		if *scope != "" {
			if err := index.ValidMemoryScope(*scope); err != nil {
				return usageError{err}
			}
		}
		ms, err := ix.Memories(ctx, *scope, *all)
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(stdout, append([]index.Memory{}, ms...))
		}
		printMemories(stdout, ms)
	case "show":
		chain, err := ix.MemoryChain(ctx, ids[0])
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(stdout, chain)
		}
		printMemories(stdout, chain)
	case "verify":
		if err := ix.VerifyMemory(ctx, ids[0], ""); err != nil {
			return err
		}
		fmt.Fprintln(stdout, msg("memory-verified", ids[0]))
	case "supersede":
		m, err := ix.SupersedeMemory(ctx, ids[0], *value, index.Memory{Author: memoryAuthor()}, false)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, msg("memory-superseded", m.ID, ids[0]))
	case "forget":
		if err := ix.ForgetMemory(ctx, ids[0]); err != nil {
			return err
		}
		fmt.Fprintln(stdout, msg("memory-forgotten", ids[0]))
	}
	return nil
}

// memoryAuthor is who runs the command: $USER, else "dm".
func memoryAuthor() string {
	if u := strings.TrimSpace(os.Getenv("USER")); u != "" {
		return u
	}
	return "dm"
}

// memorySource is the source of a new entry: the stored version of the
// note file, or without one a statement by the author today.
func memorySource(ctx context.Context, ix *index.Index, file string) (string, error) {
	if file == "" {
		return "stated:dm:" + memoryAuthor() + "@" + time.Now().UTC().Format(time.DateOnly), nil
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return "", fmt.Errorf("resolving %q: %w", file, err)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	roots, err := ix.Roots(ctx)
	if err != nil {
		return "", err
	}
	for _, root := range roots {
		rel, err := filepath.Rel(root, abs)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		states, err := ix.DocumentStates(ctx, root)
		if err != nil {
			return "", err
		}
		p := filepath.ToSlash(rel)
		if s, ok := states[p]; ok {
			return "note:" + p + "@" + s.SHA256, nil
		}
	}
	return "", errors.New(msg("memory-source-not-indexed", file))
}

// printMemories prints entries one a line: id, status, scope, key, value,
// and what it superseded.
func printMemories(w io.Writer, ms []index.Memory) {
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
		line := fmt.Sprintf("%s\t%s\t%s\t%s\t%s\t%s", m.ID, state, m.Scope, m.Key, m.Value, m.Source)
		if m.Supersedes != "" {
			line += "\t" + msg("memory-supersedes", m.Supersedes)
		}
		fmt.Fprintln(tw, line)
	}
	tw.Flush()
}
