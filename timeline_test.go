package oraculo_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/eval/leakcheck"
	"github.com/oraculo/oraculo/story"
	"github.com/oraculo/oraculo/text"
)

// namedIn returns a test of whether a text names the entity: one of its
// name and aliases, accents and case ignored, whole words (any run of
// other characters between them), an "el X" alias also as "del X" or "al
// X" and a "la Dama Velada" also as "Dama Velada" (so the compendium
// derives them). Written apart from the timeline's own matching.
func namedIn(e oraculo.CompendiumEntry) func(string) bool {
	word := regexp.MustCompile(`[\p{L}\p{N}]+`)
	gap := `[^\p{L}\p{N}]+`
	var alts []string
	for _, s := range append([]string{e.Name}, e.Aliases...) {
		ws := word.FindAllString(text.Fold(s), -1)
		for i, w := range ws {
			ws[i] = regexp.QuoteMeta(w)
		}
		if len(ws) == 0 {
			continue
		}
		alts = append(alts, strings.Join(ws, gap))
		if ws[0] == "el" && len(ws) >= 2 {
			alts = append(alts, `(?:del|al)`+gap+strings.Join(ws[1:], gap))
		}
		rest := word.FindAllString(s, -1)
		if len(ws) >= 3 && slices.Contains([]string{"el", "la", "los", "las", "lo", "the"}, ws[0]) && strings.ToLower(rest[1]) != rest[1] {
			alts = append(alts, strings.Join(ws[1:], gap))
		}
	}
	re := regexp.MustCompile(`(?:^|[^\p{L}\p{N}])(?:` + strings.Join(alts, "|") + `)(?:$|[^\p{L}\p{N}])`)
	return func(s string) bool { return re.MatchString(text.Fold(s)) }
}

// TestTimelineListsEverySessionNamingTheCharacter is the done-when of the
// timeline on the sample: for each character (npc, pc) the timeline lists
// exactly the sessions whose notes name them, computed here from the
// chunks' text, in order, each entry citing a chunk of its session that
// holds the sentence quoted. The one in most sessions must be in many.
func TestTimelineListsEverySessionNamingTheCharacter(t *testing.T) {
	ctx := context.Background()
	eng, _ := openEngine(t)
	if _, err := eng.Ingest(ctx, []string{sampleDir}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	chunks, err := eng.Chunks(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]oraculo.ChunkInfo{}
	for _, c := range chunks {
		byID[c.ID] = c
	}
	ents, err := eng.Compendium(ctx)
	if err != nil {
		t.Fatal(err)
	}
	most, mostName := 0, ""
	for _, e := range ents {
		if e.Kind != "npc" && e.Kind != "pc" {
			continue
		}
		names := namedIn(e)
		var want []int
		for _, c := range chunks {
			if c.Session != nil && names(c.Text) && !slices.Contains(want, *c.Session) {
				want = append(want, *c.Session)
			}
		}
		slices.Sort(want)
		tl, err := eng.Timeline(ctx, strings.ToUpper(e.Name))
		if err != nil {
			t.Fatal(err)
		}
		got := []int{}
		for _, en := range tl.Sessions {
			got = append(got, *en.Session)
			c, ok := byID[en.ID]
			if !ok || c.Session == nil || *c.Session != *en.Session || !strings.Contains(text.Collapse(text.Render(c.Text)), en.Text) {
				t.Errorf("%s, session %d: cites %q (%s), not a chunk of that session holding %q", e.Name, *en.Session, en.ID, c.Label, en.Text)
			}
		}
		if !reflect.DeepEqual(got, append([]int{}, want...)) {
			t.Errorf("%s: timeline sessions %v\nthe notes name it in %v", e.Name, got, want)
		}
		if len(want) > most {
			most, mostName = len(want), e.Name
		}
	}
	if most < 20 {
		t.Errorf("the character in most sessions, %s, is in %d: the sample should have one in many", mostName, most)
	}
}

// TestPlayersTimelineLeavesOutDMNotes: a player's timeline of an entity
// that DM-only notes name (a session note among them) has none of their
// sessions, files, ids or sentences; the DM's has them.
func TestPlayersTimelineLeavesOutDMNotes(t *testing.T) {
	ctx := context.Background()
	dir := copyTree(t, sampleDir)
	write(t, filepath.Join(dir, "DM", "Sesion 43.md"), "# Sesión 43\n\nEn secreto, Chispa le vende el diapasón robado a un contrabandista de la Mano Gris.\n")
	eng, _ := openEngine(t)
	if _, err := eng.Ingest(ctx, []string{dir}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	all, err := eng.Chunks(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	secrets := leakcheck.Collect(all, func(c oraculo.ChunkInfo) bool { return strings.HasPrefix(c.File, "DM/") })
	player := oraculo.WithRole(ctx, oraculo.RolePlayer)
	for _, name := range []string{"Chispa", "Sir Alvar Duranza", "Emeric", "Ciriela"} {
		dm, err := eng.Timeline(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		if dmJS, _ := json.Marshal(dm); !strings.Contains(string(dmJS), `"DM/`) {
			t.Errorf("the DM's timeline of %s cites no DM note: the test proves nothing", name)
		}
		pl, err := eng.Timeline(player, name)
		if errors.Is(err, story.ErrUnknownEntity) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		js, _ := json.Marshal(pl)
		if found := secrets.Matcher().Find(js); len(found) > 0 || strings.Contains(string(js), `"DM/`) {
			t.Errorf("a player's timeline of %s shows DM-only %q", name, found)
		}
		if name == "Chispa" && (*dm.LastSession != 43 || *pl.LastSession != 42) {
			t.Errorf("Chispa's last session: the DM's %d (want 43), a player's %d (want 42)", *dm.LastSession, *pl.LastSession)
		}
	}
}
