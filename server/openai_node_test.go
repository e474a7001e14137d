package server

import (
	"context"
	"encoding/json"
	"fmt"
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
	outb := runNodeClient(t, "openai.mjs", "openai")
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

// runNodeClient runs a script of testdata/js-clients, which needs the npm
// packages pkgs, against a server over the test notes with a fake chat
// model answering rawAnswer, with a player's token, and returns what it
// printed. Without node or the packages the test is skipped, unless
// ORACULO_REQUIRE_NODE=1 (CI), where it fails.
func runNodeClient(t *testing.T, script string, pkgs ...string) []byte {
	t.Helper()
	dir := filepath.Join("..", "testdata", "js-clients")
	node, err := exec.LookPath("node")
	for _, pkg := range pkgs {
		if err == nil {
			_, err = os.Stat(filepath.Join(dir, "node_modules", filepath.FromSlash(pkg), "package.json"))
		}
	}
	if err != nil {
		msg := fmt.Sprintf("node or an npm package of %s is missing: install Debian's nodejs and npm, then npm ci --prefix %s (or set ORACULO_REQUIRE_NODE=1 to fail instead): %v", script, dir, err)
		if os.Getenv("ORACULO_REQUIRE_NODE") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	_, model := fakeChat(t, func(chattest.Call) string { return rawAnswer })
	eng := testEngine(t, model)
	tokens, player, _ := testTokens(t)
	ts, _ := testServer(t, Config{Engine: eng, Tokens: tokens})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, script, ts.URL+"/v1", player)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s failed: %v\n%s", script, err, stderr.String())
	}
	return out
}

// TestResponsesNodeClient drives POST /v1/responses with the official
// openai npm package's responses.create, whole and streamed, and with the
// AI SDK's default OpenAI provider (createOpenAI, generateText and
// streamText), from testdata/js-clients/responses.mjs: each answers with
// the verified text, its citations as links and url_citation annotations
// (the AI SDK's sources); a conversation goes on by previous_response_id
// and by the AI SDK's item references; an unknown model is a 404
// model_not_found and tools a 400, as the openai client reads them.
func TestResponsesNodeClient(t *testing.T) {
	outb := runNodeClient(t, "responses.mjs", "openai", "ai", "@ai-sdk/openai")
	var out responsesClientOutput
	if err := json.Unmarshal(outb, &out); err != nil {
		t.Fatalf("the client printed %q: %v", outb, err)
	}
	p := out.Plain
	if !strings.HasPrefix(p.ID, "resp_") || p.Status != "completed" || p.OutputText != p.Text || !strings.Contains(p.Text, "Norkiel") ||
		len(p.Citations) != 1 || p.Citations[0].Label != "Sesión 1" || p.Usage["output_tokens"] != 0.0 || p.Usage["oraculo_source"] != "none" { // extractive: no model tokens
		t.Errorf("responses.create: %+v", p)
	}
	checkAnnotations(t, p.Text, p.Annotations)
	checkPassageLinks(t, p.Text, "Norkiel", true)
	// The conversation goes on from a kept response, by its id and (the
	// AI SDK's way) by a reference to its answer.
	if n := out.Next; n.Status != "completed" || n.Previous != p.ID || n.Store || !strings.Contains(n.Text, "cripta") {
		t.Errorf("previous_response_id: %+v", n)
	}
	if f := out.AIFollowUp; strings.Join(f.InputTypes, " ") != "user item_reference user" || !strings.Contains(f.Text, "Norkiel") {
		t.Errorf("the AI SDK's follow-up: %+v", f)
	}
	st := out.Stream
	types := make([]string, len(st.Events))
	for i, e := range st.Events {
		types[i] = e.Type
		if e.Seq != i {
			t.Errorf("event %d (%s) has sequence_number %d", i, e.Type, e.Seq)
		}
	}
	const order = "created in_progress output_item.added content_part.added d+ a+ output_text.done content_part.done output_item.done completed"
	if got := eventOrder(types); got != order || st.Text != st.CompletedText || len(st.Citations) != 1 {
		t.Errorf("responses.create, streamed: events %q (want %q), %+v", got, order, st)
	}
	if got := passageLink.ReplaceAllString(st.Text, "[$1]"); got != wantContent {
		t.Errorf("streamed text:\n%s\nwant:\n%s", got, wantContent)
	}
	checkAnnotations(t, st.Text, st.Annotations)
	for name, r := range map[string]nodeRefusal{"unknown model": out.UnknownModel, "unknown model (chat)": out.UnknownModelChat} {
		if r != (nodeRefusal{404, "model_not_found", "model"}) {
			t.Errorf("%s: %+v", name, r)
		}
	}
	if out.Tools != (nodeRefusal{400, "unsupported_parameter", "tools"}) {
		t.Errorf("tools: %+v", out.Tools)
	}
	checkAISDK(t, out)
}

// checkAISDK checks what the AI SDK saw: generateText's text is the
// verified answer and streamText's has it, both from /v1/responses, each
// source the URL of a citation link in the text.
func checkAISDK(t *testing.T, out responsesClientOutput) {
	t.Helper()
	if got := passageLink.ReplaceAllString(out.AIGenerate.Text, "[$1]"); got != wantContent {
		t.Errorf("generateText:\n%s\nwant:\n%s", got, wantContent)
	}
	if out.AIStreamError != "" || !strings.Contains(out.AIStream.Text, "Norkiel") || out.AIStream.Deltas < 2 {
		t.Errorf("streamText: %+v (error %q)", out.AIStream, out.AIStreamError)
	}
	for name, r := range map[string]aiSDKResult{"generateText": out.AIGenerate, "streamText": out.AIStream} {
		if len(r.Paths) != 1 || r.Paths[0] != "POST /v1/responses" || r.FinishReason != "stop" || (r.Usage.Output == 0) != (name == "streamText") || len(r.Sources) < 2 { // streamText asks the extractive model: no model tokens
			t.Errorf("%s: %+v", name, r)
		}
		for _, s := range r.Sources {
			if s.SourceType != "url" || !strings.Contains(s.URL, "/c/") || s.Title != "Sesión 1 · Sesiones/Campaña.md" || !strings.Contains(r.Text, "("+s.URL+")") {
				t.Errorf("%s: a source %+v not cited in the text", name, s)
			}
		}
	}
}

// nodeRefusal is an error as the openai client reads it.
type nodeRefusal struct {
	Status int    `json:"status"`
	Code   string `json:"code"`
	Param  string `json:"param"`
}

// aiSDKResult is what generateText or streamText gave.
type aiSDKResult struct {
	Text    string `json:"text"`
	Deltas  int    `json:"deltas"`
	Sources []struct {
		SourceType string `json:"sourceType"`
		URL        string `json:"url"`
		Title      string `json:"title"`
	} `json:"sources"`
	FinishReason string `json:"finishReason"`
	Usage        struct {
		Output int `json:"outputTokens"`
	} `json:"usage"`
	Paths []string `json:"paths"`
}

// responsesClientOutput is what responses.mjs prints.
type responsesClientOutput struct {
	Plain struct {
		ID, Status, OutputText, Text string
		Annotations                  []urlCitation
		Citations                    []sourceCitation
		Usage                        map[string]any
	} `json:"plain"`
	Stream struct {
		Events []struct {
			Type string `json:"type"`
			Seq  int    `json:"seq"`
		} `json:"events"`
		Text, CompletedText string
		Annotations         []urlCitation
		Citations           []sourceCitation
	} `json:"stream"`
	Next struct {
		Status, Text, Previous string
		Store                  bool
	} `json:"next"`
	AIFollowUp struct {
		Text       string   `json:"text"`
		InputTypes []string `json:"inputTypes"`
	} `json:"aiFollowUp"`
	UnknownModel     nodeRefusal `json:"unknownModel"`
	UnknownModelChat nodeRefusal `json:"unknownModelChat"`
	Tools            nodeRefusal `json:"tools"`
	AIGenerate       aiSDKResult `json:"aiGenerate"`
	AIStream         aiSDKResult `json:"aiStream"`
	AIStreamError    string      `json:"aiStreamError"`
}
