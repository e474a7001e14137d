package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/internal/termrender"
	"github.com/oraculo/oraculo/server"
)

// cmdToken manages the bearer tokens of `oraculo serve`: add NAME --role,
// list, remove NAME; and rotate-links replaces the key of its links.
func cmdToken(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "rotate-links" {
		return cmdRotateLinks(ctx, args[1:], stdout, stderr)
	}
	if len(args) == 0 || (args[0] != "add" && args[0] != "list" && args[0] != "remove") {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
			fmt.Fprintln(stdout, msg("token-usage"))
			return nil
		}
		return usageError{errors.New(msg("token-usage"))}
	}
	verb := args[0]
	fs, db := newFlags("token "+verb, stderr)
	tokensFlag := fs.String("tokens", "", "tokens file (default $ORACULO_TOKENS, else tokens.yaml beside the index)")
	role := fs.String("role", "", "add: the token's role, player or dm")
	asJSON := fs.Bool("json", false, "list: print as JSON")
	names, err := parse(fs, args[1:])
	if err != nil {
		return err
	}
	path, _ := tokensPath(*tokensFlag, *db)
	switch verb {
	case "add":
		if len(names) != 1 {
			return usageError{errors.New(msg("token-needs-name", verb))}
		}
		if *role != oraculo.RolePlayer && *role != oraculo.RoleDM {
			return usageError{errors.New(msg("token-bad-role", *role))}
		}
		tok, err := server.AddToken(path, names[0], *role)
		if err != nil {
			return err
		}
		// The token alone on stdout, for scripts; the advice on stderr.
		fmt.Fprintln(stdout, tok)
		fmt.Fprintln(stderr, msg("token-added", names[0], *role, path))
	case "remove":
		if len(names) != 1 {
			return usageError{errors.New(msg("token-needs-name", verb))}
		}
		if err := server.RemoveToken(path, names[0]); err != nil {
			return err
		}
		fmt.Fprintln(stdout, msg("token-removed", names[0], path))
	case "list":
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
		if *asJSON {
			if list == nil {
				list = []server.TokenInfo{}
			}
			return writeJSON(stdout, list)
		}
		if len(list) == 0 {
			fmt.Fprintln(stdout, msg("token-none", path))
			return nil
		}
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintf(tw, "%s\t%s\n", msg("col-name"), msg("col-role"))
		for _, e := range list {
			fmt.Fprintf(tw, "%s\t%s\n", termrender.Escape(e.Name), e.Role)
		}
		return tw.Flush()
	}
	return nil
}
