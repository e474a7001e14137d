package index

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/oraculo/oraculo/store"
)

const stated = "stated:dm:ana@2026-12-01"

func addMemory(t *testing.T, ix *Index, scope, key, value string) store.Memory {
	t.Helper()
	m, err := ix.AddMemory(context.Background(), store.Memory{Scope: scope, Key: key, Value: value, Source: stated, Author: "ana"}, false)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestMemoryAddChecks: scopes, keys, values and sources are checked, and
// the error names what is wrong.
func TestMemoryAddChecks(t *testing.T) {
	ctx := context.Background()
	ix := testIndex(t)
	if err := ix.ReplaceDocument(ctx, doc("reglas.md", []string{"regl"})); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		scope, key, value, source string
		want                      string // in the error; "" for none
	}{
		{"campaign", "k1", "v", stated, ""},
		{"player:ana", "k2", "v", stated, ""},
		{"session:12", "k3", "v", stated, ""},
		{"campaign", "k4", "v", "note:reglas.md@h-reglas.md", ""},
		{"campana", "k", "v", stated, `"campana"`},
		{"player:", "k", "v", stated, `"player:"`},
		{"session:0", "k", "v", stated, `"session:0"`},
		{"session:-3", "k", "v", stated, `"session:-3"`},
		{"session:x", "k", "v", stated, `"session:x"`},
		{"campaign", "", "v", stated, "key is empty"},
		{"campaign", "k", " ", stated, "value is empty"},
		{"campaign", "k", "v", "note:otra.md@abc", `"otra.md" is not in the index`},
		{"campaign", "k", "v", "note:reglas.md@abc", "h-reglas.md"},
		{"campaign", "k", "v", "stated:dm@2026-12-01", "want stated:"},
		{"campaign", "k", "v", "stated:dm:ana@ayer", "want stated:"},
		{"campaign", "k", "v", "rumor", `"rumor"`},
	} {
		m, err := ix.AddMemory(ctx, store.Memory{Scope: tc.scope, Key: tc.key, Value: tc.value, Source: tc.source}, false)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("AddMemory(%q, %q, %q): %v", tc.scope, tc.key, tc.source, err)
		case tc.want == "" && (m.Status != store.MemoryHypothesis || !m.Active || m.ID == "" || m.Source != tc.source):
			t.Errorf("AddMemory(%q, %q) = %+v; want an active hypothesis with an id and the source as given", tc.scope, tc.key, m)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("AddMemory(%q, %q, %q, %q) = %v; want an error with %s", tc.scope, tc.key, tc.value, tc.source, err, tc.want)
		}
	}
	v, err := ix.AddMemory(ctx, store.Memory{Scope: "campaign", Key: "kv", Value: "v", Source: stated}, true)
	if err != nil || v.Status != store.MemoryVerified {
		t.Errorf("AddMemory verified = %+v, %v; want verified", v, err)
	}
}

// TestMemoryOneActive: a second value for a (scope, key) is refused,
// naming the active entry; the database refuses it too, even when two
// writers race or a row is written directly.
func TestMemoryOneActive(t *testing.T) {
	ctx := context.Background()
	ix := testIndex(t)
	first := addMemory(t, ix, "campaign", "criticos", "doble daño")
	_, err := ix.AddMemory(ctx, store.Memory{Scope: "campaign", Key: "criticos", Value: "triple", Source: stated}, false)
	if err == nil || !strings.Contains(err.Error(), first.ID) || !strings.Contains(err.Error(), "supersede") || !errors.Is(err, store.ErrMemoryConflict) {
		t.Fatalf("second AddMemory = %v; want an error naming %s and supersede", err, first.ID)
	}
	// Another scope is another key.
	addMemory(t, ix, "player:ana", "criticos", "triple")

	_, err = ix.DB().ExecContext(ctx, `INSERT INTO memory(`+memoryColumns+`) VALUES ('x1', 'campaign', 'criticos', 'v', ?, 'hypothesis', '', '2026-12-01T00:00:00Z', '', 1)`, stated)
	if err == nil {
		t.Fatal("a direct insert of a second active entry succeeded")
	}

	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = ix.AddMemory(ctx, store.Memory{Scope: "session:3", Key: "lugar", Value: "posada", Source: stated}, false)
		}()
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		if err == nil {
			ok++
		}
	}
	ms, err := ix.Memories(ctx, "session:3", false)
	if err != nil {
		t.Fatal(err)
	}
	if ok != 1 || len(ms) != 1 {
		t.Fatalf("racing adds: %d succeeded, %d active; want 1 and 1 (%v)", ok, len(ms), errs)
	}
	for _, err := range errs {
		if err != nil && !strings.Contains(err.Error(), ms[0].ID) {
			t.Errorf("a racing add failed with %v; want it to name %s", err, ms[0].ID)
		}
	}

	// Writers that skip AddMemory's check (insertMemory alone, each in
	// its own transaction) are held by the database's unique index.
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tx, err := ix.DB().BeginTx(ctx, nil)
			if err != nil {
				errs[i] = err
				return
			}
			defer tx.Rollback()
			if _, err := insertMemory(ctx, tx, store.Memory{Scope: "session:4", Key: "lugar", Value: "posada", Source: stated, Status: store.MemoryHypothesis}); err != nil {
				errs[i] = err
				return
			}
			errs[i] = tx.Commit()
		}()
	}
	wg.Wait()
	ok = 0
	for _, err := range errs {
		if err == nil {
			ok++
		}
	}
	if ms, err := ix.Memories(ctx, "session:4", false); err != nil || ok != 1 || len(ms) != 1 {
		t.Errorf("racing inserts: %d succeeded, %d active (%v); want 1 and 1 (%v)", ok, len(ms), err, errs)
	}
}

// TestMemorySupersede: the new entry is active and names the old one,
// the old one is inactive, and the chain lists newest first.
func TestMemorySupersede(t *testing.T) {
	ctx := context.Background()
	ix := testIndex(t)
	a := addMemory(t, ix, "campaign", "criticos", "doble daño")
	b, err := ix.SupersedeMemory(ctx, a.ID, "triple daño", store.Memory{}, false)
	if err != nil {
		t.Fatal(err)
	}
	if !b.Active || b.Supersedes != a.ID || b.Scope != a.Scope || b.Key != a.Key || b.Value != "triple daño" {
		t.Errorf("superseding = %+v; want an active entry for the same key naming %s", b, a.ID)
	}
	if old, err := ix.Memory(ctx, a.ID); err != nil || old.Active {
		t.Errorf("old entry = %+v, %v; want inactive", old, err)
	}
	if _, err := ix.SupersedeMemory(ctx, a.ID, "otra", store.Memory{}, false); !errors.Is(err, store.ErrMemoryConflict) {
		t.Errorf("superseding an inactive entry = %v; want a conflict", err)
	}
	c, err := ix.SupersedeMemory(ctx, b.ID, "máximo daño", store.Memory{}, true)
	if err != nil || c.Status != store.MemoryVerified {
		t.Fatalf("SupersedeMemory verified = %+v, %v", c, err)
	}
	chain, err := ix.MemoryChain(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(chain); got != c.ID+" "+b.ID+" "+a.ID {
		t.Errorf("chain = %s; want %s %s %s", got, c.ID, b.ID, a.ID)
	}
	active, _ := ix.Memories(ctx, "", false)
	all, _ := ix.Memories(ctx, "", true)
	if len(active) != 1 || active[0].ID != c.ID || len(all) != 3 {
		t.Errorf("active %s, all %s; want %s and all three", ids(active), ids(all), c.ID)
	}
}

// TestMemoryVerify: a hypothesis becomes verified; an unknown id is
// ErrNoMemory.
func TestMemoryVerify(t *testing.T) {
	ctx := context.Background()
	ix := testIndex(t)
	a := addMemory(t, ix, "campaign", "k", "v")
	if err := ix.VerifyMemory(ctx, a.ID, ""); err != nil {
		t.Fatal(err)
	}
	if m, _ := ix.Memory(ctx, a.ID); m.Status != store.MemoryVerified {
		t.Errorf("status = %q; want verified", m.Status)
	}
	if err := ix.VerifyMemory(ctx, "m99", ""); !errors.Is(err, store.ErrNoMemory) {
		t.Errorf("VerifyMemory(m99) = %v; want ErrNoMemory", err)
	}
}

// TestMemoryForget: the entry is gone, so is every link to it, and
// forgetting the active entry does not bring back the one it replaced.
func TestMemoryForget(t *testing.T) {
	ctx := context.Background()
	ix := testIndex(t)
	a := addMemory(t, ix, "campaign", "k", "uno")
	b, err := ix.SupersedeMemory(ctx, a.ID, "dos", store.Memory{}, false)
	if err != nil {
		t.Fatal(err)
	}
	c, err := ix.SupersedeMemory(ctx, b.ID, "tres", store.Memory{}, false)
	if err != nil {
		t.Fatal(err)
	}
	// The middle of the chain: c no longer names it.
	if err := ix.ForgetMemory(ctx, b.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Memory(ctx, b.ID); !errors.Is(err, store.ErrNoMemory) {
		t.Errorf("forgotten entry read back: %v", err)
	}
	var n int
	if err := ix.DB().QueryRowContext(ctx, `SELECT count(*) FROM memory WHERE id = ? OR supersedes = ?`, b.ID, b.ID).Scan(&n); err != nil || n != 0 {
		t.Errorf("rows naming %s: %d, %v; want none", b.ID, n, err)
	}
	if m, _ := ix.Memory(ctx, c.ID); m.Supersedes != "" {
		t.Errorf("%s supersedes %q; want it cleared", c.ID, m.Supersedes)
	}
	// The active one: none is left active.
	if err := ix.ForgetMemory(ctx, c.ID); err != nil {
		t.Fatal(err)
	}
	active, err := ix.Memories(ctx, "campaign", false)
	if err != nil || len(active) != 0 {
		t.Errorf("active after forgetting the active entry: %s, %v; want none", ids(active), err)
	}
	if err := ix.ForgetMemory(ctx, c.ID); !errors.Is(err, store.ErrNoMemory) {
		t.Errorf("forgetting twice = %v; want ErrNoMemory", err)
	}
	// Ids are not reused.
	d := addMemory(t, ix, "campaign", "k", "cuatro")
	if d.ID == b.ID || d.ID == c.ID {
		t.Errorf("new entry reuses id %s", d.ID)
	}
}

func ids(ms []store.Memory) string {
	var s []string
	for _, m := range ms {
		s = append(s, m.ID)
	}
	return strings.Join(s, " ")
}

// TestForgetLeavesNoBytes: a forgotten value is in neither the database
// file nor its log afterwards, not even in free pages (personal
// information must really go), while a value not forgotten still is.
func TestForgetLeavesNoBytes(t *testing.T) {
	ctx := context.Background()
	ix := testIndex(t)
	// Enough entries that the table spans pages, and one to forget among
	// them.
	for i := range 50 {
		addMemory(t, ix, "campaign", "relleno-"+strconv.Itoa(i), strings.Repeat("texto de relleno ", 20))
	}
	secret := addMemory(t, ix, "player:ana", "alergia", "Ana-es-alérgica-al-marisco-7731")
	addMemory(t, ix, "campaign", "regla", "Regla-que-se-queda-4412")
	if err := ix.ForgetMemory(ctx, secret.ID); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(ix.Path() + "*")
	if len(files) == 0 {
		t.Fatalf("no database file at %s", ix.Path())
	}
	var all []byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, b...)
	}
	if bytes.Contains(all, []byte("7731")) || bytes.Contains(all, []byte("alérgica")) {
		t.Errorf("the forgotten value is still in %v", files)
	}
	if !bytes.Contains(all, []byte("Regla-que-se-queda-4412")) {
		t.Errorf("the value not forgotten is in none of %v: the check reads the wrong files", files)
	}
}
