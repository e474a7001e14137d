package leakcheck

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// secrets is the table's campaign: sentence 3 holds sentence 2 and ends
// with sentence 4, and sentence 1 has what JSON escapes.
var secrets = Secrets{
	IDs:    []string{"c1a2", "c9"},
	Files:  []string{"DM/Traición.md", "DM/plan.md"},
	Labels: []string{"El traidor", "Plan del máster"},
	Sentences: []string{
		"El Barón Óscar traicionará al grupo en la boda",
		`Dijo "nunca" a la Reina & al <Rey> del norte`,
		"el grupo cruzará el río al alba sin barco",
		"Mañana el grupo cruzará el río al alba sin barco ni mapa",
		"el río al alba sin barco ni mapa",
	},
}

func jsonOf(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(data)
}

func TestFind(t *testing.T) {
	s0, s1, s2, s3, s4 := secrets.Sentences[0], secrets.Sentences[1], secrets.Sentences[2], secrets.Sentences[3], secrets.Sentences[4]
	tests := []struct {
		name, data string
		want       []string
	}{
		{"empty", "", nil},
		{"public text", `{"answer":"El grupo llegó a la boda del barón."}`, nil},

		{"sentence at the start", strings.ToLower(s0) + ", dijo.", []string{"text " + s0}},
		{"sentence at the end", "dijo: " + s0, []string{"text " + s0}},
		{"sentence is the whole text", s0, []string{"text " + s0}},
		{"sentence in capitals", "«" + strings.ToUpper(s0) + "»", []string{"text " + s0}},
		{"sentence JSON-escaped", jsonOf(map[string]string{"answer": "Y " + s1 + "."}), []string{"text " + s1}},
		{"sentence JSON-escaped in capitals", strings.ToUpper(jsonOf(s1)), []string{"text " + s1}},
		{"sentence after invalid UTF-8", "\xff\xc3" + s0 + "\xe2", []string{"text " + s0}},
		{"sentences inside another", "«" + s3 + "»", []string{"text " + s2, "text " + s3, "text " + s4}},

		{"sentence without its accents", "el baron oscar traicionara al grupo en la boda", nil},
		{"sentence with a doubled space", "El Barón  Óscar traicionará al grupo en la boda", nil},
		{"sentence across a line break", "El Barón Óscar traicionará\nal grupo en la boda", nil},
		{"sentence cut short", "El Barón Óscar traicionará al grupo en la bod", nil},
		{"sentence missing its first letter", "l Barón Óscar traicionará al grupo en la boda", nil},
		{"sentence with a letter changed", "El Barón Óscar traicionará al grupo en la bota", nil},
		{"escaped sentence half-escaped", `Dijo \"nunca" a la Reina & al <Rey> del norte`, nil},

		{"id as a JSON string", `{"id":"c1a2"}`, []string{"id c1a2"}},
		{"id at the very start and end", `"c9"`, []string{"id c9"}},
		{"id unquoted", `chunk c1a2 c9`, nil},
		{"id in capitals", `{"id":"C1A2"}`, nil},
		{"id opening a longer string", `{"id":"c1a2x","next":"xc9"}`, nil},

		{"file anywhere", "see DM/plan.md.", []string{"file DM/plan.md"}},
		{"file with its accent", `"DM/Traición.md"`, []string{"file DM/Traición.md"}},
		{"file without its accent", `"DM/Traicion.md"`, nil},
		{"file in another case", `dm/plan.md`, nil},

		{"label opening a JSON string", `{"label":"El traidor — escena 2"}`, []string{"label El traidor"}},
		{"label inside a string", `{"label":"Sobre El traidor"}`, nil},
		{"label in another case", `{"label":"el traidor"}`, nil},

		{"everything, listed in the secrets' order",
			s3 + ` "c9" DM/Traición.md "Plan del máster" ` + strings.ToUpper(s0) + `"El traidor"` + jsonOf(s1) + ` "c1a2"`,
			[]string{"id c1a2", "file DM/Traición.md", "label El traidor", "id c9", "label Plan del máster",
				"text " + s0, "text " + s1, "text " + s2, "text " + s3, "text " + s4}},
		{"a secret twice is named once", s0 + " " + s0 + ` "c9" "c9"`, []string{"id c9", "text " + s0}},
	}
	m := secrets.Matcher()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := m.Find([]byte(tt.data)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Find(%q)\n got %q\nwant %q", tt.data, got, tt.want)
			}
			if got := naiveFind(secrets, []byte(tt.data)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("the check of one secret at a time disagrees with the table: %q", got)
			}
		})
	}
}

// TestMatcherIsASnapshot: a matcher seeks the secrets there were when it
// was made, and adding to them later does not change it.
func TestMatcherIsASnapshot(t *testing.T) {
	s := secrets
	s.Sentences = append([]string(nil), s.Sentences...)
	m := s.Matcher()
	s.Sentences[0] = "otra frase secreta que nadie dijo jamás"
	if got := m.Find([]byte(secrets.Sentences[0])); len(got) != 1 {
		t.Errorf("the matcher lost a sentence changed after it was made: %q", got)
	}
	if got := m.Find([]byte(s.Sentences[0])); len(got) != 0 {
		t.Errorf("the matcher found a sentence added after it was made: %q", got)
	}
}

// oddSecrets adds what the engine's secrets never have but the matcher
// must still treat as the one-at-a-time check did: an empty file and
// label, a repeated id, secrets in letters whose lowercase changes length.
var oddSecrets = Secrets{
	IDs:       append(append([]string(nil), secrets.IDs...), "c9", "Kx"),
	Files:     append(append([]string(nil), secrets.Files...), "", "DM/İstanbul.md"),
	Labels:    append(append([]string(nil), secrets.Labels...), "", "ΣΟΦΊΑ"),
	Sentences: append(append([]string(nil), secrets.Sentences...), "İstanbul y el \u212Aelvin del ΣΟΦΌΣ", "a\\b"),
}

// fragments build random responses: pieces of the secrets in their
// forms, and what could confuse a byte matcher.
func fragments(s Secrets) []string {
	frags := []string{" ", `"`, `\`, "\n", "á", "Á", "İ", "ı", "\u212A", "k", "ß", "Σ", "ς", "\xff", "\xc3", "\xe2\x82", "\ufffd", "<", `\u003c`}
	for i, id := range s.IDs {
		frags = append(frags, id, `"`+id+`"`, `"`+id, s.Files[i], `"`+s.Labels[i], s.Labels[i])
	}
	for _, sent := range s.Sentences {
		frags = append(frags, sent, strings.ToUpper(sent), jsonOf(sent), strings.ToLower(jsonOf(sent)))
		words := strings.Fields(sent)
		for i := 1; i < len(words); i++ {
			frags = append(frags, strings.Join(words[:i], " ")+" ", " "+strings.Join(words[i:], " "))
		}
	}
	return frags
}

// randomText joins random fragments, sometimes cutting one or changing
// its case.
func randomText(r *rand.Rand, frags []string) string {
	var b strings.Builder
	for range r.IntN(12) {
		f := frags[r.IntN(len(frags))]
		switch r.IntN(6) {
		case 0:
			f = f[:r.IntN(len(f)+1)]
		case 1:
			f = f[r.IntN(len(f)+1):]
		case 2:
			f = strings.ToUpper(f)
		}
		b.WriteString(f)
	}
	return b.String()
}

// TestFindAgreesWithOneSecretAtATime compares the matcher with the check
// it replaced, which sought each secret in turn, on random responses.
func TestFindAgreesWithOneSecretAtATime(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 1))
	for _, s := range []Secrets{secrets, oddSecrets} {
		m, frags := s.Matcher(), fragments(s)
		found := 0
		for range 20000 {
			data := []byte(randomText(r, frags))
			got, want := m.Find(data), naiveFind(s, data)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("Find(%q)\n got %q\nwant %q", data, got, want)
			}
			found += len(want)
		}
		if found < 10000 {
			t.Errorf("only %d secrets found in 20,000 random responses: the comparison proves little", found)
		}
	}
}

func FuzzFind(f *testing.F) {
	for _, frag := range fragments(oddSecrets) {
		f.Add([]byte(frag))
	}
	m := oddSecrets.Matcher()
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := m.Find(data), naiveFind(oddSecrets, data); !reflect.DeepEqual(got, want) {
			t.Fatalf("Find(%q)\n got %q\nwant %q", data, got, want)
		}
	})
}

// naiveFind is the check the matcher replaced, one secret at a time:
// its answers are the matcher's specification.
func naiveFind(s Secrets, data []byte) []string {
	text := string(data)
	lower := strings.ToLower(text)
	var out []string
	for i, id := range s.IDs {
		if strings.Contains(text, `"`+id+`"`) {
			out = append(out, "id "+id)
		}
		if strings.Contains(text, s.Files[i]) {
			out = append(out, "file "+s.Files[i])
		}
		if strings.Contains(text, `"`+s.Labels[i]) {
			out = append(out, "label "+s.Labels[i])
		}
	}
	for _, sent := range s.Sentences {
		low := strings.ToLower(sent)
		escaped, _ := json.Marshal(low)
		if strings.Contains(lower, low) || strings.Contains(lower, strings.Trim(string(escaped), `"`)) {
			out = append(out, "text "+sent)
		}
	}
	return out
}

func BenchmarkFind(b *testing.B) {
	var s Secrets
	for i := range 200 {
		s.IDs = append(s.IDs, "chunk-"+strings.Repeat("x", i%7)+string(rune('a'+i%26)))
		s.Files = append(s.Files, "DM/nota"+string(rune('a'+i%26))+".md")
		s.Labels = append(s.Labels, "Escena secreta "+string(rune('a'+i%26)))
		s.Sentences = append(s.Sentences, "el máster guarda aquí la frase secreta número "+strings.Repeat("i", i))
	}
	data := []byte(strings.Repeat(jsonOf(map[string]string{"answer": "El grupo llegó a la boda del barón y habló con la reina."}), 500))
	b.Run("matcher", func(b *testing.B) {
		m := s.Matcher()
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			m.Find(data)
		}
	})
	b.Run("one-at-a-time", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			naiveFind(s, data)
		}
	})
}
