package compendium

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParseFile(t *testing.T) {
	valid := `# Compendio de la campaña
entities:
  - name: Harbin Wester
    kind: NPC
    aliases: [el viejo, Harbin]
    note: NPCs/Harbin Wester.md
  - name: Espada Negra
merge:
  - into: Ciriela Vos
    names: [Dama Velada]
rename:
  - from: Lord Emeric
    to: Emeric Valcárcel
ban: [Sesión, Nochelarga]
`
	want := &File{
		Entities: []FileEntity{
			{Name: "Harbin Wester", Kind: KindNPC, Aliases: []string{"el viejo", "Harbin"}, Note: "NPCs/Harbin Wester.md"},
			{Name: "Espada Negra"},
		},
		Merge:  []Merge{{Into: "Ciriela Vos", Names: []string{"Dama Velada"}}},
		Rename: []Rename{{From: "Lord Emeric", To: "Emeric Valcárcel"}},
		Ban:    []string{"Sesión", "Nochelarga"},
	}
	got, err := ParseFile([]byte(valid))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("valid file:\n got %+v\nwant %+v", got, want)
	}

	for _, c := range []struct {
		name, in string
		line     int    // 0: no error expected; -1: any line
		msg      string // substring of the error
	}{
		{"empty", "", 0, ""},
		{"comment only", "# nada\n", 0, ""},
		{"kind left empty", "entities:\n  - name: A\n    kind:\n", 0, ""},
		{"unknown key in entity", "entities:\n  - name: A\n    kind: npc\n    colour: red\n", 4, `unknown key "colour" in an entity`},
		{"unknown top-level key", "entities: []\nfoo: 1\n", 2, `unknown key "foo" at the top level`},
		{"unknown key in merge", "merge:\n  - into: A\n    names: [B]\n    why: x\n", 4, `unknown key "why" in a merge`},
		{"bad kind", "entities:\n  - name: A\n  - name: B\n    kind: villain\n", 4, `entities[1] ("B"): unknown kind "villain"`},
		{"missing name", "entities:\n  - name: A\n  - kind: npc\n", 3, "entities[1]: missing or empty name"},
		{"blank name", "entities:\n  - name: '  '\n", 2, "missing or empty name"},
		{"empty alias", "entities:\n  - name: A\n    aliases:\n      - x\n      - ''\n", 5, "empty alias"},
		{"merge without names", "merge:\n  - into: A\n", 2, `merge[0] (into "A"): no names`},
		{"rename without to", "rename:\n  - from: X\n", 2, `rename[0] (from "X"): missing or empty to`},
		{"empty ban", "ban:\n  - a\n  - ''\n", 3, "ban[1]: empty name"},
		{"wrong type", "entities: 3\n", 1, "into a list of entities"},
		{"syntax error", "entities:\n  - name: [a\n", -1, "did not find expected"}, // yaml.v3 reports its own line
		{"duplicate key", "entities:\n - name: A\n   name: B\n", 3, `mapping key "name" already defined`},
	} {
		f, err := ParseFile([]byte(c.in))
		if c.line == 0 {
			if err != nil || f == nil {
				t.Errorf("%s: unexpected error %v", c.name, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s: no error, got %+v", c.name, f)
			continue
		}
		var fe *FileError
		if !errors.As(err, &fe) {
			t.Errorf("%s: error %v is not a *FileError", c.name, err)
			continue
		}
		if c.line < 0 && fe.Line > 0 {
			c.line = fe.Line
		}
		if fe.Line != c.line || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: got line %d %q, want line %d containing %q", c.name, fe.Line, err, c.line, c.msg)
		}
		if !strings.HasPrefix(err.Error(), "compendium file: line ") {
			t.Errorf("%s: error %q does not start with the line", c.name, err)
		}
	}
}
