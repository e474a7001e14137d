package main

import (
	"bytes"
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

// The plugin test's vault: a public note whose cited sentence lies after
// front matter and headings, and a DM-only note (in the secret folder
// "DM") that answers the same question.
const (
	pluginQuestion     = "¿Quién es Harbin Wester?"
	pluginPublicFile   = "Lugares/Puertogris.md"
	pluginPublicText   = "Harbin Wester regenta la taberna del Ancla Rota."
	pluginSecretFile   = "DM/Secretos.md"
	pluginSecretText   = "Harbin Wester es en realidad el espía del archiduque Malvek."
	pluginPublicLabel  = "Lugares: Puertogris"
	pluginSecretLabel  = "DM: Secretos"
	pluginDirFromHere  = "../../obsidian"
	pluginRequiredFile = "node_modules/esbuild/package.json"
)

// TestObsidianPlugin builds the Obsidian plugin (obsidian/, installed by
// .ci/run with npm ci) twice, checks that the three files come out
// byte for byte the same, and runs its node tests (obsidian/test) against
// a real `oraculo serve` with a DM and a player token over a vault with a
// DM-only note, its chat model a fake Ollama that streams: ask, stream,
// open a citation's passage, Test connection, Ask about this note, and
// that a player never gets the DM-only note. Without node, npm or the
// plugin's packages it is skipped, unless ORACULO_REQUIRE_NODE=1 (CI),
// where it fails.
func TestObsidianPlugin(t *testing.T) {
	if testing.Short() {
		t.Skip("the Obsidian plugin's build and node tests take a while: run without -short")
	}
	node, npm := pluginTools(t)
	t.Setenv("ORACULO_TOKENS", "")
	builds := [2]string{t.TempDir(), t.TempDir()}
	for _, out := range builds {
		pluginRun(t, []string{"OUTDIR=" + out}, npm, "run", "--silent", "build")
	}
	for _, name := range []string{"main.js", "manifest.json", "styles.css"} {
		a, errA := os.ReadFile(filepath.Join(builds[0], name))
		b, errB := os.ReadFile(filepath.Join(builds[1], name))
		if errA != nil || errB != nil || len(a) == 0 || !bytes.Equal(a, b) {
			t.Fatalf("npm run build is not reproducible for %s (%d and %d bytes; %v, %v)", name, len(a), len(b), errA, errB)
		}
	}

	vault := pluginVault(t)
	db := filepath.Join(t.TempDir(), "o.db")
	if _, errOut, code := runCLI(t, "", "ingest", "--db", db, "--quiet", vault); code != 0 {
		t.Fatalf("ingest: %s", errOut)
	}
	tokens := filepath.Join(t.TempDir(), "tokens.yaml")
	token := func(name, role string) string {
		out, errOut, code := runCLI(t, "", "token", "add", name, "--role", role, "--tokens", tokens)
		if code != 0 {
			t.Fatalf("token add %s: %s", name, errOut)
		}
		return strings.TrimSpace(out)
	}
	dm, player := token("dm", "dm"), token("ana", "player")
	chat := chattest.NewOllama(t, pluginReply)
	chat.Cut(chattest.Runes(4))
	url, stdout, _, _ := startServe(t, "--db", db, "--tokens", tokens, "--chat", "ollama", "--chat-url", chat.URL, "--chat-model", "fake")
	waitFor(t, stdout, tokens)

	fixture, err := json.Marshal(map[string]any{
		"url": strings.TrimSuffix(url, "/"), "dm": dm, "player": player, "vault": vault, "question": pluginQuestion,
		"public": map[string]string{"file": pluginPublicFile, "sentence": pluginPublicText},
		"secret": map[string]string{"file": pluginSecretFile, "sentence": pluginSecretText},
	})
	if err != nil {
		t.Fatal(err)
	}
	tests, _ := filepath.Glob(filepath.Join(pluginDirFromHere, "test", "*.test.cjs"))
	if len(tests) == 0 {
		t.Fatal("no tests in obsidian/test")
	}
	for i := range tests {
		tests[i] = filepath.Join("test", filepath.Base(tests[i]))
	}
	out := pluginRun(t, []string{"PLUGIN_DIR=" + builds[0], "ORACULO_PLUGIN_FIXTURE=" + string(fixture)},
		node, append([]string{"--test", "--test-reporter=spec"}, tests...)...)
	if !strings.Contains(out, "skipped 0") {
		t.Errorf("node skipped tests:\n%s", out)
	}
	t.Logf("%s", out)
}

// pluginTools finds node and npm and the plugin's installed packages, or
// skips (fails under ORACULO_REQUIRE_NODE=1) saying what is missing.
func pluginTools(t *testing.T) (node, npm string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err == nil {
		npm, err = exec.LookPath("npm")
	}
	if err == nil {
		_, err = os.Stat(filepath.Join(pluginDirFromHere, pluginRequiredFile))
	}
	if err != nil {
		msg := "node, npm or the Obsidian plugin's packages are missing (install nodejs and npm, then npm ci --prefix obsidian), or set ORACULO_REQUIRE_NODE=1 to fail instead: %v"
		if os.Getenv("ORACULO_REQUIRE_NODE") == "1" {
			t.Fatalf(msg, err)
		}
		t.Skipf(msg, err)
	}
	return node, npm
}

// pluginRun runs name with args in obsidian/, env added to the
// environment, within two minutes, and returns its output; it fails the
// test when the command fails.
func pluginRun(t *testing.T, env []string, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c := exec.CommandContext(ctx, name, args...)
	c.Dir = pluginDirFromHere
	c.Env = append(os.Environ(), env...)
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(c.Args, " "), err, out)
	}
	return string(out)
}

// pluginVault writes the test's vault and returns its folder.
func pluginVault(t *testing.T) string {
	dir := t.TempDir()
	writeNote(t, filepath.Join(dir, filepath.FromSlash(pluginPublicFile)), "---\ntitle: Puertogris\ntags: [lugar]\n---\n# Puertogris\n\n## El puerto\n\n"+
		"Puertogris es una ciudad portuaria del norte. Su faro se apagó\ndurante la tormenta de invierno.\n\n"+
		"## La taberna del Ancla Rota\n\n"+pluginPublicText+" Vende mapas falsos a los viajeros que llegan al puerto.\n")
	writeNote(t, filepath.Join(dir, filepath.FromSlash(pluginSecretFile)), "# Secretos de Harbin\n\n"+pluginSecretText+" Guarda las cartas cifradas bajo la barra.\n")
	return dir
}

// pluginReply is the fake model: it cites the public note, and the DM-only
// one only when it was shown it, as a model answers from what it is shown.
func pluginReply(c chattest.Call) string {
	if c.JSON {
		return `{"ids":[]}`
	}
	prompt := c.Text("system") + c.Text("user")
	out := pluginPublicText + " [" + pluginPublicLabel + "]"
	if strings.Contains(prompt, pluginSecretLabel) {
		out += " " + pluginSecretText + " [" + pluginSecretLabel + "]"
	}
	return out
}
