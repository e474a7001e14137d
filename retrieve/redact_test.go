package retrieve

import (
	"reflect"
	"strings"
	"testing"
)

// TestRedact: every note text of a hit (text, passage, title, headings)
// goes through redact; the rest of the hit does not.
func TestRedact(t *testing.T) {
	hits := []Hit{{ID: "a", File: "x/y.md", Text: "t", Passage: "p", Title: "ti", Headings: []string{"h"}}}
	Redact(hits, strings.ToUpper)
	want := Hit{ID: "a", File: "x/y.md", Text: "T", Passage: "P", Title: "TI", Headings: []string{"H"}}
	if !reflect.DeepEqual(hits[0], want) {
		t.Errorf("Redact = %+v, want %+v", hits[0], want)
	}
}
