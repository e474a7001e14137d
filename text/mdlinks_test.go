package text

import (
	"strings"
	"testing"
)

func TestEditMarkdownLinks(t *testing.T) {
	const in = "[el viejo](DM/Plan%20secreto.md) y [el otro](<DM/Plan secreto.md>) y [x](../DM/Plan.md#Heading \"t\")\n" +
		"> [Harbin](NPCs/Harbin.md) [web](https://example.com/DM/x) [correo](mailto:dm@x.org) [arriba](#Arriba)\n" +
		"![mapa del plan](DM/mapa%20del%20plan.png) ![la fase](DM/Plan.md) [![alt](DM/a.png)](https://x.org) [[DM/wiki|w]](DM/b.md)\n" +
		"`[código](DM/en código.md)` \\[no](DM/no.md) [obs](obsidian://open?vault=v&file=DM%2FPlan)\n" +
		"[ref]: DM/Plan%20secreto.md \"título\"\n" +
		"[Nota]: algo importante\n" +
		"```\n[bloque](DM/en bloque.md)\n```"
	const want = "el viejo y el otro y x\n" +
		"> [Harbin](NPCs/Harbin.md) [web](https://example.com/DM/x) [correo](mailto:dm@x.org) [arriba](#Arriba)\n" +
		" la fase [](https://x.org) [[DM/wiki|w]](DM/b.md)\n" +
		"`[código](DM/en código.md)` \\[no](DM/no.md) obs\n" +
		"\n" +
		"[Nota]: algo importante\n" +
		"```\n[bloque](DM/en bloque.md)\n```"
	var paths []string
	hide := func(l MarkdownLink) (string, bool) {
		p, ok := l.NotePath()
		if !ok {
			return "", false
		}
		paths = append(paths, p)
		if strings.HasPrefix(p, "DM/") {
			return l.Shown, true
		}
		return "", false
	}
	if got := EditMarkdownLinks(in, hide); got != want {
		t.Errorf("EditMarkdownLinks:\n%s\nwant\n%s", got, want)
	}
	wantPaths := "DM/Plan secreto.md|DM/Plan secreto.md|DM/Plan.md|NPCs/Harbin.md|DM/mapa del plan.png|DM/Plan.md|DM/a.png|DM/Plan|DM/Plan secreto.md"
	if got := strings.Join(paths, "|"); got != wantPaths {
		t.Errorf("paths read:\n%s\nwant\n%s", got, wantPaths)
	}
	if got := EditMarkdownLinks(in, func(MarkdownLink) (string, bool) { return "", false }); got != in {
		t.Errorf("keeping every link changed the text:\n%s", got)
	}
}

func TestMarkdownLinkNotePath(t *testing.T) {
	for dest, want := range map[string]string{
		"DM/Plan%20secreto.md#Fase%202":  "DM/Plan secreto.md",
		"./a/../b.md":                    "a/../b.md",
		"../../x.md?q=1":                 "x.md",
		"C:/DM/x.md":                     "C:/DM/x.md",
		"obsidian://open?file=DM%2FPlan": "DM/Plan",
		"bad%zz.md":                      "bad%zz.md",
	} {
		if got, ok := (MarkdownLink{Destination: dest}).NotePath(); !ok || got != want {
			t.Errorf("NotePath(%q) = %q %v, want %q", dest, got, ok, want)
		}
	}
	for _, dest := range []string{"", "#Arriba", "https://x.org/a.md", "mailto:a@b", "//host/a.md", "ftp.x:/a"} {
		if got, ok := (MarkdownLink{Destination: dest}).NotePath(); ok {
			t.Errorf("NotePath(%q) = %q, want no path", dest, got)
		}
	}
}

// FuzzEditMarkdownLinks: keeping every link is the identity; writing
// every link as its shown text, to a fixed point, keeps the lines and
// leaves no link EditMarkdownLinks reads.
func FuzzEditMarkdownLinks(f *testing.F) {
	for _, s := range []string{"[a](DM/b.md)", "![a](<b c.png> 'd')", "[[a](b)[c]]", "`[a](b)`\n```\n[a](b)\n```", "[r]: <a b>", "[a]((b)", "\\[a](b) [a](b\\)", "[![a](b.png)](c.md)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got := EditMarkdownLinks(s, func(MarkdownLink) (string, bool) { return "", false }); got != s {
			t.Fatalf("keeping every link changed %q into %q", s, got)
		}
		shown := func(l MarkdownLink) (string, bool) { return l.Shown, true }
		out := s
		for n := 0; ; n++ {
			next := EditMarkdownLinks(out, shown)
			if next == out {
				break
			}
			if len(next) >= len(out) || n > len(s) {
				t.Fatalf("editing %q does not shrink: %q", out, next)
			}
			out = next
		}
		if strings.Count(out, "\n") != strings.Count(s, "\n") {
			t.Fatalf("%q lost lines: %q", s, out)
		}
	})
}
