package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/oraculo/oraculo/link"
	"github.com/oraculo/oraculo/mcpserver"
)

// mcpFlags are mcp's flags.
type mcpFlags struct {
	index         *indexFlags
	models        *modelFlags
	publicURL     *string
	obsidianVault *string
}

func newMCPFlags(name string, stderr io.Writer) (*flag.FlagSet, *mcpFlags) {
	fs, ix := newIndexFlags(name, stderr)
	f := &mcpFlags{index: ix, models: newModelFlags(fs)}
	f.publicURL = fs.String("public-url", "", "where oraculo serve answers for this index: the answers' citations become links to their passages there (default: plain labels)")
	f.obsidianVault = fs.String("obsidian-vault", "", "the name of the Obsidian vault that holds the notes: with --public-url, each source also links to its note there")
	return fs, f
}

// cmdMCP serves the index over the Model Context Protocol on stdin and
// stdout until the client hangs up. Stdout carries only the protocol;
// warnings go to stderr. Every tool reads as the role in ctx: the DM's
// (everything) unless the command was run with --as player.
func cmdMCP(ctx context.Context, f *mcpFlags, rest []string, s stdio) error {
	ix, models, publicURL, obsidianVault := f.index, f.models, f.publicURL, f.obsidianVault
	stdin, stdout, stderr := s.in, s.out, s.err
	if len(rest) > 0 {
		return usageError{fmt.Errorf("%s", msg("mcp-args", strings.Join(rest, " ")))}
	}
	eng, err := models.open(ctx, ix, warnTo(stderr))
	if err != nil {
		return err
	}
	defer eng.Close()
	// The command's own streams rather than mcp.StdioTransport's
	// os.Stdin/os.Stdout: the same in the binary, and drivable by tests.
	t := &mcp.IOTransport{Reader: io.NopCloser(stdin), Writer: nopWriteCloser{stdout}}
	var opts []mcpserver.Option
	if *publicURL != "" {
		key, err := ix.linkKey(ctx)
		if err != nil {
			return err
		}
		// A key rotated while the client runs signs the links from then on.
		keys := link.NewKeyring(key)
		stopKeys := watchLinkKey(ctx, ix, keys, linkKeyPollEvery, slog.New(slog.NewTextHandler(stderr, nil)))
		defer stopKeys()
		opts = append(opts, mcpserver.WithLinks(&link.Maker{Keys: keys, Base: *publicURL, ObsidianVault: *obsidianVault}))
	}
	err = mcpserver.NewServer(eng, version, opts...).Run(ctx, t)
	if errors.Is(err, io.EOF) {
		return nil // the client closed stdin: the normal end
	}
	return err
}

// nopWriteCloser is a writer whose Close does nothing: the transport must
// not close the command's stdout.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
