package index

import (
	"encoding/json"
	"slices"
	"testing"
)

// plainStrings decodes what json.Unmarshal decodes, or declines.
func FuzzPlainStrings(f *testing.F) {
	for _, hs := range [][]string{nil, {}, {"Sesión 3"}, {"a", "b, \"c\"", "d\\e"}, {"<x>&", "\u2028", "tab\there"}, {`","`}} {
		b, _ := json.Marshal(hs)
		f.Add(string(b))
	}
	f.Add(`["a", "b"]`)
	f.Add(`["a","b"`)
	f.Add(`[""]`)
	f.Add("[\"\xff\"]")
	f.Fuzz(func(t *testing.T, s string) {
		var fast []string
		if !plainStrings(s, &fast) {
			return
		}
		var want []string
		if err := json.Unmarshal([]byte(s), &want); err != nil {
			t.Fatalf("%q: decoded as %q, json.Unmarshal fails: %v", s, fast, err)
		}
		if !slices.Equal(fast, want) || (fast == nil) != (want == nil) {
			t.Fatalf("%q: decoded as %q, json.Unmarshal gives %q", s, fast, want)
		}
	})
}

// Heading paths as the index writes them take the plain way.
func TestPlainStringsTakesMarshalled(t *testing.T) {
	for _, hs := range [][]string{{}, {"Sesión 3", "Lo que pasó"}, {""}, {"a", ""}} {
		b, _ := json.Marshal(hs)
		var got []string
		if !plainStrings(string(b), &got) || !slices.Equal(got, hs) {
			t.Errorf("%s: got %q (plain %v), want %q", b, got, got != nil, hs)
		}
	}
}
