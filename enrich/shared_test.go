package enrich

import (
	"context"
	"reflect"
	"testing"

	"github.com/oraculo/oraculo/index"
	"github.com/oraculo/oraculo/store"
)

// TestSharedPlayersCompendium: while no note is DM-only, the players'
// compendium is stored once, as the DM's, and reads as a full build of
// the players' notes gives it; a DM-only note (new, rewritten or decided
// again in place) never shows a player its names or its mentions, before
// the next build or after it, which stores the players' apart again; and
// when the last DM-only note is public again, the two are shared again.
func TestSharedPlayersCompendium(t *testing.T) {
	ctx := context.Background()
	root, ix := t.TempDir(), openIndex(t)
	garrik := testNote{"NPCs/Garrik.md", "Garrik", []string{"el mercader"}, false, []string{"# Garrik\n\nEl mercader de Brumal.\n"}}
	session := testNote{"Sesiones/Sesión 1.md", "Sesión 1", nil, false, []string{"# Sesión 1\n\nGarrik vende cajas en Brumal. Garrik llega tarde.\n"}}
	secret := testNote{"DM/Nyssa.md", "Nyssa", []string{"la roja"}, true, []string{"# Nyssa\n\nNyssa la Roja espía a Garrik desde Brumal.\n"}}
	opts := CompendiumOptions{Roots: []string{root}, Stamp: "v1", NotesChanged: true}
	build := func(step string, wantShared bool) {
		t.Helper()
		if _, err := BuildCompendium(ctx, ix, opts); err != nil {
			t.Fatal(err)
		}
		want := fullBuild(t, ix, []string{root})
		for i, scope := range []string{store.ScopeDM, store.ScopePlayer} {
			if got := stored(t, ix, scope); !reflect.DeepEqual(got, want[i]) {
				t.Fatalf("%s: the %s compendium is %+v, a full build gives %+v", step, scope, got, want[i])
			}
		}
		if n := playerRows(t, ix); (n == 0) != wantShared {
			t.Errorf("%s: %d entities stored for the players; shared: want %v", step, n, wantShared)
		}
		noSecretForPlayers(t, ix, step)
	}
	putNote(t, ix, root, garrik)
	putNote(t, ix, root, session)
	build("public notes only", true)
	if n, err := ix.EntityCount(ctx, store.ScopePlayer); err != nil || n == 0 {
		t.Errorf("EntityCount(player) = %d, %v, want the DM's", n, err)
	}

	// A new DM-only note: before the compendium is built, a player sees
	// neither its names nor its mentions.
	putNote(t, ix, root, secret)
	noSecretForPlayers(t, ix, "a DM-only note, before the build")
	build("a DM-only note", false)

	// It becomes public: shared again.
	secret.restricted = false
	putNote(t, ix, root, secret)
	build("every note public again", true)
	if ents, _ := ix.Entities(ctx, store.ScopePlayer); entityNamed(ents, "Nyssa") == nil {
		t.Fatalf("the players' compendium lacks Nyssa, public now")
	}

	// Decided DM-only again in place: the players' compendium is not
	// served until the next build, which stores it apart.
	secret.restricted = true
	flipInPlace(t, ix, secret.path)
	noSecretForPlayers(t, ix, "flipped in place, before the build")
	build("flipped in place", false)

	// Shared again; then a compendium stored from outside (ReplaceEntities)
	// for the DM leaves the players' as it was.
	secret.restricted = false
	putNote(t, ix, root, secret)
	build("public again", true)
	players := stored(t, ix, store.ScopePlayer)
	if err := ix.ReplaceEntities(ctx, store.ScopeDM, []store.Entity{{Name: "Otro", Kind: "npc"}}); err != nil {
		t.Fatal(err)
	}
	if got := stored(t, ix, store.ScopePlayer); !reflect.DeepEqual(got, players) {
		t.Errorf("after ReplaceEntities(dm), the players' compendium is %+v, want %+v", got, players)
	}
}

// playerRows counts the entities stored for the players' scope itself.
func playerRows(t *testing.T, ix *index.Index) int {
	t.Helper()
	var n int
	if err := ix.DB().QueryRow(`SELECT count(*) FROM entities WHERE scope = ?`, store.ScopePlayer).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// noSecretForPlayers fails when the players' compendium, read as a
// player's search reads it, names an entity known only from DM-only notes
// or points into a DM-only note.
func noSecretForPlayers(t *testing.T, ix *index.Index, step string) {
	t.Helper()
	ctx := context.Background()
	ents, err := ix.Entities(ctx, store.ScopePlayer)
	if err != nil {
		t.Fatal(err)
	}
	restricted, err := ix.RestrictedChunks(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, e := range ents {
		ids = append(ids, e.ID)
		if e.Name == "Nyssa" && len(restricted) > 0 {
			t.Errorf("%s: the players' compendium names Nyssa, known only from a DM-only note", step)
		}
	}
	ms, err := ix.MentionsOf(ctx, ids, true)
	if err != nil {
		t.Fatal(err)
	}
	for id, list := range ms {
		for _, m := range list {
			if restricted[m.ChunkID] {
				t.Errorf("%s: a player sees entity %d mentioned in DM-only chunk %d", step, id, m.ChunkID)
			}
		}
	}
}
