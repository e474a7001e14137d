package answer

import (
	"strings"
	"testing"
)

func TestSettled(t *testing.T) {
	tests := []struct {
		name, text, want string // want: the settled prefix
	}{
		{"nothing yet", "La Dama Velada", ""},
		{"a sentence not yet followed", "Huyó [Sesión 12]. ", ""},
		{"a sentence followed by the next", "Huyó [Sesión 12]. Luego", "Huyó [Sesión 12]."},
		{"the last of several", "Huyó [Sesión 12]. Volvió [Sesión 13]. Y", "Huyó [Sesión 12]. Volvió [Sesión 13]."},
		{"a citation after the full stop waits for it", "Huyó. [Sesión 12", ""},
		{"then settles after it", "Huyó. [Sesión 12] Luego", "Huyó. [Sesión 12]"},
		{"a citation mid-sentence does not end it", "Huyó [Sesión 12] y luego", ""},
		{"closing quotes and emphasis", "Dijo «basta.» **Fin.** Y", "Dijo «basta.» **Fin.**"},
		{"a line ends a list item", "- Nix [Fichas: Nix]\n- Anika", "- Nix [Fichas: Nix]"},
		{"an open code span", "Escribe `a. b", ""},
		{"a closed code span", "Escribe `a. b`. Luego", "Escribe `a. b`."},
		{"an open fence", "Mira. Luego\n```\nx. y\n", "Mira. Luego"},
		{"an open bracket on the line", "Visto [en la. sesión", ""},
		{"a bracket of an earlier line", "Visto [en la\nsesión. Luego", "Visto [en la\nsesión."},
		{"an escaped bracket", "Visto \\[sic. Luego", "Visto \\[sic."},
		{"a question", "¿Huyó? Sí [Sesión 12]! Y", "¿Huyó? Sí [Sesión 12]!"},
	}
	for _, tt := range tests {
		if got := tt.text[:Settled(tt.text)]; got != tt.want {
			t.Errorf("%s: Settled(%q) = %q, want %q", tt.name, tt.text, got, tt.want)
		}
	}
}

// checkSettled checks the promise of Settled on every prefix of a whole
// answer: what verifying the settled part gives starts what verifying the
// whole gives, with the same citations and segments.
func checkSettled(t *testing.T, whole string, ctx Context) {
	t.Helper()
	all := Verify(whole, ctx)
	last := 0
	for l := 0; l <= len(whole); l++ {
		n := Settled(whole[:l])
		if n < last {
			t.Fatalf("Settled went back from %d to %d at %d of %q", last, n, l, whole)
		}
		last = n
		if n == 0 {
			continue
		}
		part := Verify(whole[:n], ctx)
		if !strings.HasPrefix(all.Text, part.Text) {
			t.Fatalf("verified %q (settled of %q) does not start %q", part.Text, whole[:l], all.Text)
		}
		// The valid citations, in order (invalid ones removed in a later
		// round of Verify are listed after the first round's).
		got, want := validLabels(part.Citations), validLabels(all.Citations)
		if len(got) > len(want) || strings.Join(got, "|") != strings.Join(want[:len(got)], "|") {
			t.Fatalf("valid citations of %q are %q, of the whole %q", whole[:n], got, want)
		}
		var joined strings.Builder
		for i, s := range part.Segments {
			if i < len(part.Segments)-1 && s.Text != all.Segments[i].Text {
				t.Fatalf("segment %d of %q is %q, of the whole %q", i, whole[:n], s.Text, all.Segments[i].Text)
			}
			joined.WriteString(s.Text)
		}
		if joined.String() != part.Text {
			t.Fatalf("segments of %q join to %q", part.Text, joined.String())
		}
	}
}

func TestSettledVerifiesAsTheWhole(t *testing.T) {
	ctx := campaignContext(t)
	for _, whole := range []string{
		"La Dama Velada les pidió el Cáliz [Sesión 38 › La Dama Velada]. Nix desconfió [FICHAS:NIX]. Fin.",
		"El archiduque murió [Sesión 119]. Huyó al norte [Sesión 12 (Diario)]. Anika [1] es molinera [NPCs: Anika del Molino].",
		"Murió. [Sesión 119] Huyó. [sesion 12 (diario)] Luego [a [Sesión 119] b]. `[x]. y` \\[y\\] [z](http://u) fin.\n- [ ] t\n[r]: https://x\n",
		"## Resumen\n\n- Nix [Fichas: Nix]\n- Anika [NPCs: Anika del Molino]\n\n```\n[Sesión 119]. x\n```\nLas notas no dicen más.",
		"Anika[Sesión 119]miente. ¿Y? «Sí.» [Fichas: Nix] **No.** [Sesión 119], dijo.",
	} {
		checkSettled(t, whole, ctx)
	}
}

func validLabels(cs []Citation) []string {
	var out []string
	for _, c := range cs {
		if c.Valid {
			out = append(out, c.Label)
		}
	}
	return out
}

// On every prefix of a whole answer, what CheckSettled shows starts what
// checking the whole gives, marks included, and never shows a sentence
// unmarked that the whole marks unsupported.
func TestCheckSettledStartsTheWhole(t *testing.T) {
	ctx := campaignContext(t)
	for _, whole := range []string{
		"Nix desconfió [FICHAS:NIX]. Además, el dragón huyó al norte [Sesión 999]. Anika es molinera [NPCs: Anika del Molino].",
		"El dragón huyó\nal norte [Sesión 119]. Luego volvió a casa sin nada. Fin del asunto [Sesión 12 (Diario)]",
		"Sin fuente alguna aquí. Tampoco aquí hay nada. Por fin algo [Sesión 119].\n\n- Uno dos tres\n- Nix miente mucho [Fichas: Nix]\n- Al final nada cierto",
		"Murió. [Sesión 119] El Sr. López huyó al norte. y luego volvió [Sesión 119]. Y se fue sin decir nada.",
	} {
		all := Check(whole, ctx, "es")
		unmarked := map[string]bool{}
		for i, s := range all.Segments {
			if s.Supported != nil && !*s.Supported {
				unmarked[strings.TrimSpace(s.Text)] = true
				if i+1 >= len(all.Segments) || all.Segments[i+1].Mark != MarkUnsupported {
					t.Fatalf("%q: unsupported %q without its mark", whole, s.Text)
				}
			}
		}
		if len(unmarked) == 0 {
			t.Fatalf("%q: nothing marked in %q", whole, all.Text)
		}
		for l := 0; l <= len(whole); l++ {
			part := CheckSettled(whole[:l], ctx, "es")
			if !strings.HasPrefix(all.Text, part.Text) {
				t.Fatalf("shown %q (of %q) does not start %q", part.Text, whole[:l], all.Text)
			}
			var joined strings.Builder
			for i, s := range part.Segments {
				joined.WriteString(s.Text)
				if i < len(part.Segments)-1 && (s.Text != all.Segments[i].Text || s.Mark != all.Segments[i].Mark) {
					t.Fatalf("segment %d of %q is %+v, of the whole %+v", i, whole[:l], s, all.Segments[i])
				}
				if s.Supported != nil && (i+1 == len(part.Segments) || part.Segments[i+1].Mark != MarkUnsupported) {
					t.Fatalf("%q shows the unsupported %q without its mark", whole[:l], s.Text)
				}
			}
			if joined.String() != part.Text {
				t.Fatalf("segments of %q join to %q", part.Text, joined.String())
			}
		}
	}
}
