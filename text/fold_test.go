package text

import (
	"testing"
	"unicode/utf8"
)

func TestFold(t *testing.T) {
	tests := []struct{ in, want, keepEnye string }{
		{"sesión", "sesion", "sesion"},
		{"Sesión 12", "sesion 12", "sesion 12"},
		{"SESIÓN", "sesion", "sesion"},
		{"ses\u0301ion", "sesion", "sesion"}, // decomposed
		{"pingüino", "pinguino", "pinguino"},
		{"garçon crème Ærø", "garcon creme aero", "garcon creme aero"},
		{"Año Peñaurora", "ano penaurora", "año peñaurora"},
		{"An\u0303o", "ano", "año"}, // decomposed ñ
		{"Straße STRAẞE", "strasse strasse", "strasse strasse"},
		{"łódź œuvre ſ ı þorn", "lodz oeuvre s i thorn", "lodz oeuvre s i thorn"},
		{"1ª 2º", "1a 2o", "1a 2o"},
		{"ΛΌΓΟΣ λόγος", "λογοσ λογοσ", "λογοσ λογοσ"},
		{"ＡＢＣ１２３", "abc123", "abc123"},
		{"：", "：", "："},                                  // fullwidth punctuation is kept
		{"Иван Грозный", "иван грозныи", "иван грозныи"}, // й is и with a breve
		{"हिंदी", "हिंदी", "हिंदी"},                      // marks of other scripts stay
		{"nix", "nix", "nix"},
		{"a\xffb", "a\uFFFDb", "a\uFFFDb"},
		{"", "", ""},
	}
	for _, tt := range tests {
		if got := Fold(tt.in); got != tt.want {
			t.Errorf("Fold(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got := FoldKeepEnye(tt.in); got != tt.keepEnye {
			t.Errorf("FoldKeepEnye(%q) = %q, want %q", tt.in, got, tt.keepEnye)
		}
		if got := string(AppendFold([]byte("x "), tt.in)); got != "x "+tt.want {
			t.Errorf("AppendFold(%q) = %q, want %q", tt.in, got, "x "+tt.want)
		}
	}
}

// The table path and the general path agree on every rune of the table.
func TestFoldLatinTable(t *testing.T) {
	for r := rune(latinFoldFirst); r <= latinFoldLast; r++ {
		for _, keep := range []bool{false, true} {
			s := string(r) + "\u0300" // forces the general path
			general := string(appendFoldGeneral(nil, s, keep))
			if got := fold(string(r), keep) + fold("\u0300", keep); got != general {
				t.Errorf("fold(%U, %v) = %q, general path %q", r, keep, got, general)
			}
		}
	}
}

func TestFoldASCIIDoesNotAllocate(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() { Fold("sesion 12 del puente") }); n != 0 {
		t.Errorf("Fold of lowercase ASCII allocates %v times", n)
	}
}

func checkFold(t *testing.T, s string) {
	t.Helper()
	f, k := Fold(s), FoldKeepEnye(s)
	if !utf8.ValidString(f) || !utf8.ValidString(k) {
		t.Fatalf("folding %q gives invalid UTF-8: %q, %q", s, f, k)
	}
	if Fold(f) != f {
		t.Fatalf("Fold not idempotent: %q → %q → %q", s, f, Fold(f))
	}
	if FoldKeepEnye(k) != k {
		t.Fatalf("FoldKeepEnye not idempotent: %q → %q → %q", s, k, FoldKeepEnye(k))
	}
	if Fold(k) != f {
		t.Fatalf("Fold(FoldKeepEnye(%q)) = %q, want Fold = %q", s, Fold(k), f)
	}
	if a := string(AppendFold([]byte("pre"), s)); a != "pre"+f {
		t.Fatalf("AppendFold(%q) = %q, want %q", s, a, "pre"+f)
	}
}
