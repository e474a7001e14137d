package mcpserver_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/oraculo/oraculo/mcpserver"
)

// TestStdioCommand builds the oraculo binary, ingests the notes with it,
// and talks MCP to "oraculo mcp" over its stdin and stdout, as a desktop
// client would: as the DM by default, and as a player with --as player.
func TestStdioCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build oraculo with")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "oraculo")
	if out, err := exec.Command(goTool, "build", "-o", bin, "github.com/oraculo/oraculo/cmd/oraculo").CombinedOutput(); err != nil {
		t.Fatalf("building oraculo: %v\n%s", err, out)
	}
	notesDir := writeNotes(t, dir)
	db := filepath.Join(dir, "o.db")
	ingest := command(bin, "ingest", "--quiet", "--db", db, notesDir)
	if out, err := ingest.CombinedOutput(); err != nil {
		t.Fatalf("oraculo ingest: %v\n%s", err, out)
	}

	for _, tc := range []struct {
		name       string
		args       []string
		wantSecret bool
	}{
		{"dm", []string{"mcp", "--db", db}, true},
		{"player", []string{"mcp", "--db", db, "--as", "player"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := command(bin, tc.args...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
			if err != nil {
				t.Fatalf("connecting to oraculo %s: %v\nstderr: %s", strings.Join(tc.args, " "), err, stderr.String())
			}
			if got := cs.InitializeResult().ServerInfo; got.Name != "oraculo" || got.Version == "" {
				t.Errorf("server info %+v", got)
			}
			var ans mcpserver.AskOutput
			if res := call(t, cs, "ask", map[string]any{"question": "¿Quién vende mapas de las cuevas?"}, &ans); res.IsError || ans.Abstained || len(ans.Citations) == 0 {
				t.Errorf("ask: %+v %s", ans, text(res))
			}
			var out mcpserver.SearchOutput
			call(t, cs, "search", map[string]any{"question": "archimago Zoltan Quimera"}, &out)
			found := slices.ContainsFunc(out.Hits, func(h mcpserver.SearchHit) bool { return strings.HasPrefix(h.File, "DM/") })
			if found != tc.wantSecret {
				t.Errorf("DM-only note found = %v, want %v", found, tc.wantSecret)
			}
			if err := cs.Close(); err != nil {
				t.Errorf("closing: %v\nstderr: %s", err, stderr.String())
			}
			// Warnings go to stderr, never into the protocol on stdout.
			if !strings.Contains(stderr.String(), "chat") {
				t.Errorf("no warning about the missing chat model on stderr: %q", stderr.String())
			}
		})
	}
}

// command runs the binary with the environment's Oráculo settings removed,
// so that a developer's chat model or embedder does not change the test.
func command(bin string, args ...string) *exec.Cmd {
	cmd := exec.Command(bin, args...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "ORACULO_") && !strings.HasPrefix(kv, "OLLAMA_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "ORACULO_UI_LANG=en")
	return cmd
}
