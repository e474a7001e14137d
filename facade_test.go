package oraculo_test

import (
	"context"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/chat"
	"github.com/oraculo/oraculo/chat/chattest"
)

func TestSnippetSkipsHeadingsAndSessionMarks(t *testing.T) {
	cases := map[string]string{
		"# Sesión 12\n\n## Llegada\nEl grupo llega a Phandalin.": "El grupo llega a Phandalin.",
		"Sesión 4\nVesper compra una espada.":                    "Vesper compra una espada.",
		"  \nNada más que texto.":                                "Nada más que texto.",
		"# Solo un título":                                       "# Solo un título",
	}
	for text, want := range cases {
		if got := oraculo.Snippet(text); got != want {
			t.Errorf("Snippet(%q) = %q, want %q", text, got, want)
		}
	}
}

func TestProbes(t *testing.T) {
	ctx := context.Background()
	em, err := oraculo.NewEmbedder(oraculo.EmbedderConfig{Provider: oraculo.ProviderHashing, Dims: 64})
	if err != nil {
		t.Fatal(err)
	}
	if dims, err := oraculo.ProbeEmbedder(ctx, em, "¿Quién cruzó el puente?"); err != nil || dims != 64 {
		t.Errorf("ProbeEmbedder = %d, %v; want 64 dimensions", dims, err)
	}
	srv := chattest.NewOllama(t, func(chattest.Call) string { return "listo" })
	m := chat.NewOllama(chat.OllamaConfig{BaseURL: srv.URL, Model: "m"})
	if reply, err := oraculo.ProbeChat(ctx, m, "Responde solo con la palabra: listo"); err != nil || reply != "listo" {
		t.Errorf("ProbeChat = %q, %v; want listo", reply, err)
	}
	calls := srv.Calls()
	if len(calls) != 1 || calls[0].MaxTokens != 16 {
		t.Errorf("the chat probe sent %+v, want one call of at most 16 tokens", calls)
	}
	srv.Fail(chattest.Fault{Status: 500})
	if _, err := oraculo.ProbeChat(ctx, m, "hola"); err == nil {
		t.Error("a failing chat server probed fine")
	}
}
