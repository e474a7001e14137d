package ingest

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/oraculo/oraculo/store"
)

// TestHashes checks the chunk hashes against the texts they stand for.
func TestHashes(t *testing.T) {
	sha := func(s string) string {
		sum := sha256.Sum256([]byte(s))
		return hex.EncodeToString(sum[:])
	}
	for _, c := range []struct {
		headings []string
		text     string
	}{
		{nil, ""},
		{nil, "El grupo cruzó el puente."},
		{[]string{}, "texto"},
		{[]string{"Sesiones"}, "El grupo cruzó el puente."},
		{[]string{"Sesiones", "Sesión 12 — El puente", ""}, "Norkiel cojeaba.\n\n¿Qué pasó?"},
		{[]string{"Título"}, ""},
	} {
		if got, want := textHash(c.text), sha(c.text); got != want {
			t.Errorf("textHash(%q) = %s, want %s", c.text, got, want)
		}
		if got, want := embedHash(c.headings, c.text), sha(store.EmbedText(c.headings, c.text)); got != want {
			t.Errorf("embedHash(%q, %q) = %s, want %s", c.headings, c.text, got, want)
		}
	}
}
