package embed

import "testing"

// TestNewFromConfig: each provider builds its embedder (hashing at 1024
// dimensions unless told), none builds nothing, and a config that cannot
// work says how to fix it, in the words the command line shows.
func TestNewFromConfig(t *testing.T) {
	for _, c := range []struct {
		cfg     Config
		wantID  string
		wantErr string
	}{
		{Config{}, "", ""},
		{Config{Provider: "none"}, "", ""},
		{Config{Provider: "hashing"}, NewHashing(DefaultHashingTermsDims).ID(), ""},
		{Config{Provider: "hashing", Dims: 64}, NewHashing(64).ID(), ""},
		{Config{Provider: "OpenAI", URL: "http://127.0.0.1:8080/v1", Model: "e5", Dims: 256}, "openai/e5@256", ""},
		{Config{Provider: "openai", Model: "m"}, "", "the openai embedder needs a base URL (--embed-url or $ORACULO_EMBED_URL), e.g. http://127.0.0.1:8080/v1"},
		{Config{Provider: "openai", URL: "http://h/v1"}, "", "the openai embedder needs a model name (--embed-model or $ORACULO_EMBED_MODEL)"},
		{Config{Provider: "word2vec"}, "", `unknown embedder "word2vec" (ollama, openai, hashing or none)`},
	} {
		em, err := New(c.cfg)
		switch {
		case c.wantErr != "":
			if err == nil || err.Error() != c.wantErr {
				t.Errorf("%+v: error %v, want %q", c.cfg, err, c.wantErr)
			}
		case err != nil:
			t.Errorf("%+v: %v", c.cfg, err)
		case c.wantID == "" && em != nil:
			t.Errorf("%+v: built %s, want no embedder", c.cfg, em.ID())
		case c.wantID != "" && (em == nil || em.ID() != c.wantID):
			t.Errorf("%+v: built %v, want %s", c.cfg, em, c.wantID)
		}
	}
	t.Setenv("ORACULO_EMBEDDER", "Hashing")
	t.Setenv("ORACULO_EMBED_MODEL", "v1")
	t.Setenv("ORACULO_EMBED_URL", "")
	t.Setenv("ORACULO_EMBED_DIMS", "128")
	if c := ConfigFromEnv(); c != (Config{Provider: "hashing", Model: "v1", Dims: 128}) {
		t.Errorf("from the environment: %+v", c)
	}
}
