package main

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigFileErrors: each mistake in a config file stops the command
// with one line that names the file, the line and the key, and the key
// meant when one is near; nothing is started.
func TestConfigFileErrors(t *testing.T) {
	t.Setenv("ORACULO_UI_LANG", "en")
	t.Setenv("ORACULO_CONFIG", "")
	dir := t.TempDir()
	cfg := filepath.Join(dir, ConfigFileName)
	for _, c := range []struct {
		name, file string
		want       []string // in the error's line, after "error: FILE"
	}{
		{"a key no command has", "addr: 127.0.0.1:8080\nadr: 0.0.0.0:80\n", []string{":2: ", `"adr" is no option of any command`, `did you mean "addr"?`}},
		{"a key under serve that serve lacks", "serve:\n  addr: 127.0.0.1:0\n  k: 3\n", []string{":3: ", `"k" is no option of serve`}},
		{"a misspelt key under serve", "serve:\n  wacth: true\n", []string{":2: ", `"wacth"`, `did you mean "watch"?`}},
		{"a section no command has", "k: 2\nserv:\n  addr: 127.0.0.1:0\n", []string{":2: ", `"serv" is no command`, `did you mean "serve"?`}},
		{"a boolean that is not", "serve:\n  watch: maybe\n", []string{":2: ", `watch: "maybe" is not true or false`}},
		{"a duration that is not", "\n\nask-timeout: soon\n", []string{":3: ", `ask-timeout: "soon" is not a duration`}},
		{"a number that is not", "serve:\n  max-ask: many\n", []string{":2: ", `max-ask: "many"`}},
		{"a key set twice", "addr: 127.0.0.1:1\ncors: '*'\naddr: 127.0.0.1:2\n", []string{":3: ", `"addr" is set twice (first at line 1)`}},
		{"a mapping for a value", "serve:\n  cors:\n    origin: x\n", []string{":2: ", "cors: give one value or a list, not a mapping"}},
		{"a flag's name as a section", "addr:\n  host: x\n", []string{":1: ", "addr: give one value or a list"}},
		{"an API key", "serve:\n  chat-key: sk-abc\n", []string{":2: ", `"chat-key": API keys are not read from a config file`, "$ORACULO_CHAT_KEY"}},
		{"a list at the top", "- addr\n", []string{":1: ", "a mapping of options to values"}},
		{"not YAML", "addr: 127.0.0.1:0\ncors: a: b\n", []string{": line 2: mapping values are not allowed"}},
	} {
		if err := os.WriteFile(cfg, []byte(c.file), 0o600); err != nil {
			t.Fatal(err)
		}
		_, errOut, code := runCLI(t, "", "serve", "--db", filepath.Join(dir, "o.db"))
		line, _, _ := strings.Cut(errOut, "\n")
		ok := code == 2 && strings.HasPrefix(line, "error: "+cfg)
		for _, w := range c.want {
			ok = ok && strings.Contains(line, w)
		}
		if !ok {
			t.Errorf("%s: exit %d, %q; want exit 2 and a line with %q", c.name, code, errOut, c.want)
		}
	}
}

// TestServeConfigFile: serve takes its settings from oraculo.yaml beside
// the index, or the file --config names: the command line wins over the
// file, the file over the defaults, serve's own section over the top; a
// named file that is missing is an error, an absent oraculo.yaml is not.
func TestServeConfigFile(t *testing.T) {
	t.Setenv("ORACULO_UI_LANG", "en")
	t.Setenv("ORACULO_CONFIG", "")
	t.Setenv("ORACULO_TOKENS", "")
	t.Setenv("ORACULO_ADDR", "")
	db := ingestSmall(t)
	cfg := filepath.Join(filepath.Dir(db), ConfigFileName)
	write := func(path, text string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// The file's address over the default: not loopback, so serve wants
	// tokens and says so about that address.
	write(cfg, "addr: 127.0.0.1:no-port\nserve:\n  addr: 0.0.0.0:9\n  watch: true\nk: 3\n")
	if _, errOut, code := runCLI(t, "", "serve", "--db", db); code != 2 || !strings.Contains(errOut, "0.0.0.0:9 is not a loopback address") {
		t.Errorf("serve's section over the top and the default: exit %d, %q", code, errOut)
	}
	// The command line's address over the file's; the file's watch.
	url, _, _, stop := startServe(t, "--db", db)
	if got := watchState(t, url); got == "off" {
		t.Errorf("watch: true in the file: the server does not watch")
	}
	stop()
	url, _, _, stop = startServe(t, "--db", db, "--watch=false")
	if got := watchState(t, url); got != "off" {
		t.Errorf("--watch=false over the file's watch: true: state %q", got)
	}
	stop()
	// --config names another file; the one beside the index is then unread.
	other := filepath.Join(t.TempDir(), "service.yaml")
	write(other, "serve:\n  addr: 0.0.0.0:10\n")
	if _, errOut, code := runCLI(t, "", "serve", "--db", db, "--config", other); code != 2 || !strings.Contains(errOut, "0.0.0.0:10 is not") {
		t.Errorf("--config FILE: exit %d, %q", code, errOut)
	}
	missing := filepath.Join(t.TempDir(), "none.yaml")
	if _, errOut, code := runCLI(t, "", "serve", "--db", db, "--config", missing); code != 2 || !strings.Contains(errOut, missing) {
		t.Errorf("--config naming a missing file: exit %d, %q", code, errOut)
	}
	// No oraculo.yaml beside the index: the defaults.
	os.Remove(cfg)
	url, _, _, stop = startServe(t, "--db", db)
	if got := watchState(t, url); got != "off" {
		t.Errorf("no config file: watch state %q", got)
	}
	stop()
	// $ORACULO_ADDR sets the default address (a container's image does);
	// the file wins over it.
	t.Setenv("ORACULO_ADDR", "0.0.0.0:11")
	if _, errOut, code := runCLI(t, "", "serve", "--db", db); code != 2 || !strings.Contains(errOut, "0.0.0.0:11 is not") {
		t.Errorf("$ORACULO_ADDR: exit %d, %q", code, errOut)
	}
	write(cfg, "addr: 0.0.0.0:12\n")
	if _, errOut, code := runCLI(t, "", "serve", "--db", db); code != 2 || !strings.Contains(errOut, "0.0.0.0:12 is not") {
		t.Errorf("the file's address over $ORACULO_ADDR: exit %d, %q", code, errOut)
	}
}

// watchState is the watcher's state that the server at url reports.
func watchState(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url + "api/health")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var h struct {
		Watch struct {
			State string `json:"state"`
		} `json:"watch"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&h); err != nil {
		t.Fatal(err)
	}
	return h.Watch.State
}

// TestConfigFileExposedPassword: a URL with a password in a file every
// user may read is warned about, with the chmod that fixes it; the same
// file readable by its owner only is not.
func TestConfigFileExposedPassword(t *testing.T) {
	t.Setenv("ORACULO_UI_LANG", "en")
	t.Setenv("ORACULO_CONFIG", "")
	dir := t.TempDir()
	cfg := filepath.Join(dir, ConfigFileName)
	for _, c := range []struct {
		mode os.FileMode
		text string
		warn bool
	}{
		{0o644, "chat-url: http://ana:s3cret@127.0.0.1:1/\n", true},
		{0o600, "chat-url: http://ana:s3cret@127.0.0.1:1/\n", false},
		{0o644, "chat-url: http://127.0.0.1:1/\n", false},
	} {
		os.Remove(cfg)
		if err := os.WriteFile(cfg, []byte(c.text), c.mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(cfg, c.mode); err != nil { // past the umask
			t.Fatal(err)
		}
		_, errOut, _ := runCLI(t, "", "stats", "--db", filepath.Join(dir, "o.db"))
		warned := strings.Contains(errOut, cfg+":1: chat-url holds a password") && strings.Contains(errOut, "chmod 600 "+cfg)
		if warned != c.warn {
			t.Errorf("mode %o, %q: warned %v, want %v: %q", c.mode, c.text, warned, c.warn, errOut)
		}
	}
}

// TestConfigFileExample: the example that docs/oraculo.example.yaml gives
// is a valid config file for serve: no error, no warning, and its values
// set serve's flags.
func TestConfigFileExample(t *testing.T) {
	t.Setenv("ORACULO_UI_LANG", "en")
	fs, f := newServeFlags("serve", io.Discard)
	if err := fs.Parse([]string{"--config", "../../docs/oraculo.example.yaml"}); err != nil {
		t.Fatal(err)
	}
	warnings, err := applyConfig(fs)
	if err != nil || len(warnings) > 0 {
		t.Fatalf("docs/oraculo.example.yaml: %v, warnings %q", err, warnings)
	}
	if *f.addr != "127.0.0.1:8080" || !*f.watching.on || *f.cors != "app://obsidian.md" || *f.index.db != "/var/lib/oraculo/oraculo.db" {
		t.Errorf("the example's values: addr %q, watch %v, cors %q, db %q", *f.addr, *f.watching.on, *f.cors, *f.index.db)
	}
}
