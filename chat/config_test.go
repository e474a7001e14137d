package chat

import (
	"testing"
	"time"
)

// TestNewFromConfig: each provider builds its client, none builds
// nothing, and a config that cannot work says how to fix it, in the words
// the command line shows.
func TestNewFromConfig(t *testing.T) {
	for _, c := range []struct {
		cfg     Config
		wantID  string
		wantErr string
	}{
		{Config{}, "", ""},
		{Config{Provider: "NONE"}, "", ""},
		{Config{Provider: "ollama", Model: "qwen2.5:7b"}, "ollama/qwen2.5:7b", ""},
		{Config{Provider: "openai", URL: "http://127.0.0.1:8080/v1", Model: "m"}, "openai/m", ""},
		{Config{Provider: "openai", Model: "m"}, "", "the openai chat model needs a base URL (--chat-url or $ORACULO_CHAT_URL), e.g. http://127.0.0.1:8080/v1"},
		{Config{Provider: "openai", URL: "http://h/v1"}, "", "the openai chat model needs a model name (--chat-model or $ORACULO_CHAT_MODEL)"},
		{Config{Provider: "claude"}, "", `unknown chat provider "claude" (ollama, openai or none)`},
	} {
		m, err := New(c.cfg)
		switch {
		case c.wantErr != "":
			if err == nil || err.Error() != c.wantErr {
				t.Errorf("%+v: error %v, want %q", c.cfg, err, c.wantErr)
			}
		case err != nil:
			t.Errorf("%+v: %v", c.cfg, err)
		case c.wantID == "" && m != nil:
			t.Errorf("%+v: built %s, want no model", c.cfg, m.ID())
		case c.wantID != "" && (m == nil || m.ID() != c.wantID):
			t.Errorf("%+v: built %v, want %s", c.cfg, m, c.wantID)
		}
	}
}

// TestConfigFromEnvAndWithLocal: timeouts are read from the environment,
// one that is not a duration makes New refuse the config, also once
// laid over a stored one, which keeps its provider, model and URL.
func TestConfigFromEnvAndWithLocal(t *testing.T) {
	t.Setenv("ORACULO_CHAT", "Ollama")
	t.Setenv("ORACULO_CHAT_MODEL", "m")
	t.Setenv("ORACULO_CHAT_URL", "")
	t.Setenv("ORACULO_CHAT_TIMEOUT", "20s")
	t.Setenv("ORACULO_CHAT_FIRST_TOKEN_TIMEOUT", "")
	t.Setenv("ORACULO_CHAT_IDLE_TIMEOUT", "soon")
	c := ConfigFromEnv()
	if c.Provider != "ollama" || c.Model != "m" || c.Timeout != 20*time.Second {
		t.Fatalf("read %+v", c)
	}
	want := `$ORACULO_CHAT_IDLE_TIMEOUT "soon": want a duration such as 20s or 2m`
	if _, err := New(c); err == nil || err.Error() != want {
		t.Fatalf("New: %v, want %q", err, want)
	}
	c.APIKey = "k"
	stored := Config{Provider: "openai", Model: "s", URL: "http://h/v1"}.WithLocal(c)
	if stored.Provider != "openai" || stored.Model != "s" || stored.APIKey != "k" || stored.Timeout != 20*time.Second {
		t.Fatalf("stored with local: %+v", stored)
	}
	if _, err := New(stored); err == nil || err.Error() != want {
		t.Fatalf("New(stored): %v, want %q", err, want)
	}
}
