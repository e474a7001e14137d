package visibility

import (
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

func frontMatterOf(t *testing.T, y string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := yaml.Unmarshal([]byte(y), &m); err != nil {
		t.Fatalf("bad YAML in test: %v", err)
	}
	return m
}

func TestDecide(t *testing.T) {
	rules := NewRules([]string{"DM", "Máster", "Secretos del DJ", "Campaña/Notas privadas"})
	cases := []struct {
		name   string
		path   string
		link   string
		front  string // YAML
		raw    string // unparsed front matter
		dmOnly bool
		reason string
		warns  int
	}{
		{name: "plain note", path: "Sesiones/s1.md", dmOnly: false},
		{name: "top DM folder", path: "DM/x.md", dmOnly: true, reason: ReasonFolder},
		{name: "DM folder below the top", path: "Campaña/DM/x.md", dmOnly: true, reason: ReasonFolder},
		{name: "lower-case folder", path: "dm/x.md", dmOnly: true, reason: ReasonFolder},
		{name: "non-ASCII folder", path: "Máster/secreto.md", dmOnly: true, reason: ReasonFolder},
		{name: "non-ASCII folder unaccented", path: "master/secreto.md", dmOnly: true, reason: ReasonFolder},
		{name: "non-ASCII folder decomposed", path: "Ma\u0301ster/secreto.md", dmOnly: true, reason: ReasonFolder},
		{name: "folder with spaces", path: "Secretos del DJ/trama.md", dmOnly: true, reason: ReasonFolder},
		{name: "folder of two parts", path: "Campaña/Notas privadas/x.md", dmOnly: true, reason: ReasonFolder},
		{name: "two parts, not adjacent", path: "Campaña/Sesiones/Notas privadas/x.md", dmOnly: false},
		{name: "a name that only contains DM", path: "DMs favoritos/x.md", dmOnly: false},
		{name: "admin is not dm", path: "Admin/x.md", dmOnly: false},
		{name: "file named like the folder", path: "Sesiones/DM.md", dmOnly: false},
		{name: "symlink into a secret folder", path: "Sesiones/enlace.md", link: "DM/x.md", dmOnly: true, reason: ReasonLink},
		{name: "symlink to a public note", path: "Sesiones/enlace.md", link: "NPCs/x.md", dmOnly: false},
		{name: "visibility: dm", path: "a.md", front: "visibility: dm", dmOnly: true, reason: ReasonFrontMatter},
		{name: "upper-case key", path: "a.md", front: "Visibility: dm", dmOnly: true, reason: ReasonFrontMatter},
		{name: "upper-case value", path: "a.md", front: "visibility: DM", dmOnly: true, reason: ReasonFrontMatter},
		{name: "Spanish key", path: "a.md", front: "visibilidad: dm", dmOnly: true, reason: ReasonFrontMatter},
		{name: "Spanish key accented value", path: "a.md", front: "Visibilidad: máster", dmOnly: true, reason: ReasonFrontMatter},
		{name: "list", path: "a.md", front: "visibility: [dm]", dmOnly: true, reason: ReasonFrontMatter},
		{name: "block list", path: "a.md", front: "visibility:\n  - gm\n  - secreto", dmOnly: true, reason: ReasonFrontMatter},
		{name: "solo dm", path: "a.md", front: "visibility: solo dm", dmOnly: true, reason: ReasonFrontMatter},
		{name: "Solo para el DM", path: "a.md", front: "visibilidad: Solo para el DM", dmOnly: true, reason: ReasonFrontMatter},
		{name: "dm-only", path: "a.md", front: "visibility: dm-only", dmOnly: true, reason: ReasonFrontMatter},
		{name: "DM only", path: "a.md", front: "visibility: DM only", dmOnly: true, reason: ReasonFrontMatter},
		{name: "secreto", path: "a.md", front: "visibilidad: secreto", dmOnly: true, reason: ReasonFrontMatter},
		{name: "privado", path: "a.md", front: "visibilidad: privado", dmOnly: true, reason: ReasonFrontMatter},
		{name: "oculto", path: "a.md", front: "visibilidad: oculto", dmOnly: true, reason: ReasonFrontMatter},
		{name: "private", path: "a.md", front: "visibility: private", dmOnly: true, reason: ReasonFrontMatter},
		{name: "hidden", path: "a.md", front: "visibility: hidden", dmOnly: true, reason: ReasonFrontMatter},
		{name: "gm", path: "a.md", front: "visibility: gm", dmOnly: true, reason: ReasonFrontMatter},
		{name: "master", path: "a.md", front: "visibility: master", dmOnly: true, reason: ReasonFrontMatter},
		{name: "visible: false", path: "a.md", front: "visible: false", dmOnly: true, reason: ReasonFrontMatter},
		{name: "visible: no", path: "a.md", front: "Visible: no", dmOnly: true, reason: ReasonFrontMatter},
		{name: "visible: true", path: "a.md", front: "visible: true", dmOnly: false},
		{name: "visible: solo dm", path: "a.md", front: "visible: solo dm", dmOnly: true, reason: ReasonFrontMatter},
		{name: "secreto: true", path: "a.md", front: "secreto: true", dmOnly: true, reason: ReasonFrontMatter},
		{name: "dm_only: yes", path: "a.md", front: "dm_only: yes", dmOnly: true, reason: ReasonFrontMatter},
		{name: "secret: false", path: "a.md", front: "secret: false", dmOnly: false},
		{name: "public", path: "a.md", front: "visibility: public", dmOnly: false},
		{name: "todos", path: "a.md", front: "visibilidad: todos", dmOnly: false},
		{name: "jugadores", path: "a.md", front: "visibilidad: jugadores", dmOnly: false},
		{name: "empty value", path: "a.md", front: "visibility:", dmOnly: false},
		{name: "unknown value fails closed", path: "a.md", front: "visibility: equipo rojo", dmOnly: true, reason: ReasonUnclear, warns: 1},
		{name: "mixed list fails closed", path: "a.md", front: "visibility: [dm, jugadores]", dmOnly: true, reason: ReasonUnclear, warns: 1},
		{name: "boolean visibility fails closed", path: "a.md", front: "visibility: true", dmOnly: true, reason: ReasonUnclear, warns: 1},
		{name: "map value fails closed", path: "a.md", front: "visibility: {players: false}", dmOnly: true, reason: ReasonUnclear, warns: 1},
		{name: "secret text in a flag key", path: "a.md", front: "secreto: el rey es un impostor", dmOnly: true, reason: ReasonUnclear, warns: 1},
		{name: "typo in the key", path: "a.md", front: "visiblity: dm", dmOnly: true, reason: ReasonUnclear, warns: 1},
		{name: "typo in the key, public value", path: "a.md", front: "visiblity: todos", dmOnly: false, warns: 1},
		{name: "permisos: dm", path: "a.md", front: "permisos: dm", dmOnly: true, reason: ReasonUnclear, warns: 1},
		{name: "who the DM is", path: "a.md", front: "dm: Carlos\nmaster: Ana", dmOnly: false},
		{name: "tag dm", path: "a.md", front: "tags: [sesion, dm]", dmOnly: true, reason: ReasonTag},
		{name: "tag dm-only as string", path: "a.md", front: "tags: 'npc, dm-only'", dmOnly: true, reason: ReasonTag},
		{name: "nested tag", path: "a.md", front: "tags: [\"#secreto/trama\"]", dmOnly: true, reason: ReasonTag},
		{name: "ordinary tags", path: "a.md", front: "tags: [npc, taberna, damas]", dmOnly: false},
		{name: "unparsed front matter with visibility", path: "a.md", raw: "title: [x\nvisibility: dm\n", dmOnly: true, reason: ReasonUnclear, warns: 1},
		{name: "unparsed front matter without", path: "a.md", raw: "title: [x\nfecha: hoy\n", dmOnly: false},
		{name: "folder wins over front matter", path: "DM/a.md", front: "visibility: public", dmOnly: true, reason: ReasonFolder},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := Note{Path: c.path, Link: c.link, RawFrontMatter: c.raw}
			if c.front != "" {
				n.FrontMatter = frontMatterOf(t, c.front)
			}
			d := rules.Decide(n)
			if d.DMOnly != c.dmOnly || d.Reason != c.reason {
				t.Errorf("Decide = %v %q (%s), want %v %q", d.DMOnly, d.Reason, d.Detail, c.dmOnly, c.reason)
			}
			if len(d.Warnings) != c.warns {
				t.Errorf("warnings %q, want %d", d.Warnings, c.warns)
			}
			if d.DMOnly && d.Detail == "" {
				t.Error("a DM-only decision must say what decided it")
			}
		})
	}
}

func TestNoSecretFolders(t *testing.T) {
	if d := NewRules(nil).Decide(Note{Path: "DM/x.md"}); d.DMOnly {
		t.Errorf("no secret folder, yet %+v", d)
	}
	if d := NewRules([]string{"", " / "}).Decide(Note{Path: "DM/x.md"}); d.DMOnly {
		t.Errorf("empty folder names must not match: %+v", d)
	}
}

func TestLinkPath(t *testing.T) {
	for _, c := range []struct{ root, target, want string }{
		{"/home/ana/Campaña", "/home/ana/Campaña/DM/x.md", "DM/x.md"},
		{"/home/ana/Campaña", "/home/ana/Secretos del DJ/x.md", "Secretos del DJ/x.md"},
		{"/home/ana/Campaña", "/srv/DM/x.md", "srv/DM/x.md"},
		{"/home/ana/Campaña", "/home/ana/Campaña2/x.md", "Campaña2/x.md"},
	} {
		if got := LinkPath(c.root, c.target); got != c.want {
			t.Errorf("LinkPath(%q, %q) = %q, want %q", c.root, c.target, got, c.want)
		}
	}
}

func TestWarningsNameTheSetting(t *testing.T) {
	d := NewRules(nil).Decide(Note{Path: "a.md", FrontMatter: map[string]any{"Visibilidad": "equipo rojo"}})
	if len(d.Warnings) != 1 || !strings.Contains(d.Warnings[0], "Visibilidad: equipo rojo") {
		t.Errorf("warning %q should quote the setting", d.Warnings)
	}
}

func FuzzDecide(f *testing.F) {
	f.Add("DM/x.md", "visibility: dm", "")
	f.Add("a/b.md", "tags: [dm]", "title: [x\nvisibility: dm")
	f.Fuzz(func(t *testing.T, path, front, raw string) {
		var m map[string]any
		_ = yaml.Unmarshal([]byte(front), &m)
		d := NewRules([]string{"DM", "Máster"}).Decide(Note{Path: path, FrontMatter: m, RawFrontMatter: raw})
		if d.DMOnly != (d.Reason != "") {
			t.Fatalf("DMOnly %v with reason %q", d.DMOnly, d.Reason)
		}
	})
}
