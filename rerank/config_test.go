package rerank

import (
	"reflect"
	"testing"
)

// TestNewFromConfig: the default kinds leave the choice to the engine
// (nil), "none" keeps the fused order, "cross" builds a cross-encoder with
// the key from the environment, and a config that cannot work says how to
// fix it, in the words the command line shows.
func TestNewFromConfig(t *testing.T) {
	t.Setenv("ORACULO_RERANK_KEY", "env-key")
	for _, c := range []struct {
		cfg     Config
		chat    bool
		want    Reranker
		wantErr string
	}{
		{Config{}, false, nil, ""},
		{Config{Kind: "auto"}, true, nil, ""},
		{Config{Kind: "llm"}, true, nil, ""},
		{Config{Kind: "llm"}, false, nil, "--rerank llm needs a chat model (--chat)"},
		{Config{Kind: "none"}, true, None{}, ""},
		{Config{Kind: "cross", URL: "http://h", Shape: ShapeTEI}, false, &CrossEncoder{BaseURL: "http://h", Shape: ShapeTEI, APIKey: "env-key"}, ""},
		{Config{Kind: "cross"}, false, nil, "the cross-encoder reranker needs a server URL (--rerank-url or $ORACULO_RERANK_URL)"},
		{Config{Kind: "cross", URL: "http://h", Shape: "cohere"}, false, nil, `unknown rerank shape "cohere" (jina or tei)`},
		{Config{Kind: "bm25"}, false, nil, `unknown reranker "bm25" (auto, llm, cross or none)`},
	} {
		r, err := New(c.cfg, c.chat)
		if c.wantErr != "" {
			if err == nil || err.Error() != c.wantErr {
				t.Errorf("%+v: error %v, want %q", c.cfg, err, c.wantErr)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(r, c.want) {
			t.Errorf("%+v (chat %v): %#v, %v; want %#v", c.cfg, c.chat, r, err, c.want)
		}
	}
}
