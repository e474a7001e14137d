package notelink

import (
	"reflect"
	"testing"
)

// TestLinks: an answer's names link to the one note every wikilink of the
// evidence showing them names; a name two links send to different notes,
// or one to no note, stays plain, as does a shown text without a capital
// or one the answer does not say. Longest names first.
func TestLinks(t *testing.T) {
	d := NewDirectory([]Name{{Path: "NPCs/Harbin.md"}, {Path: "NPCs/Ser Morcant.md"}, {Path: "Lugares/Phandalin.md"}})
	evidence := []Written{
		{File: "Sesiones/1.md", Text: "[[Ser Morcant]] y [[NPCs/Harbin|Harbin]] en [[Phandalin]]; [[Harbin|aquí]] [[#Arriba|Arriba]]."},
		{File: "Sesiones/2.md", Text: "[[Lugares/Phandalin|Phandalin]] y [[DM/Plan|el Plan]], [[Kleb]]."},
		{File: "Sesiones/3.md", Text: "[[Harbin]] y [[Otro Harbin|Harbin]]."},
	}
	got := Links("Ser Morcant vio a Harbin en Phandalin, aquí, Arriba, el Plan y Kleb.", evidence, d)
	want := []Link{{Text: "Ser Morcant", File: "NPCs/Ser Morcant.md"}, {Text: "Phandalin", File: "Lugares/Phandalin.md"}, {Text: "Arriba", File: "Sesiones/1.md"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Links = %+v\nwant %+v", got, want)
	}
}

// TestRedact: a link to a note not in the directory (a hidden note reads
// as a missing one) is written as the text it shows; a link to a note of
// the directory, to a place in the note itself or to an URL stays.
func TestRedact(t *testing.T) {
	d := NewDirectory([]Name{{Path: "NPCs/Harbin.md"}})
	for in, want := range map[string]string{
		"[[DM/Plan secreto|el viejo]] y [[Harbin]]":      "el viejo y [[Harbin]]",
		"[el viejo](DM/Plan%20secreto.md) ![](DM/m.png)": "el viejo ",
		"[[#Arriba|arriba]] [web](https://example.org)":  "[[#Arriba|arriba]] [web](https://example.org)",
		"[[[[DM/x|a]]]]": "a",
	} {
		if got := d.Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}
