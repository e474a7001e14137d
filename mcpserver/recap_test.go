package mcpserver_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/mcpserver"
	"github.com/oraculo/oraculo/story"
)

// storyNotes are sessions with a task, and a DM-only note with its own
// task and a session of its own.
var storyNotes = map[string]string{
	"Sesiones/Sesión 1.md": "# Sesión 1\n\nEl capitán Orsino les habla del faro apagado.\n\n- [ ] Preguntar a Orsino por el faro\n",
	"Sesiones/Sesión 2.md": "# Sesión 2\n\nEl capitán Orsino les lleva a las cuevas del faro.\n",
	"DM/Sesión 3.md":       "# Sesión 3\n\nEl archimago Zoltan Quimera compra el faro.\n\n- [ ] Preparar a Zoltan Quimera\n",
}

func storyEngine(t *testing.T) *oraculo.Engine {
	t.Helper()
	dir := t.TempDir()
	for name, text := range storyNotes {
		p := filepath.Join(dir, "notas", filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	eng, err := oraculo.Open(ctx, filepath.Join(dir, "o.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	if _, err := eng.Ingest(ctx, []string{filepath.Join(dir, "notas")}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	return eng
}

func TestRecapAndThreadsTools(t *testing.T) {
	srv := mcpserver.NewServer(storyEngine(t), "test")
	dm := connect(t, oraculo.WithRole(context.Background(), oraculo.RoleDM), srv)
	player := connect(t, oraculo.WithRole(context.Background(), oraculo.RolePlayer), srv)

	var r story.Recap
	if res := call(t, dm, "recap", nil, &r); res.IsError || r.Session != 3 || !strings.Contains(text(res), "Zoltan") {
		t.Errorf("the DM's last session: %+v, %s", r, text(res))
	}
	r = story.Recap{}
	if res := call(t, player, "recap", nil, &r); res.IsError || r.Session != 2 || strings.Contains(text(res), "Zoltan") {
		t.Errorf("a player's last session is the last public one: %+v, %s", r, text(res))
	}
	if res := call(t, player, "recap", map[string]any{"session": 3}, nil); !res.IsError || strings.Contains(text(res), "Zoltan") {
		t.Errorf("a player's recap of a DM-only session: %s", text(res))
	}
	r = story.Recap{}
	if res := call(t, player, "recap", map[string]any{"session": 1}, &r); res.IsError || len(r.Open) != 1 || r.Open[0].Text != "Preguntar a Orsino por el faro" {
		t.Errorf("session 1's open task: %+v, %s", r, text(res))
	}

	var th story.Threads
	if res := call(t, dm, "threads", nil, &th); res.IsError || !strings.Contains(text(res), "Preparar a Zoltan Quimera") || th.QuietSessions != 5 {
		t.Errorf("the DM's threads: %+v, %s", th, text(res))
	}
	th = story.Threads{}
	res := call(t, player, "threads", map[string]any{"quiet": 1}, &th)
	if res.IsError || strings.Contains(text(res), "Zoltan") || th.QuietSessions != 1 || th.LastSession != 2 || len(th.Threads) == 0 {
		t.Errorf("a player's threads: %+v, %s", th, text(res))
	}
}
