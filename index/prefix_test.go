package index

import (
	"context"
	"testing"
)

// TestTermPrefixUsed: a term's inflections share the start of its stem;
// a player's lookup never counts a DM-only note; FTS5 syntax in the
// prefix finds nothing rather than failing.
func TestTermPrefixUsed(t *testing.T) {
	ctx := context.Background()
	ix := testIndex(t)
	if err := ix.ReplaceDocument(ctx, doc("a.md", []string{"destru puent galern"})); err != nil {
		t.Fatal(err)
	}
	secret := doc("s.md", []string{"morgrath vel"})
	secret.DMOnly, secret.DMReason = true, "front-matter"
	if err := ix.ReplaceDocument(ctx, secret); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		prefix string
		public bool
		want   bool
	}{
		{"destr", false, true}, // "destruyera" and "destruyó" share it
		{"destr", true, true},
		{"gale", false, true},
		{"zarq", false, false},
		{"morg", false, true}, // the DM sees the DM-only note
		{"morg", true, false}, // a player does not
		{"", false, false},
		{`de"str`, false, false},
		{"de*", false, false},
		{"a OR b", false, false},
	}
	for _, c := range cases {
		got, err := ix.TermPrefixUsed(ctx, c.prefix, c.public)
		if err != nil || got != c.want {
			t.Errorf("TermPrefixUsed(%q, public %v) = %v, %v; want %v", c.prefix, c.public, got, err, c.want)
		}
	}
}
