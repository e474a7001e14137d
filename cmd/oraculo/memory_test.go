package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCLIMemory drives oraculo memory end to end on a temporary index:
// add (stated and from a note), the refusal of a second active value,
// supersede, list, show with the chain, verify, forget, and the Weaviate
// backend refused.
func TestCLIMemory(t *testing.T) {
	t.Setenv("ORACULO_UI_LANG", "en")
	t.Setenv("USER", "ana")
	notes := smallNotes(t)
	db := filepath.Join(t.TempDir(), "o.db")
	if _, errOut, code := runCLI(t, "", "ingest", "--db", db, "--quiet", notes); code != 0 {
		t.Fatalf("ingest exit %d: %s", code, errOut)
	}
	mem := func(want int, args ...string) string {
		t.Helper()
		out, errOut, code := runCLI(t, "", append(append([]string{"memory"}, args...), "--db", db)...)
		if code != want {
			t.Fatalf("memory %s: exit %d, want %d; stdout %q, stderr %q", strings.Join(args, " "), code, want, out, errOut)
		}
		return out + errOut
	}
	list := func(args ...string) []map[string]any {
		t.Helper()
		var ms []map[string]any
		if err := json.Unmarshal([]byte(mem(0, append([]string{"list", "--json"}, args...)...)), &ms); err != nil {
			t.Fatal(err)
		}
		return ms
	}

	if out := mem(0, "add", "--scope", "campaign", "--key", "criticos", "--value", "doble daño"); !strings.Contains(out, "m1 added") {
		t.Errorf("add: %q", out)
	}
	if out := mem(1, "add", "--scope", "campaign", "--key", "criticos", "--value", "triple"); !strings.Contains(out, "m1") || !strings.Contains(out, "supersede") {
		t.Errorf("second add: %q; want it to name m1 and say supersede", out)
	}
	if out := mem(2, "add", "--scope", "sesion:3", "--key", "k", "--value", "v"); !strings.Contains(out, `"sesion:3"`) {
		t.Errorf("bad scope: %q", out)
	}
	note := filepath.Join(notes, "Sesiones", "Campaña.md")
	body, err := os.ReadFile(note)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(body)
	mem(0, "add", "--scope", "player:ana", "--key", "personaje", "--value", "Elara", "--source", note, "--verified")
	if out := mem(1, "add", "--scope", "campaign", "--key", "x", "--value", "v", "--source", filepath.Join(t.TempDir(), "otra.md")); !strings.Contains(out, "not a note of the index") {
		t.Errorf("add from a note not indexed: %q", out)
	}
	mem(0, "supersede", "m1", "--value", "triple daño")

	ms := list()
	if len(ms) != 2 {
		t.Fatalf("list: %v; want the two active entries", ms)
	}
	byID := map[string]map[string]any{}
	for _, m := range ms {
		byID[m["id"].(string)] = m
		for _, k := range []string{"id", "scope", "key", "value", "source", "status", "supersedes", "created", "author", "active"} {
			if _, ok := m[k]; !ok {
				t.Errorf("list --json entry lacks %q: %v", k, m)
			}
		}
	}
	today := time.Now().UTC().Format(time.DateOnly)
	if m := byID["m3"]; m == nil || m["supersedes"] != "m1" || m["status"] != "hypothesis" || m["active"] != true ||
		m["source"] != "stated:dm:ana@"+today || m["author"] != "ana" {
		t.Errorf("superseding entry: %v", m)
	}
	if m := byID["m2"]; m == nil || m["status"] != "verified" || m["source"] != "note:Sesiones/Campaña.md@"+hex.EncodeToString(sum[:]) {
		t.Errorf("entry from a note: %v", m)
	}
	if ms := list("--all", "--scope", "campaign"); len(ms) != 2 || ms[0]["id"] != "m1" || ms[0]["active"] != false {
		t.Errorf("list --all --scope campaign: %v", ms)
	}
	if out := mem(0, "show", "m3"); strings.Index(out, "m3") > strings.Index(out, "m1 ") || !strings.Contains(out, "doble daño") {
		t.Errorf("show m3 lacks its chain, newest first:\n%s", out)
	}
	mem(0, "verify", "m3")
	if ms := list("--scope", "campaign"); len(ms) != 1 || ms[0]["status"] != "verified" {
		t.Errorf("after verify: %v", ms)
	}
	mem(0, "forget", "m3")
	if ms := list("--scope", "campaign"); len(ms) != 0 {
		t.Errorf("after forgetting the active entry: %v; want none active", ms)
	}
	if ms := list("--all", "--scope", "campaign"); len(ms) != 1 || ms[0]["id"] != "m1" {
		t.Errorf("after forget, --all: %v; want only m1", ms)
	}
	if out := mem(1, "show", "m3"); !strings.Contains(out, "no such memory entry") {
		t.Errorf("show a forgotten entry: %q", out)
	}
	mem(2, "show")
	// Players: their own scope, and verified entries of the campaign;
	// only the DM verifies.
	mem(0, "add", "--scope", "campaign", "--key", "regla", "--value", "sin armaduras de mithril", "--verified")
	mem(0, "add", "--scope", "campaign", "--key", "rumor", "--value", "el barón miente")
	mem(0, "add", "--scope", "dm", "--key", "secreto", "--value", "el barón es un vampiro", "--verified")
	if out := mem(0, "add", "--as", "player:bruno", "--scope", "player:bruno", "--key", "nota", "--value", "desconfío del barón"); !strings.Contains(out, "hypothesis") {
		t.Errorf("a player's own hypothesis: %q", out)
	}
	if out := mem(1, "add", "--as", "player:bruno", "--scope", "campaign", "--key", "k", "--value", "v"); !strings.Contains(out, "not allowed") {
		t.Errorf("a player writing the campaign: %q", out)
	}
	if out := mem(1, "add", "--as", "player:bruno", "--scope", "player:bruno", "--key", "k2", "--value", "v", "--verified"); !strings.Contains(out, "only the DM verifies") {
		t.Errorf("a player adding a verified entry: %q", out)
	}
	if out := mem(1, "verify", "m2", "--as", "player:ana"); !strings.Contains(out, "not allowed") {
		t.Errorf("a player verifying: %q", out)
	}
	keys := func(ms []map[string]any) string {
		var ks []string
		for _, m := range ms {
			ks = append(ks, m["scope"].(string)+"/"+m["key"].(string))
		}
		return strings.Join(ks, " ")
	}
	if got := keys(list("--as", "player:ana")); got != "campaign/regla player:ana/personaje" {
		t.Errorf("ana sees %q; want the verified campaign entry and her own", got)
	}
	if got := keys(list("--as", "player:bruno")); got != "campaign/regla player:bruno/nota" {
		t.Errorf("bruno sees %q", got)
	}
	if got := keys(list("--as", "player")); got != "campaign/regla" {
		t.Errorf("a player without a name sees %q", got)
	}
	if out := mem(1, "show", "m2", "--as", "player:bruno"); !strings.Contains(out, "no such memory entry") {
		t.Errorf("bruno reading ana's entry: %q", out)
	}
	// The note an entry came from changes: the entry is stale until the DM
	// verifies it again, which moves its source to the new version.
	if err := os.WriteFile(note, append(body, []byte("\n\nUna línea nueva.\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := runCLI(t, "", "ingest", "--db", db, "--quiet", notes); code != 0 {
		t.Fatalf("re-ingest exit %d: %s", code, errOut)
	}
	if ms := list("--scope", "player:ana"); len(ms) != 1 || ms[0]["stale"] != true {
		t.Errorf("after the note changed: %v; want m2 stale", ms)
	}
	if out := mem(0, "list"); !strings.Contains(out, "possibly stale") {
		t.Errorf("list does not say m2 is stale:\n%s", out)
	}
	mem(0, "verify", "m2")
	if ms := list("--scope", "player:ana"); len(ms) != 1 || ms[0]["stale"] != false || ms[0]["source"] == "note:Sesiones/Campaña.md@"+hex.EncodeToString(sum[:]) {
		t.Errorf("after verifying again: %v; want m2 fresh, from the new version", ms)
	}
	// forget --chain takes the history with it.
	mem(0, "add", "--scope", "player:ana", "--key", "alergia", "--value", "marisco")
	chainOut := mem(0, "supersede", "m8", "--value", "marisco y nueces")
	if !strings.Contains(chainOut, "m9") {
		t.Fatalf("supersede m8: %q", chainOut)
	}
	if out := mem(0, "forget", "m9", "--chain"); !strings.Contains(out, "m9 forgotten") || !strings.Contains(out, "m8 forgotten") {
		t.Errorf("forget --chain: %q", out)
	}
	for _, m := range list("--all") {
		if m["key"] == "alergia" {
			t.Errorf("forget --chain left %v", m)
		}
	}
	if out := mem(1, "list", "--backend", "weaviate", "--weaviate-url", "http://127.0.0.1:1"); out == "" {
		t.Errorf("weaviate backend unreachable: no error")
	}
	// Without --db the index is $ORACULO_DB's (else the default), as for
	// every other command.
	t.Setenv("ORACULO_DB", db)
	if out, errOut, code := runCLI(t, "", "memory", "list", "--json"); code != 0 || !strings.Contains(out, `"id": "m2"`) {
		t.Errorf("memory list without --db: exit %d, %q %q", code, out, errOut)
	}
}

// TestChatMemory: in the chat, "recuerda que …" proposes a hypothesis and
// saves it only on a yes, never verified; "olvida …" lists the entries the
// asker may forget and forgets the one chosen; a player proposes in their
// own scope and is offered only their own entries to forget.
func TestChatMemory(t *testing.T) {
	t.Setenv("ORACULO_UI_LANG", "es")
	t.Setenv("ORACULO_CHAT_HISTORY", filepath.Join(t.TempDir(), "history"))
	db := filepath.Join(t.TempDir(), "o.db")
	if _, errOut, code := runCLI(t, "", "ingest", "--db", db, "--quiet", smallNotes(t)); code != 0 {
		t.Fatalf("ingest exit %d: %s", code, errOut)
	}
	chat := func(stdin string, args ...string) string {
		t.Helper()
		out, errOut, code := runCLI(t, stdin, append([]string{"chat", "--db", db}, args...)...)
		if code != 0 {
			t.Fatalf("chat exit %d: %s %s", code, out, errOut)
		}
		return out
	}
	list := func(args ...string) []map[string]any {
		t.Helper()
		out, errOut, code := runCLI(t, "", append([]string{"memory", "list", "--json", "--db", db}, args...)...)
		if code != 0 {
			t.Fatalf("memory list: %s", errOut)
		}
		var ms []map[string]any
		if err := json.Unmarshal([]byte(out), &ms); err != nil {
			t.Fatal(err)
		}
		return ms
	}

	out := chat("Recuerda que críticos: un 20 natural dobla el daño.\nno\n")
	if !strings.Contains(out, "hipótesis") || !strings.Contains(out, "«críticos»") || !strings.Contains(out, "No la guardo") {
		t.Errorf("a proposal refused:\n%s", out)
	}
	if ms := list(); len(ms) != 0 {
		t.Fatalf("a refused proposal was saved: %v", ms)
	}
	out = chat("Recuerda que críticos: un 20 natural dobla el daño.\nsí\n")
	ms := list()
	if len(ms) != 1 || ms[0]["key"] != "críticos" || ms[0]["value"] != "un 20 natural dobla el daño" || ms[0]["status"] != "hypothesis" || ms[0]["scope"] != "campaign" {
		t.Fatalf("after yes: %v\n%s", ms, out)
	}
	chat("remember that bruno: plays the dwarf Borin\nyes\n", "--as", "player:bruno")
	if ms := list("--scope", "player:bruno"); len(ms) != 1 || ms[0]["status"] != "hypothesis" || ms[0]["author"] != "bruno" {
		t.Fatalf("a player's proposal: %v", ms)
	}
	// bruno is offered only his own entry; the campaign's stays.
	out = chat("olvida los críticos\n1\n", "--as", "player:bruno")
	if !strings.Contains(out, "Ninguna entrada") {
		t.Errorf("bruno was offered an entry he may not forget:\n%s", out)
	}
	out = chat("olvida lo de los críticos\nnada\n")
	if !strings.Contains(out, "1. m1") || !strings.Contains(out, "No olvido nada") || len(list()) != 2 {
		t.Errorf("forget, then none chosen:\n%s", out)
	}
	out = chat("olvida lo de los críticos\n1\n¿Qué pasa con los críticos?\n")
	if !strings.Contains(out, "m1 olvidada") {
		t.Errorf("forget m1:\n%s", out)
	}
	if ms := list("--all"); len(ms) != 1 || ms[0]["scope"] != "player:bruno" {
		t.Errorf("after forgetting m1: %v", ms)
	}
}
