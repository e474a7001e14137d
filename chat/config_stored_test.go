package chat

import (
	"context"
	"maps"
	"testing"
	"time"

	"github.com/oraculo/oraculo/internal/storedconfig"
)

// TestSaveConfigAndResolve: an index keeps a config's provider, model and
// URL, never its key, and nothing of a custom model; a config naming no
// provider takes them with its own key and timeouts.
func TestSaveConfigAndResolve(t *testing.T) {
	ctx := context.Background()
	s := storedconfig.Map{}
	if err := SaveConfig(ctx, s, Config{Provider: ProviderCustom}); err != nil || len(s) != 0 {
		t.Fatalf("a custom model was kept: %v, %v", s, err)
	}
	if err := SaveConfig(ctx, s, Config{Provider: "openai", Model: "m", URL: "http://h/v1", APIKey: "secret"}); err != nil {
		t.Fatal(err)
	}
	want := storedconfig.Map{"chat_provider": "openai", "chat_model": "m", "chat_url": "http://h/v1"}
	if !maps.Equal(s, want) {
		t.Fatalf("kept %v, want %v", s, want)
	}
	got, err := Config{APIKey: "k", Timeout: time.Second}.Resolve(ctx, s)
	if err != nil || got != (Config{Provider: "openai", Model: "m", URL: "http://h/v1", APIKey: "k", Timeout: time.Second}) {
		t.Errorf("Resolve: %+v, %v", got, err)
	}
	if got, _ := (Config{Provider: "none"}).Resolve(ctx, s); got != (Config{Provider: "none"}) {
		t.Errorf("Resolve of none: %+v", got)
	}
}
