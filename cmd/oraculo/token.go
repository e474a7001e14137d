package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/internal/termrender"
	"github.com/oraculo/oraculo/server"
)

// tokenFlags are the flags of oraculo token add, list and remove: the
// bearer tokens of `oraculo serve`.
type tokenFlags struct {
	verb   string // "add", "list" or "remove"
	db     *string
	tokens *string
	role   *string
	asJSON *bool
}

func newTokenFlags(name string, stderr io.Writer) (*flag.FlagSet, *tokenFlags) {
	fs, db := newFlags(name, stderr)
	f := &tokenFlags{verb: strings.TrimPrefix(name, "token "), db: db}
	f.tokens = fs.String("tokens", "", "tokens file (default $ORACULO_TOKENS, else tokens.yaml beside the index)")
	f.role = fs.String("role", "", "add: the token's role, player or dm")
	f.asJSON = fs.Bool("json", false, "list: print as JSON")
	return fs, f
}

// path is the tokens file.
func (f *tokenFlags) path() string {
	path, _ := tokensPath(*f.tokens, *f.db)
	return path
}

// tokenAdd makes a token for the one name given.
func tokenAdd(_ context.Context, f *tokenFlags, names []string, s stdio) error {
	path := f.path()
	if len(names) != 1 {
		return usageError{errors.New(msg("token-needs-name", f.verb))}
	}
	if *f.role != oraculo.RolePlayer && *f.role != oraculo.RoleDM {
		return usageError{errors.New(msg("token-bad-role", *f.role))}
	}
	tok, err := server.AddToken(path, names[0], *f.role)
	if err != nil {
		return err
	}
	// The token alone on stdout, for scripts; the advice on stderr.
	fmt.Fprintln(s.out, tok)
	fmt.Fprintln(s.err, msg("token-added", names[0], *f.role, path))
	return nil
}

// tokenRemove removes the token of the one name given.
func tokenRemove(_ context.Context, f *tokenFlags, names []string, s stdio) error {
	path := f.path()
	if len(names) != 1 {
		return usageError{errors.New(msg("token-needs-name", f.verb))}
	}
	if err := server.RemoveToken(path, names[0]); err != nil {
		return err
	}
	fmt.Fprintln(s.out, msg("token-removed", names[0], path))
	return nil
}

// tokenList lists the tokens: name and role, never the token.
func tokenList(_ context.Context, f *tokenFlags, names []string, s stdio) error {
	path := f.path()
	if len(names) != 0 {
		return usageError{errors.New(msg("token-usage"))}
	}
	var list []server.TokenInfo
	if _, statErr := os.Stat(path); statErr == nil {
		t, err := server.LoadTokens(path)
		if err != nil {
			return err
		}
		list = t.List()
	}
	if *f.asJSON {
		if list == nil {
			list = []server.TokenInfo{}
		}
		return writeJSON(s.out, list)
	}
	if len(list) == 0 {
		fmt.Fprintln(s.out, msg("token-none", path))
		return nil
	}
	tw := tabwriter.NewWriter(s.out, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "%s\t%s\n", msg("col-name"), msg("col-role"))
	for _, e := range list {
		fmt.Fprintf(tw, "%s\t%s\n", termrender.Escape(e.Name), e.Role)
	}
	return tw.Flush()
}
