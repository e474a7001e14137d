package memory_test

import (
	"testing"

	"github.com/oraculo/oraculo/memory"
)

func TestIntent(t *testing.T) {
	for _, tc := range []struct{ line, intent, rest string }{
		{"Recuerda que Nix es aliada.", memory.IntentRemember, "Nix es aliada"},
		{"¡recuerda: críticos dobles!", memory.IntentRemember, "críticos dobles"},
		{"remember that the bridge fell", memory.IntentRemember, "the bridge fell"},
		{"olvida lo de la posada", memory.IntentForget, "la posada"},
		{"Forget about Nix?", memory.IntentForget, "Nix"},
		{"olvida ", "", ""},
		{"recuerda que ...", "", ""},
		{"¿Qué recuerda Nix?", "", ""},
		{"¿Quién es Nix?", "", ""},
	} {
		intent, rest := memory.Intent(tc.line)
		if intent != tc.intent || rest != tc.rest {
			t.Errorf("Intent(%q) = %q, %q; want %q, %q", tc.line, intent, rest, tc.intent, tc.rest)
		}
	}
}

func TestKey(t *testing.T) {
	for _, tc := range []struct{ text, key, value string }{
		{"Críticos: se tiran los dados dos veces", "críticos", "se tiran los dados dos veces"},
		{"Nix es aliada de Kleb desde la sesión 3", "nix es aliada de", "Nix es aliada de Kleb desde la sesión 3"},
		{"Nix, aliada", "nix, aliada", "Nix, aliada"},
		{"uno dos tres cuatro cinco seis: valor", "uno dos tres cuatro", "uno dos tres cuatro cinco seis: valor"},
		{"clave:", "clave:", "clave:"},
	} {
		key, value := memory.Key(tc.text)
		if key != tc.key || value != tc.value {
			t.Errorf("Key(%q) = %q, %q; want %q, %q", tc.text, key, value, tc.key, tc.value)
		}
	}
}
