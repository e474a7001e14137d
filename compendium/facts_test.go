package compendium

import (
	"reflect"
	"strings"
	"testing"

	"github.com/oraculo/oraculo/text"
)

// A corpus of facts stored and read back builds the compendium Build
// builds from the texts.
func TestCorpusOfStoredFacts(t *testing.T) {
	notes := readVault(t, sampleDir)
	for _, cfg := range []Config{{}, {SkipFolders: []string{"Lugares"}}, {MinNotes: 1, MinMentions: 1}} {
		want, err := Build(notes, nil, cfg)
		if err != nil {
			t.Fatal(err)
		}
		c, err := NewCorpus(cfg)
		if err != nil {
			t.Fatal(err)
		}
		var lower [][]byte
		for _, n := range notes {
			ex := Extract(n.Text)
			data, err := ex.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			var f Facts
			if err := f.UnmarshalBinary(data); err != nil {
				t.Fatal(err)
			}
			c.Add(n, &f)
			lower = append(lower, ex.MarshalLower())
		}
		for _, l := range lower {
			if err := c.AddLower(l); err != nil {
				t.Fatal(err)
			}
		}
		got, err := c.Build(nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("config %+v: the corpus of stored facts built %d entities, Build %d, or they differ", cfg, len(got), len(want))
		}
	}
}

func TestFactsRejectMalformed(t *testing.T) {
	data, _ := Extract("Hola [[Harbin]], dijo Tomás a Tomás.\n## La Torre Gris\n").MarshalBinary()
	for i := 0; i < len(data); i++ {
		var f Facts
		if err := f.UnmarshalBinary(data[:i]); err == nil {
			t.Errorf("%d of %d bytes decoded without error", i, len(data))
		}
	}
	var f Facts
	if err := f.UnmarshalBinary(data); err != nil || len(f.Links) != 1 || len(f.Headings) != 1 {
		t.Errorf("decoded %+v, %v", f, err)
	}
}

func TestMayBeName(t *testing.T) {
	words := []string{"iglesia", "voz", "de", "la", "enero", "sesion", "maese", "123", "ab", "luego", "brumal", "a1b", "ñandu", "cafe con"}
	for _, n := range readVault(t, sampleDir) {
		words = append(words, strings.Fields(n.Text)...)
	}
	for _, w := range words {
		k := Normalize(w)
		want := !strings.Contains(k, " ") && goodCandidate(k)
		if got := mayBeName(k); got != want {
			t.Errorf("mayBeName(%q) = %v, goodCandidate says %v", k, got, want)
		}
	}
}

// Normalize's shortcut for plain ASCII words gives what the general way
// gives.
func TestNormalizePlainWords(t *testing.T) {
	general := func(s string) string {
		var buf []byte
		for start, end := range text.Words(s) {
			if len(buf) > 0 {
				buf = append(buf, ' ')
			}
			buf = text.AppendFold(buf, s[start:end])
		}
		return string(buf)
	}
	for _, s := range []string{"", "a", "Garrik", "GARRIK", "abc123", "A1b2", "Kael-Dur", "Tomás", "x y", "Z"} {
		if got, want := Normalize(s), general(s); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", s, got, want)
		}
	}
}
