package visibility

import (
	"context"
	"errors"
	"maps"
	"slices"
	"testing"

	"github.com/oraculo/oraculo/store"
)

// records is a store of settings and notes' decisions.
type records struct {
	meta     map[string]string
	notes    []store.VisibilityRecord
	decided  map[string]bool // DM-only, by path
	redecide int
}

func (r *records) Meta(_ context.Context, key string) (string, error) { return r.meta[key], nil }

func (r *records) Redecide(_ context.Context, decide store.Decider, meta map[string]string) (int, error) {
	r.redecide++
	changed := 0
	for _, n := range r.notes {
		dm, _, _ := decide(n)
		if r.decided[n.Path] != dm {
			changed++
		}
		r.decided[n.Path] = dm
	}
	for k, v := range meta {
		r.meta[k] = v
	}
	return changed, nil
}

func TestSettle(t *testing.T) {
	ctx := context.Background()
	r := &records{meta: map[string]string{}, decided: map[string]bool{},
		notes: []store.VisibilityRecord{{Path: "DM/plan.md"}, {Path: "Secretos/x.md"}, {Path: "sesion.md", Metadata: []byte("not json")}}}
	writable := func() error { return nil }
	if changed, err := Settle(ctx, r, []string{"DM"}, writable); err != nil || !changed {
		t.Fatalf("first settlement: %v, %v", changed, err)
	}
	if want := map[string]bool{"DM/plan.md": true, "Secretos/x.md": false, "sesion.md": true}; !maps.Equal(r.decided, want) {
		t.Errorf("decided %v, want %v", r.decided, want)
	}
	if changed, err := Settle(ctx, r, []string{"DM"}, writable); err != nil || changed || r.redecide != 1 {
		t.Errorf("same folders and rules: changed %v, %v, %d redecisions; want none", changed, err, r.redecide)
	}
	readOnly := errors.New("read-only")
	if _, err := Settle(ctx, r, []string{"DM", "Secretos"}, func() error { return readOnly }); !errors.Is(err, readOnly) || r.redecide != 1 {
		t.Errorf("new folders on a read-only store: %v, %d redecisions", err, r.redecide)
	}
	if changed, err := Settle(ctx, r, []string{"DM", "Secretos"}, writable); err != nil || !changed || !r.decided["Secretos/x.md"] {
		t.Errorf("new folders: changed %v, %v, %v", changed, err, r.decided)
	}
	folders, err := Folders(ctx, r, nil, false, []string{"Máster"})
	if err != nil || !slices.Equal(folders, []string{"DM", "Secretos"}) {
		t.Errorf("stored folders: %v, %v", folders, err)
	}
}

func TestFolders(t *testing.T) {
	ctx := context.Background()
	empty := &records{meta: map[string]string{}}
	for _, c := range []struct {
		given []string
		set   bool
		want  []string
	}{
		{nil, false, []string{"DM"}},
		{nil, true, []string{}},
		{[]string{" /b/ ", `a\c`, "", "b"}, false, []string{"a/c", "b"}},
	} {
		got, err := Folders(ctx, empty, c.given, c.set, []string{"DM/"})
		if err != nil || got == nil || !slices.Equal(got, c.want) {
			t.Errorf("Folders(%q, %v) = %q, %v; want %q", c.given, c.set, got, err, c.want)
		}
	}
}
