package oraculo_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/story"
)

// sampleEngine is an engine over the sample campaign.
func sampleEngine(t *testing.T) *oraculo.Engine {
	t.Helper()
	eng, _ := openEngine(t)
	if _, err := eng.Ingest(context.Background(), []string{sampleDir}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	return eng
}

// tableLines are lines of the sample's session notes about the table, not
// the story: each must be in its session's text, and never in its recap.
var tableLines = map[int][]string{
	1:  {"Apunte: a Marta le encantó Odalric.", "Repetir el bigote."},
	5:  {"Javi me lo dijo por WhatsApp"},
	6:  {"Ha sido una sesión larguísima (casi cinco horas)."},
	35: {"Notas de Sergio otra vez (Javi dice que ya ha cumplido)."},
	37: {"Notas de Sergio.", "Sesión corta pero muy dura.", "Faltó Álex hasta las once"},
	38: {"Notas de Sergio.", "Sesión de seis horas.", "Pedimos pizza a mitad.", "Subimos a nivel 8.", "Nota de Sergio para la mesa"},
	42: {"Notas de Sergio.", "Última sesión antes del parón de verano.", "Continuará en otoño."},
}

// TestSampleRecap: the recap of a session of the sample names its events
// in the notes' order, from its start to its end, each a sentence of that
// session naming someone or something of the compendium, and never quotes
// its attendance or out-of-game lines; what it left open holds its
// unchecked tasks.
func TestSampleRecap(t *testing.T) {
	ctx := context.Background()
	eng := sampleEngine(t)
	comp, err := eng.Compendium(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for session, table := range tableLines {
		r, err := eng.Recap(ctx, session)
		if err != nil {
			t.Fatal(err)
		}
		text := sessionText(t, eng, r)
		for _, l := range table {
			if !strings.Contains(text, l) {
				t.Errorf("session %d's notes lack %q: the check would pass for nothing", session, l)
			}
		}
		if len(r.Events) < 4 || len(r.Events) > 12 {
			t.Errorf("session %d: %d events, want 4 to 12", session, len(r.Events))
		}
		at := -1
		for _, e := range r.Events {
			i := strings.Index(text, e.Text)
			switch {
			case i < 0:
				t.Errorf("session %d: event %q is no sentence of the session", session, e.Text)
			case i <= at:
				t.Errorf("session %d: event %q is out of order", session, e.Text)
			}
			at = i
			if e.Session == nil || *e.Session != session {
				t.Errorf("session %d: event %q cites session %v", session, e.Text, e.Session)
			}
			if !namesAny(e.Text, comp) {
				t.Errorf("session %d: event %q names nothing of the compendium", session, e.Text)
			}
			for _, l := range table {
				if strings.Contains(e.Text, l) || strings.Contains(l, e.Text) {
					t.Errorf("session %d: the recap quotes the table: %q", session, e.Text)
				}
			}
		}
		if first, last := strings.Index(text, r.Events[0].Text), strings.Index(text, r.Events[len(r.Events)-1].Text); 3*first > len(text) || 3*last < 2*len(text) {
			t.Errorf("session %d: the events run from byte %d to %d of %d, want the first third to the last", session, first, last, len(text))
		}
	}
	r, err := eng.Recap(ctx, 0)
	if err != nil || r.Session != 42 {
		t.Fatalf("the last session's recap: %d %v", r.Session, err)
	}
	r, _ = eng.Recap(ctx, 37)
	var open []string
	for _, o := range r.Open {
		open = append(open, o.Text)
	}
	for _, task := range sampleTasks(t, "Sesiones/Sesion 37.md") {
		if !strings.Contains(strings.Join(open, "\n"), task) {
			t.Errorf("session 37 left %q open; its recap's open: %q", task, open)
		}
	}
}

// sessionText is the text of the chunks a recap read, in order.
func sessionText(t *testing.T, eng *oraculo.Engine, r story.Recap) string {
	t.Helper()
	var b strings.Builder
	for _, f := range r.Files {
		chunks, err := eng.Chunks(context.Background(), []string{f})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range chunks {
			if c.Session != nil && *c.Session == r.Session {
				b.WriteString(strings.Join(strings.Fields(c.Text), " ") + "\n")
			}
		}
	}
	return b.String()
}

// namesAny reports whether s names an entity of the compendium, by name
// or alias, whatever the case (as the compendium matches them).
func namesAny(s string, comp []oraculo.CompendiumEntry) bool {
	s = strings.ToLower(s)
	for _, e := range comp {
		for _, n := range append([]string{e.Name}, e.Aliases...) {
			if n != "" && strings.Contains(s, strings.ToLower(n)) {
				return true
			}
		}
	}
	return false
}

// sampleTasks are the unchecked tasks ("- [ ] ") of a note of the sample.
func sampleTasks(t *testing.T, note string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(sampleDir, filepath.FromSlash(note)))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(data), "\n") {
		if task, ok := strings.CutPrefix(strings.TrimSpace(l), "- [ ] "); ok {
			out = append(out, strings.TrimSpace(task))
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s holds no unchecked task", note)
	}
	return out
}
