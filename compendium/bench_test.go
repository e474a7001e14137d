package compendium

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// benchCorpus returns ~1,000 entities (the sample campaign's plus invented
// ones with aliases) and ~1 MB of text: the sample notes repeated, with
// invented names, some misspelt, every few hundred bytes.
func benchCorpus(tb testing.TB) ([]Entity, string) {
	notes := readVault(tb, sampleDir)
	ents, err := Build(notes, nil, Config{})
	if err != nil {
		tb.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	syll := []string{"ka", "el", "mor", "va", "en", "ris", "tal", "do", "ur", "an", "sel", "qui", "lon", "bra", "zu", "fen", "wi", "ck", "ar", "gor"}
	word := func() string {
		var b strings.Builder
		for n := 2 + r.IntN(3); n > 0; n-- {
			b.WriteString(syll[r.IntN(len(syll))])
		}
		s := b.String()
		return strings.ToUpper(s[:1]) + s[1:]
	}
	for len(ents) < 1000 {
		var e Entity
		switch r.IntN(3) {
		case 0:
			e = Entity{Name: word() + " " + word(), Kind: KindNPC, Aliases: []string{word()}}
		case 1:
			e = Entity{Name: word() + " de " + word(), Kind: KindPlace, Aliases: []string{"la " + word()}}
		default:
			e = Entity{Name: word(), Kind: KindOther}
		}
		ents = append(ents, e)
	}
	var body strings.Builder
	for _, n := range notes {
		body.WriteString(n.Text)
		body.WriteString("\n")
	}
	base := strings.Fields(body.String())
	var b strings.Builder
	for i := 0; b.Len() < 1<<20; i++ {
		b.WriteString(base[i%len(base)])
		b.WriteByte(' ')
		if i%50 == 0 {
			name := ents[r.IntN(len(ents))].Name
			if r.IntN(4) == 0 && len(name) > 9 {
				j := 2 + r.IntN(len(name)-3)
				if name[j] < 0x80 && name[j+1] < 0x80 {
					name = name[:j] + name[j+1:j+2] + name[j:j+1] + name[j+2:] // a typo
				}
			}
			b.WriteString(name)
			b.WriteByte(' ')
		}
	}
	return ents, b.String()
}

func BenchmarkFind(b *testing.B) {
	ents, text := benchCorpus(b)
	m := NewMatcher(ents)
	ms := m.Find(text)
	fuzzy := 0
	for _, x := range ms {
		if x.Fuzzy {
			fuzzy++
		}
	}
	b.Logf("%d entities, %d bytes, %d mentions (%d fuzzy)", len(ents), len(text), len(ms), fuzzy)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		m.Find(text)
	}
}

// BenchmarkFindChunks is Find over 1 KB chunks, as retrieval would call it.
func BenchmarkFindChunks(b *testing.B) {
	ents, text := benchCorpus(b)
	m := NewMatcher(ents)
	var chunks []string
	for i := 0; i+1024 <= len(text); i += 1024 {
		chunks = append(chunks, text[i:i+1024])
	}
	b.SetBytes(int64(len(chunks) * 1024))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, c := range chunks {
			m.Find(c)
		}
	}
}

func BenchmarkNewMatcher(b *testing.B) {
	ents, _ := benchCorpus(b)
	b.ReportAllocs()
	for b.Loop() {
		NewMatcher(ents)
	}
}

func BenchmarkBuildSample(b *testing.B) {
	notes := readVault(b, sampleDir)
	size := 0
	for _, n := range notes {
		size += len(n.Text)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Build(notes, nil, Config{}); err != nil {
			b.Fatal(err)
		}
	}
}

func ExampleMatcher_Find() {
	m := NewMatcher([]Entity{
		{Name: "Torre de Sal de Ezkarra", Aliases: []string{"Torre de Sal"}},
		{Name: "Ezkarra"},
		{Name: "Emeric Valcárcel", Aliases: []string{"Emeric"}},
	})
	for _, x := range m.Find("Emeric huyó de la torre de sal de ezkarra hacia Ezkarra. ¿Valcarsel? No: Emeric Valcarsel.") {
		fmt.Println(x.Entity, x.Surface, x.Fuzzy)
	}
	// Output:
	// 2 Emeric false
	// 0 torre de sal de ezkarra false
	// 1 Ezkarra false
	// 2 Emeric Valcarsel true
}
