package weaviate

import (
	"encoding/json"
	"slices"
	"testing"
)

func TestChunkID(t *testing.T) {
	a, b := ChunkID("0123456789abcdef"), ChunkID("0123456789abcdee")
	// Pinned: ids must not change from one version of the program to
	// the next, or a cluster's objects would all be written again.
	if a != 8814861889993336 {
		t.Errorf("ChunkID = %d, want 8814861889993336", a)
	}
	if a == b || a <= 0 || b <= 0 || a >= 1<<idBits || b >= 1<<idBits {
		t.Errorf("ChunkID gave %d and %d", a, b)
	}
	if x := chunkUUID("x"); x != chunkUUID("x") || x == chunkUUID("y") || paragraphUUID("x", 1) == paragraphUUID("x", 2) || x != "87613d27-098f-5274-bd31-5d62ff15892b" {
		t.Error("object ids are not deterministic and distinct")
	}
}

func TestNoteTags(t *testing.T) {
	for _, tc := range []struct {
		meta string
		want []string
	}{
		{`{}`, []string{}},
		{`{"tags": ["PJ", " Mago "]}`, []string{"pj", "mago"}},
		{`{"tags": "villano, trama secreta"}`, []string{"villano, trama secreta", "villano", "tramasecreta"}},
		{`{"tags": [1, "x"]}`, []string{"x"}},
	} {
		got, err := noteTags(json.RawMessage(tc.meta))
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("noteTags(%s) = %q, %v; want %q", tc.meta, got, err, tc.want)
		}
	}
	if _, err := noteTags(json.RawMessage(`[`)); err == nil {
		t.Error("unreadable front matter: no error")
	}
}

func TestQueryTerms(t *testing.T) {
	if got := distinct([]string{"a", "", "b", "a", "c d"}); !slices.Equal(got, []string{"a", "b", "c", "d"}) {
		t.Errorf("distinct = %q", got)
	}
	if p, err := searchedProps(1); err != nil || !slices.Equal(p, []string{propAllTerms}) {
		t.Errorf("searchedProps(1) = %q, %v", p, err)
	}
	if p, err := searchedProps(3); err != nil || !slices.Equal(p, []string{propHeadingTerms + "^3", propTerms}) {
		t.Errorf("searchedProps(3) = %q, %v", p, err)
	}
	if _, err := searchedProps(1.5); err == nil {
		t.Error("a heading weight of 1.5: no error")
	}
}
