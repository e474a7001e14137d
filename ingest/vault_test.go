package ingest

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestVaultExcludes checks Obsidian's matching: a templates folder by
// prefix, whatever the case; a filter as text or, between slashes, a
// regular expression found anywhere in the path, whatever the case.
func TestVaultExcludes(t *testing.T) {
	v := &Vault{Templates: []string{"Plantillas/Sub", "Templates"}}
	for _, rule := range []string{"Archive/", "  /borrador|wip/ ", "", "Secreto.md"} {
		f, err := compileFilter(rule)
		if err != nil {
			t.Fatal(err)
		}
		if f != nil {
			v.Filters = append(v.Filters, *f)
		}
	}
	for _, c := range []struct {
		path, reason, rule string
	}{
		{"Templates/Sesión.md", "obsidian-template", "Templates/"},
		{"templates/deep/x.md", "obsidian-template", "Templates/"},
		{"Plantillas/Sub/x.md", "obsidian-template", "Plantillas/Sub/"},
		{"Plantillas/x.md", "", ""},
		{"Templates.md", "", ""},
		{"TemplatesOld/x.md", "", ""},
		{"Archive/2020/x.md", "obsidian-excluded", "Archive/"},
		{"old/archive/x.md", "obsidian-excluded", "Archive/"},
		{"Archive.md", "", ""},
		{"Sesiones/Borrador 3.md", "obsidian-excluded", "/borrador|wip/"},
		{"WIP.md", "obsidian-excluded", "/borrador|wip/"},
		{"DM/secreto.md", "obsidian-excluded", "Secreto.md"},
		{"Sesiones/Sesión 1.md", "", ""},
	} {
		reason, rule, ok := v.Excludes(c.path)
		if string(reason) != c.reason || rule != c.rule || ok != (c.reason != "") {
			t.Errorf("Excludes(%q) = %q, %q, %v; want %q, %q", c.path, reason, rule, ok, c.reason, c.rule)
		}
	}
	for folder, whole := range map[string]bool{
		"Templates": true, "templates/deep": true, "Plantillas": false, "Plantillas/Sub": true,
		"Archive": true, "old/Archive/2020": true, "Archived": false,
		"Borrador": false, // a regular expression judges each note by its path
		"Sesiones": false,
	} {
		if got := v.ExcludesFolder(folder); got != whole {
			t.Errorf("ExcludesFolder(%q) = %v, want %v", folder, got, whole)
		}
	}
	if _, _, ok := (*Vault)(nil).Excludes("x.md"); ok {
		t.Error("a nil vault excludes")
	}
}

// vaultFolder writes an Obsidian vault: a note, a template that would
// answer a question, an archived note and a draft, with its settings.
func vaultFolder(t *testing.T, app string) string {
	t.Helper()
	root := t.TempDir()
	writeNote(t, root, "Sesiones/Sesion 1.md", "# Sesión 1\n\nEl grupo llega a la aldea.\n")
	writeNote(t, root, "Plantillas/Sesion.md", "# {{title}}\n\nResumen: zarzamora.\n")
	writeNote(t, root, "Archivo/vieja.md", "# Vieja\n\nLa campaña anterior: quimera.\n")
	writeNote(t, root, "Archivo/mapa.png", "\x89PNG")
	writeNote(t, root, "Sesiones/borrador 2.md", "# Borrador\n\nSin terminar.\n")
	writeNote(t, root, ".obsidian/templates.json", `{"folder": "Plantillas"}`)
	writeNote(t, root, ".obsidian/app.json", app)
	return root
}

func TestUpdateObsidianVault(t *testing.T) {
	ctx := context.Background()
	root := vaultFolder(t, `{"userIgnoreFilters": ["Archivo/", "/Borrador/"]}`)
	w := newMemWriter()
	// Stored before the vault's settings said otherwise: removed now.
	cfg := testConfig()
	cfg.Vault = VaultOptions{IncludeTemplates: true, IncludeExcluded: true}
	if res, err := Update(ctx, w, root, cfg); err != nil || res.Indexed != 4 {
		t.Fatalf("including everything: %+v, %v", res, err)
	}
	res, err := Update(ctx, w, root, testConfig())
	if err != nil {
		t.Fatal(err)
	}
	want := []Exclusion{
		{Root: root, Reason: ReasonObsidianExcluded, Rule: "Archivo/", Notes: 1},
		{Root: root, Reason: ReasonTemplate, Rule: "Plantillas/", Notes: 1},
		{Root: root, Reason: ReasonObsidianExcluded, Rule: "/Borrador/", Notes: 1},
	}
	if !reflect.DeepEqual(res.Excluded, want) {
		t.Errorf("excluded %+v, want %+v", res.Excluded, want)
	}
	if res.Files != 1 || res.Unchanged != 1 || res.Deleted != 3 || len(res.Skipped) != 0 || len(res.Warnings) != 0 {
		t.Errorf("result %+v", res)
	}
	for _, p := range []string{"Plantillas/Sesion.md", "Archivo/vieja.md", "Sesiones/borrador 2.md"} {
		if w.has(root, p) {
			t.Errorf("%s still stored", p)
		}
	}
	// Only the templates overridden: they come back, the rest stays out.
	cfg = testConfig()
	cfg.Vault.IncludeTemplates = true
	if res, err = Update(ctx, w, root, cfg); err != nil || res.Indexed != 1 || !w.has(root, "Plantillas/Sesion.md") || len(res.Excluded) != 2 {
		t.Errorf("--include-templates: %+v, %v", res, err)
	}
	// A filter removed from the vault's settings: its notes come back.
	writeNote(t, root, ".obsidian/app.json", `{"userIgnoreFilters": ["/Borrador/"]}`)
	if res, err = Update(ctx, w, root, testConfig()); err != nil || res.Indexed != 1 || !w.has(root, "Archivo/vieja.md") || w.has(root, "Plantillas/Sesion.md") {
		t.Errorf("filter removed: %+v, %v", res, err)
	}
}

// TestUpdateObsidianMalformed: a settings file that cannot be read is a
// warning naming it and what is wrong; the ingest goes on without it.
func TestUpdateObsidianMalformed(t *testing.T) {
	root := vaultFolder(t, "{\n  \"userIgnoreFilters\": [\"Archivo/\",]\n}")
	writeNote(t, root, ".obsidian/plugins/templater-obsidian/data.json", `{"templates_folder": 3}`)
	w := newMemWriter()
	res, err := Update(context.Background(), w, root, testConfig())
	if err != nil {
		t.Fatal(err)
	}
	if res.Indexed != 3 || !w.has(root, "Archivo/vieja.md") || w.has(root, "Plantillas/Sesion.md") {
		t.Errorf("result %+v", res)
	}
	if len(res.Warnings) != 2 {
		t.Fatalf("warnings %+v", res.Warnings)
	}
	for i, want := range []string{".obsidian/plugins/templater-obsidian/data.json", ".obsidian/app.json"} {
		p := res.Warnings[i]
		if p.Path != want || p.Reason != ReasonObsidianSettings || p.Root != root {
			t.Errorf("warning %d: %+v, want one about %s", i, p, want)
		}
	}
	if d := res.Warnings[1].Detail; !strings.Contains(d, "line 2, column 36") || !strings.Contains(d, "excluded files are indexed") {
		t.Errorf("app.json's warning says %q", d)
	}
	if d := res.Warnings[0].Detail; !strings.Contains(d, `"templates_folder": a JSON number where a string was expected`) {
		t.Errorf("Templater's warning says %q", d)
	}
}

func TestReadVaultSettings(t *testing.T) {
	for _, c := range []struct {
		name, app string
		rules     []string
		warnings  int
	}{
		{"no filters", `{"alwaysUpdateLinks": true}`, nil, 0},
		{"null", `{"userIgnoreFilters": null}`, nil, 0},
		{"not an array", `{"userIgnoreFilters": "Archivo/"}`, nil, 1},
		{"a number among them", `{"userIgnoreFilters": [3, "Archivo/"]}`, []string{"Archivo/"}, 1},
		{"look-ahead", `{"userIgnoreFilters": ["/^(?!Sesiones)/", "/x/"]}`, []string{"/x/"}, 1},
		{"not an object", `[]`, nil, 1},
		{"empty file", ``, nil, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := vaultFolder(t, c.app)
			v := ReadVault(root, VaultOptions{})
			var rules []string
			for _, f := range v.Filters {
				rules = append(rules, f.Rule)
			}
			if !reflect.DeepEqual(rules, c.rules) || len(v.Warnings) != c.warnings || !reflect.DeepEqual(v.Templates, []string{"Plantillas"}) {
				t.Errorf("filters %q, templates %q, warnings %+v", rules, v.Templates, v.Warnings)
			}
		})
	}
	// No .obsidian folder: no vault, whatever the files say.
	root := vaultFolder(t, `{"userIgnoreFilters": ["Archivo/"]}`)
	if err := os.RemoveAll(filepath.Join(root, ObsidianDir)); err != nil {
		t.Fatal(err)
	}
	if v := ReadVault(root, VaultOptions{}); len(v.Filters)+len(v.Templates)+len(v.Warnings) != 0 {
		t.Errorf("not a vault: %+v", v)
	}
	// A templates folder that is the vault itself leaves out nothing.
	root = vaultFolder(t, `{}`)
	writeNote(t, root, ".obsidian/templates.json", `{"folder": "/"}`)
	writeNote(t, root, ".obsidian/plugins/templater-obsidian/data.json", `{"templates_folder": "Plantillas/"}`)
	if v := ReadVault(root, VaultOptions{}); !reflect.DeepEqual(v.Templates, []string{"Plantillas"}) {
		t.Errorf("templates %q", v.Templates)
	}
}
