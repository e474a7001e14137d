package text

import "testing"

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"json", "", 4},
		{"jsno", "json", 1},
		{"lnag", "lang", 1},
		{"serach", "search", 1},
		{"ca", "abc", 3},
		{"abcd", "badc", 2},
		{"emerik", "emeric", 1},
		{"valcárcel", "valcarcel", 1},
		{"ñu", "nu", 1},
		{"kitten", "sitting", 3},
	} {
		if got := Distance(c.a, c.b); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := Distance(c.b, c.a); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.b, c.a, got, c.want)
		}
	}
}

func TestCutLineMarkers(t *testing.T) {
	for _, c := range []struct {
		line, want string
		item       bool
	}{
		{"> - [x] Hecho", "Hecho", true},
		{">> cita", "cita", false},
		{"12. Doce", "Doce", true},
		{"1984. Llegaron", "1984. Llegaron", false},
		{"texto", "texto", false},
	} {
		got, item := CutLineMarkers(c.line)
		if got != c.want || item != c.item {
			t.Errorf("CutLineMarkers(%q) = %q, %v; want %q, %v", c.line, got, item, c.want, c.item)
		}
	}
}
