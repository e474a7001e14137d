package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestMCPTypeScriptSDK connects the official MCP TypeScript SDK
// (testdata/js-clients, installed by .ci/run with npm ci) to `oraculo mcp`
// over stdio, a real process (this test binary as the command), and to
// `oraculo serve`'s /mcp over HTTP; each lists the tools and calls ask and
// memory_list. Without node or the SDK it is skipped, unless
// ORACULO_REQUIRE_NODE=1 (CI), where it fails.
func TestMCPTypeScriptSDK(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "js-clients")
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json"))
	}
	if err != nil {
		if os.Getenv("ORACULO_REQUIRE_NODE") == "1" {
			t.Fatalf("node or the MCP SDK is missing (npm ci --prefix %s): %v", dir, err)
		}
		t.Skipf("node or the MCP SDK is missing (npm ci --prefix %s): %v", dir, err)
	}
	t.Setenv("ORACULO_TOKENS", "")
	db := ingestSmall(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	url, _, _, _ := startServe(t, "--db", db)
	for name, args := range map[string][]string{
		"stdio": {"stdio", self, "mcp", "--db", db, "--public-url", url},
		"http":  {"http", strings.TrimSuffix(url, "/") + "/mcp"},
	} {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, node, append([]string{"mcp.mjs"}, args...)...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "ORACULO_TEST_MAIN=1")
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("the MCP client failed: %v\n%s", err, stderr.String())
			}
			var got struct {
				Server     string         `json:"server"`
				Tools      []string       `json:"tools"`
				IsError    bool           `json:"isError"`
				Text       string         `json:"text"`
				Structured map[string]any `json:"structured"`
				Memory     struct {
					IsError    bool `json:"isError"`
					Structured struct {
						Entries []any `json:"entries"`
					} `json:"structured"`
				} `json:"memory"`
			}
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("the client printed %q: %v", out, err)
			}
			if want := []string{"ask", "check", "compendium", "memory_add", "memory_forget", "memory_list", "memory_show", "memory_supersede", "memory_verify", "read_chunk", "read_note", "recap", "search", "threads", "timeline"}; got.Server != "oraculo" || !reflect.DeepEqual(got.Tools, want) {
				t.Errorf("server %q, tools %v, want %v", got.Server, got.Tools, want)
			}
			answer, _ := got.Structured["answer"].(string)
			if got.IsError || !strings.Contains(answer, "Galerna") || !strings.Contains(answer, "[Sesión 1]") || got.Text == "" {
				t.Errorf("ask: error %v, answer %q, text %.200q", got.IsError, answer, got.Text)
			}
			if got.Memory.IsError || got.Memory.Structured.Entries == nil || len(got.Memory.Structured.Entries) != 0 {
				t.Errorf("memory_list: %+v, want no error and no entries", got.Memory)
			}
			// The text's citations are links to the passages on the
			// server, which open without a token.
			openPassageLinks(t, got.Text, "Galerna")
		})
	}
}
