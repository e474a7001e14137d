package embed

import (
	"context"
	"strings"
	"testing"

	"github.com/oraculo/oraculo/internal/storedconfig"
)

// TestStoredHashing: the hashing embedder an index keeps comes back with
// its size, analysed unless its model is "v1".
func TestStoredHashing(t *testing.T) {
	ctx := context.Background()
	terms := func(s string) []string { return strings.Fields(s) }
	for model, want := range map[string]string{"": "hashing/v2.1-es-512", "v1": "hashing/v1.1-512"} {
		s := storedconfig.Map{}
		if err := SaveConfig(ctx, s, Config{Provider: ProviderHashing, Model: model, Dims: 512, APIKey: "secret"}); err != nil {
			t.Fatal(err)
		}
		c, err := Config{APIKey: "k"}.Resolve(ctx, s)
		if err != nil || c != (Config{Provider: ProviderHashing, Model: model, Dims: 512, APIKey: "k"}) {
			t.Fatalf("Resolve: %+v, %v (kept %v)", c, err, s)
		}
		em, err := NewAnalysed(c, "es", terms)
		if err != nil || em.ID() != want {
			t.Errorf("model %q: built %v, %v; want %s", model, em, err, want)
		}
	}
}
