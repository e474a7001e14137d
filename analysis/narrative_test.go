package analysis

import "testing"

func TestFirstPersonPlural(t *testing.T) {
	tests := []struct {
		lang, q string
		want    bool
	}{
		{"es", "¿Quién nos dio el mapa de las Criptas de Ulmenor?", true},
		{"es", "¿Cuánto nos pagó Rhosyn?", true},
		{"es", "¿Qué encontramos en el cuarto de Maese Corvo?", true},
		{"es", "¿Dónde ENCONTRAMOS por fin a Anika?", true},
		{"es", "¿Qué le regaló Ciriela a Tomás cuando la conocimos?", true},
		{"es", "¿Con qué pagamos a la bruja del pantano?", true},
		{"es", "¿Qué había en la caja que robamos para Vesper?", true},
		{"es", "¿Cuál es nuestra misión?", true},
		{"es", "¿Qué pasó con el archiduque?", false},
		{"es", "¿Qué familiar tiene Fenwick?", false},
		{"es", "¿Quiénes son los primos de Nix?", false},
		{"es", "¿Qué pasó en los últimos días de Leoric?", false},
		{"es", "¿Cuántos ramos de flores había?", false},
		{"es", "¿Quién es Amos?", false},
		{"en", "What did we find in the crypt?", true},
		{"en", "Who paid us?", true},
		{"en", "What happened to the archduke?", false},
		{"fr", "Qu'avons-nous trouvé ?", false},
	}
	for _, tt := range tests {
		if got := FirstPersonPlural(tt.lang, tt.q); got != tt.want {
			t.Errorf("FirstPersonPlural(%q, %q) = %v, want %v", tt.lang, tt.q, got, tt.want)
		}
	}
}
