package server

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/oraculo/oraculo/chat/chattest"
)

// TestOpenAINodeClient drives the OpenAI endpoint with the official openai
// npm package (testdata/js-clients, installed by .ci/run with
// npm ci): a model looked up by id, a plain and a streamed completion with
// usage, the citations' links opened without a token (as a browser does),
// a chat model's answer streamed as it is verified with the whole Answer
// asked for, every event stream's longest raw line (at most 16 KiB), and
// an Open WebUI title task. Without node or the package it is
// skipped, unless ORACULO_REQUIRE_NODE=1 (CI), where it fails.
func TestOpenAINodeClient(t *testing.T) {
	dir := filepath.Join("..", "testdata", "js-clients")
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join(dir, "node_modules", "openai", "package.json"))
	}
	if err != nil {
		if os.Getenv("ORACULO_REQUIRE_NODE") == "1" {
			t.Fatalf("node or the openai package is missing (npm ci --prefix %s): %v", dir, err)
		}
		t.Skipf("node or the openai package is missing (npm ci --prefix %s): %v", dir, err)
	}
	_, model := fakeChat(t, func(chattest.Call) string { return rawAnswer })
	eng := testEngine(t, model)
	tokens, player, _ := testTokens(t)
	ts, _ := testServer(t, Config{Engine: eng, Tokens: tokens})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "openai.mjs", ts.URL+"/v1", player)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	outb, err := cmd.Output()
	if err != nil {
		t.Fatalf("the openai client failed: %v\n%s", err, stderr.String())
	}
	type use struct {
		Prompt     int    `json:"prompt_tokens"`
		Completion int    `json:"completion_tokens"`
		Total      int    `json:"total_tokens"`
		Unit       string `json:"oraculo_unit"`
		Source     string `json:"oraculo_source"`
	}
	var out struct {
		Model string `json:"model"`
		Plain struct {
			Content string `json:"content"`
			Usage   *use   `json:"usage"`
			Finish  string `json:"finish"`
		} `json:"plain"`
		Stream struct {
			Content string `json:"content"`
			Usage   *use   `json:"usage"`
			Chunks  int    `json:"chunks"`
		} `json:"stream"`
		Generated struct {
			Content   string `json:"content"`
			Citations []struct {
				Label string `json:"label"`
				URL   string `json:"url"`
			} `json:"citations"`
			Detail bool `json:"detail"`
		} `json:"generated"`
		GeneratedPlain struct {
			Content   string `json:"content"`
			Sentences int    `json:"sentences"`
			Supported int    `json:"supported"`
		} `json:"generatedPlain"`
		LongestLine int    `json:"longestLine"`
		Streams     int    `json:"streams"`
		Title       string `json:"title"`
		Links       []struct {
			Status  int  `json:"status"`
			Passage bool `json:"passage"`
			Marked  bool `json:"marked"`
		} `json:"links"`
	}
	if err := json.Unmarshal(outb, &out); err != nil {
		t.Fatalf("the client printed %q: %v", outb, err)
	}
	if out.Model != ModelIDExtractive {
		t.Errorf("models.retrieve: %q", out.Model)
	}
	if !strings.Contains(out.Plain.Content, "Norkiel") || out.Plain.Finish != "stop" || out.Plain.Usage == nil ||
		*out.Plain.Usage != (use{Unit: "tokens", Source: "none"}) { // extractive: no model tokens
		t.Errorf("plain completion: %+v", out.Plain)
	}
	if out.Stream.Content != out.Plain.Content || out.Stream.Usage == nil || *out.Stream.Usage != (use{Unit: "tokens", Source: "none"}) || out.Stream.Chunks < 3 {
		t.Errorf("streamed completion: %+v (plain %q)", out.Stream, out.Plain.Content)
	}
	if len(out.Links) < 2 {
		t.Errorf("citation links in the plain completion: %+v", out.Links)
	}
	for _, l := range out.Links {
		if l.Status != 200 || !l.Passage {
			t.Errorf("a citation link did not open its passage: %+v", l)
		}
	}
	if got := passageLink.ReplaceAllString(out.Generated.Content, "[$1]"); got != wantContent || len(out.Generated.Citations) != 1 || out.Generated.Citations[0].URL == "" || !out.Generated.Detail {
		t.Errorf("generated streamed completion: %+v", out.Generated)
	}
	// The sentence whose invented citation was removed comes marked, whole
	// and streamed (wantContent), and counted.
	if got := passageLink.ReplaceAllString(out.GeneratedPlain.Content, "[$1]"); got != wantContent || out.GeneratedPlain.Sentences != 2 || out.GeneratedPlain.Supported != 1 {
		t.Errorf("generated completion: %+v", out.GeneratedPlain)
	}
	t.Logf("%d event streams, longest line %d bytes", out.Streams, out.LongestLine)
	if out.Streams != 2 || out.LongestLine == 0 || out.LongestLine > maxLine {
		t.Errorf("%d streams, longest line %d bytes (at most %d)", out.Streams, out.LongestLine, maxLine)
	}
	if out.Title != `{"title":"Quién cayó en combate"}` {
		t.Errorf("title task: %q", out.Title)
	}
}
