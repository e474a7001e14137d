package answer

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzVerify checks that Verify never panics and that its output is
// consistent and stable: verifying the verified text changes nothing.
func FuzzVerify(f *testing.F) {
	for _, s := range []string{
		"La Dama Velada les pidió el Cáliz [Sesión 38 › La Dama Velada].",
		"Murió [Sesión 119]. Huyó [sesion 12 (diario); Fichas: Nix, NPCs: Anika del Molino] [1].",
		"[a [Sesión 119] b] `[x]` \\[y\\] [z](http://u) - [ ] t\n[r]: https://x\n[^1] […]",
		"Anika[Sesión 119]miente. ¿Y? Las notas no dicen nada.\n# Título\n| a | b |",
		"[[[[Sesión 3]]]] [", "]]][[[", "```\n[Sesión 119]\n```", "\xff[\xfe]",
	} {
		f.Add(s)
	}
	ctx := campaignContext(f)
	f.Fuzz(func(t *testing.T, text string) {
		v := Verify(text, ctx)
		invalid := 0
		for _, c := range v.Citations {
			if c.Valid != (c.Evidence != nil) {
				t.Fatalf("inconsistent citation %+v", c)
			}
			if !c.Valid {
				invalid++
			}
		}
		if invalid != len(v.Removed) {
			t.Fatalf("%d invalid, %d removed", invalid, len(v.Removed))
		}
		again := Verify(v.Text, ctx)
		if again.Text != v.Text || len(again.Removed) != 0 {
			t.Fatalf("not stable:\n%q\n→ %q\n→ %q (removed %+v)", text, v.Text, again.Text, again.Removed)
		}
	})
}

// FuzzExtractive checks that extractive answers and abstentions over any
// notes verify cleanly, and that the other text functions never panic.
func FuzzExtractive(f *testing.F) {
	f.Add("¿Qué pasó con Nix?", "Nix perdió la espada [maldita]. ¿Dónde? En el río.", "Fichas: Nix")
	f.Add("¿y luego?", "- [ ] `a` [b](c) **Sesión 3**\n| x |", "Sesión 3 › [x]")
	f.Add("what happened to the duke", "The duke fled. The duke hid.", "`a")
	f.Add("¿Dónde?", "\xffá. É.\n\n# ", "")
	es := spanishTerms(f)
	f.Fuzz(func(t *testing.T, question, note, label string) {
		if !utf8.ValidString(note) {
			note = strings.ToValidUTF8(note, " ")
		}
		cands := []Candidate{
			{ID: 1, Label: label, File: "a.md", Text: note, Annotation: note},
			{ID: 2, Label: label, File: "b.md", Text: note + " " + question},
			{ID: 3, Label: label, File: "b.md", Text: question},
		}
		ctx := Assemble(cands, AssembleOptions{})
		for _, it := range ctx.Items() {
			if !citableLabel(it.Label) {
				t.Fatalf("label %q cannot be cited", it.Label)
			}
		}
		for _, lang := range []string{"es", "en"} {
			if got, ok := Extractive(question, ctx, es, lang); ok {
				if v := Verify(got, ctx); len(v.Removed) != 0 || v.Text != got || len(v.Uncited) != 0 {
					t.Fatalf("extractive answer %q does not verify: %+v", got, v)
				}
			}
			a := Abstention(lang, ctx)
			if v := Verify(a, ctx); len(v.Removed) != 0 || v.Text != a || len(v.Uncited) != 0 {
				t.Fatalf("abstention %q does not verify: %+v", a, v)
			}
			_ = Prompt(lang, question, ctx, nil)
		}
		FollowUp(question, note, nil)
		SaysNotInNotes(note)
	})
}

func FuzzSettled(f *testing.F) {
	for _, s := range []string{
		"Huyó [Sesión 12 (Diario)]. Volvió. [Fichas: Nix] Luego [Sesión 119]. Fin.",
		"[a [Sesión 119] b]. `[x]. y` \\[y\\] [z](http://u). fin.\n- [ ] t\n[r]: https://x\n",
		"```\n[Sesión 119]. x\n```\nMurió. [Sesión 119]\n\n¿Y? «Sí.» [", "Murió [Sesión 119] . [Fichas: Nix]: x. y",
	} {
		f.Add(s)
	}
	ctx := campaignContext(f)
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 600 {
			text = text[:600] // every prefix is verified: keep it quick
		}
		checkSettled(t, text, ctx)
	})
}
