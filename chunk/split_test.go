package chunk

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// ws returns n distinct words starting at w<from>.
func ws(from, n int) string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("w%d", from+i)
	}
	return strings.Join(out, " ")
}

// summary renders each chunk as "label | session | headings | [start,end)".
func summary(chunks []Chunk) []string {
	out := make([]string, len(chunks))
	for i, c := range chunks {
		s := "-"
		if c.InSession {
			s = fmt.Sprint(c.Session)
		}
		out[i] = fmt.Sprintf("%s | %s | %s | [%d,%d)", c.Label, s, strings.Join(c.Headings, " › "), c.WordStart, c.WordEnd)
	}
	return out
}

func TestSplit(t *testing.T) {
	small := Options{MaxWords: 10, OverlapWords: 3}
	tests := []struct {
		name string
		doc  Document
		opts Options
		want []string
	}{
		{
			name: "block exactly at cap is one chunk",
			doc:  Document{Path: "n/a.md", Text: "## A\n" + ws(0, 3) + "\n\n## B\n" + ws(3, 3)},
			opts: small,
			want: []string{"n: a | - | a | [0,10)"},
		},
		{
			name: "cap plus one splits at headings",
			doc:  Document{Path: "n/a.md", Text: "## A\n" + ws(0, 3) + "\n\n## B\n" + ws(3, 4)},
			opts: small,
			want: []string{
				"n: a › A | - | a › A | [0,5)",
				"n: a › B | - | a › B | [5,11)",
			},
		},
		{
			name: "grouping fills up to exactly the cap without cutting",
			doc: Document{Path: "n/a.md", Text: "intro uno dos\n\n## A\n" + ws(0, 1) + "\n## B\n" + ws(1, 2) +
				"\n\n## C\n" + ws(3, 1) + "\n## D\n" + ws(4, 8)},
			opts: small,
			want: []string{
				"n: a | - | a | [0,10)",
				"n: a › C | - | a › C | [10,13)",
				"n: a › D | - | a › D | [13,23)",
			},
		},
		{
			name: "no headings over the cap: windows",
			doc:  Document{Path: "n/a.md", Text: ws(0, 25)},
			opts: small,
			want: []string{
				"n: a (1/4) | - | a | [0,10)",
				"n: a (2/4) | - | a | [7,17)",
				"n: a (3/4) | - | a | [14,24)",
				"n: a (4/4) | - | a | [21,25)",
			},
		},
		{
			name: "windows without overlap",
			doc:  Document{Path: "a.md", Text: ws(0, 25)},
			opts: Options{MaxWords: 10},
			want: []string{
				"a (1/3) | - | a | [0,10)",
				"a (2/3) | - | a | [10,20)",
				"a (3/3) | - | a | [20,25)",
			},
		},
		{
			name: "window of a titled section inside a session",
			doc:  Document{Path: "c.md", Text: "## Sesión 4\nuno dos\n### Combate\n" + ws(0, 14) + "\n### Fin\nadiós"},
			opts: small,
			want: []string{
				"Sesión 4 | 4 | c › Sesión 4 | [0,5)",
				"Sesión 4 › Combate (1/2) | 4 | c › Sesión 4 › Combate | [5,15)",
				"Sesión 4 › Combate (2/2) | 4 | c › Sesión 4 › Combate | [12,21)",
				"Sesión 4 › Fin | 4 | c › Sesión 4 › Fin | [21,24)",
			},
		},
		{
			name: "session labels in English",
			doc:  Document{Path: "c.md", Text: "## Session 1\nuno\n## Sesión 2\ndos"},
			opts: Options{MaxWords: 100, Lang: "en"},
			want: []string{
				"Session 1 | 1 | c › Session 1 | [0,4)",
				"Session 2 | 2 | c › Sesión 2 | [4,8)",
			},
		},
		{
			name: "repeated labels get numbered suffixes",
			doc:  Document{Path: "c.md", Text: "## Sesión 5\nuno\n## Sesión 5\ndos\n## Sesión 5b\ntres\n## Sesión 6\ncuatro"},
			opts: Options{MaxWords: 100},
			want: []string{
				"Sesión 5 | 5 | c › Sesión 5 | [0,4)",
				"Sesión 5 (2) | 5 | c › Sesión 5 | [4,8)",
				"Sesión 5 (3) | 5 | c › Sesión 5b | [8,12)",
				"Sesión 6 | 6 | c › Sesión 6 | [12,16)",
			},
		},
		{
			name: "repeated narrowed labels",
			doc:  Document{Path: "NPCs/Harbin.md", Text: "## Notas\n" + ws(0, 8) + "\n## Notas\n" + ws(8, 8)},
			opts: small,
			want: []string{
				"NPCs: Harbin › Notas | - | Harbin › Notas | [0,10)",
				"NPCs: Harbin › Notas (2) | - | Harbin › Notas | [10,20)",
			},
		},
		{
			name: "a narrowing heading's markup is rendered in the label, kept in the path",
			doc:  Document{Path: "NPCs/Harbin.md", Text: "## Con [[Tensión eficaz|tensión]]\n" + ws(0, 6) + "\n## Notas ==clave==\n" + ws(6, 6)},
			opts: small,
			want: []string{
				"NPCs: Harbin › Con tensión | - | Harbin › Con [[Tensión eficaz|tensión]] | [0,10)",
				"NPCs: Harbin › Notas clave | - | Harbin › Notas ==clave== | [10,19)",
			},
		},
		{
			name: "folder and stem labels, title heading not repeated",
			doc:  Document{Path: "Fichas/Katerina_Emberdusk.md", Text: "# Katerina Emberdusk\n\nPícara.\n\n## Equipo\nBallesta."},
			opts: Options{MaxWords: 100},
			want: []string{"Fichas: Katerina_Emberdusk | - | Katerina Emberdusk | [0,7)"},
		},
		{
			name: "deep folder uses the parent only; root file uses the stem",
			doc:  Document{Path: "Mundo/NPCs/Sildar.md", Title: "Sildar Hallwinter", Text: "Caballero."},
			opts: Options{MaxWords: 100},
			want: []string{"NPCs: Sildar | - | Sildar Hallwinter | [0,1)"},
		},
		{
			name: "heading paths: common prefix of grouped sections",
			doc: Document{Path: "n/x.md", Title: "X", Text: "# Lugares\n## Norte\n### Bosque\n" + ws(0, 2) + "\n### Río\n" + ws(2, 2) +
				"\n## Sur\n" + ws(4, 6)},
			opts: small,
			want: []string{
				"n: x › Lugares | - | X › Lugares | [0,8)",
				"n: x › Río | - | X › Lugares › Norte › Río | [8,12)",
				"n: x › Sur | - | X › Lugares › Sur | [12,20)",
			},
		},
		{
			name: "file named as a session without headers is that session",
			doc:  Document{Path: "Sesiones/Sesion 7.md", Text: "Cruzamos el bosque.\n\n## Combate\nLobos."},
			opts: Options{MaxWords: 100},
			want: []string{"Sesión 7 | 7 | Sesion 7 | [0,6)"},
		},
		{
			name: "file named as a session with headers: headers win",
			doc:  Document{Path: "Sesiones/Sesion 7.md", Text: "Fecha: marzo.\n\n## Sesión 8\nLobos."},
			opts: Options{MaxWords: 100},
			want: []string{
				"Sesiones: Sesion 7 | - | Sesion 7 | [0,2)",
				"Sesión 8 | 8 | Sesion 7 › Sesión 8 | [2,6)",
			},
		},
		{
			name: "preamble, sessions and a trailing appendix",
			doc: Document{Path: "Campaña/Crónica.md", Text: "# Crónica\n\nIntro de la campaña.\n\n## Sesión 1 — Inicio\nTexto uno.\n### Detalle\nMás.\n" +
				"## Sesión 2\nTexto dos.\n\n## Apéndice\nBotín."},
			opts: Options{MaxWords: 100},
			want: []string{
				"Campaña: Crónica | - | Crónica | [0,6)",
				"Sesión 1 | 1 | Crónica › Sesión 1 — Inicio | [6,16)",
				"Sesión 2 | 2 | Crónica › Sesión 2 | [16,21)",
				"Campaña: Crónica › Apéndice | - | Crónica › Apéndice | [21,24)",
			},
		},
		{
			name: "a session started by a level-3 heading is not closed by a level-4 one",
			doc:  Document{Path: "c.md", Text: "### Sesión 1\nuno\n#### Detalle\ndos\n### Otra cosa\ntres"},
			opts: Options{MaxWords: 100},
			want: []string{
				"Sesión 1 | 1 | c › Sesión 1 | [0,7)",
				"c › Otra cosa | - | c › Otra cosa | [7,11)",
			},
		},
		{
			name: "a bold session ends only at the next session",
			doc:  Document{Path: "d.md", Text: "**Sesión 1**\nuno\n\n## Notas\ndos\n\nSesión 2: tres"},
			opts: Options{MaxWords: 100},
			want: []string{
				"Sesión 1 | 1 | d › Sesión 1 | [0,6)",
				"Sesión 2 | 2 | d › Sesión 2: tres | [6,9)",
			},
		},
		{
			name: "a session header in a code fence is ignored",
			doc:  Document{Path: "d.md", Text: "## Sesión 1\nuno\n```\n## Sesión 2\n```\n~~~md\nSesión 3: no\n~~~\ndos"},
			opts: Options{MaxWords: 100},
			want: []string{"Sesión 1 | 1 | d › Sesión 1 | [0,15)"},
		},
		{
			name: "passing mentions do not start sessions",
			doc:  Document{Path: "d.md", Text: "Ya lo vimos en la sesión 5.\nSesión 5 fue dura.\n- Sesión 6: lista\nLa sesión 7: no"},
			opts: Options{MaxWords: 100},
			want: []string{"d | - | d | [0,19)"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			chunks, err := Split(tc.doc, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, tc.doc, tc.opts, chunks)
			if got := summary(chunks); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(tc.want, "\n\t"))
			}
		})
	}
}

func TestSplitGrouping(t *testing.T) {
	// Sections of 3, 3, 4 and 3 words with a cap of 10: the first three fill
	// the cap exactly, the fourth starts a new group.
	text := "## A\nuno\n## B\ndos\n## C\ntres cuatro\n## D\ncinco"
	chunks, err := Split(Document{Path: "a.md", Text: text}, Options{MaxWords: 10})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"a › A | - | a | [0,10)",
		"a › D | - | a › D | [10,13)",
	}
	if got := summary(chunks); !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	if chunks[0].Text != "## A\nuno\n## B\ndos\n## C\ntres cuatro" {
		t.Errorf("first group text %q", chunks[0].Text)
	}
}

func TestSplitEmpty(t *testing.T) {
	for _, text := range []string{"", "\n", "\n\n  \t\n", "\u00a0\u2003\n"} {
		chunks, err := Split(Document{Path: "a.md", Text: text}, Options{MaxWords: 10})
		if err != nil || len(chunks) != 0 {
			t.Errorf("Split(%q) = %d chunks, %v; want none", text, len(chunks), err)
		}
	}
}

func TestSplitBadOptions(t *testing.T) {
	for _, o := range []Options{{}, {MaxWords: -1}, {MaxWords: 10, OverlapWords: -1}, {MaxWords: 10, OverlapWords: 10}, {MaxWords: 10, OverlapWords: 11}} {
		if _, err := Split(Document{Text: "hola"}, o); !errors.Is(err, ErrBadOptions) {
			t.Errorf("Split with %+v: err %v, want ErrBadOptions", o, err)
		}
	}
	if _, err := Split(Document{Text: "hola"}, Options{MaxWords: 1}); err != nil {
		t.Errorf("MaxWords 1, no overlap: %v", err)
	}
}

func TestSplitChildren(t *testing.T) {
	text := "## Sesión 1\n\n### Llegada\n\nUno dos.\nTres.\n\n```\nx\n\ny\n```\n\n### Vacía"
	doc := Document{Path: "a.md", Text: text}
	chunks, err := Split(doc, Options{MaxWords: 100})
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, doc, Options{MaxWords: 100}, chunks)
	var got []string
	for _, c := range chunks[0].Children {
		got = append(got, c.Text)
	}
	want := []string{"## Sesión 1\n\n### Llegada\n\nUno dos.\nTres.", "```\nx\n\ny\n```", "### Vacía"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("children %q, want %q", got, want)
	}
}

func TestSplitWindowChildren(t *testing.T) {
	text := "uno dos tres\n\ncuatro cinco seis\n\nsiete ocho"
	doc := Document{Path: "a.md", Text: text}
	opts := Options{MaxWords: 4, OverlapWords: 1}
	chunks, err := Split(doc, opts)
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, doc, opts, chunks)
	var got [][]string
	for _, c := range chunks {
		var cs []string
		for _, ch := range c.Children {
			cs = append(cs, ch.Text)
		}
		got = append(got, cs)
	}
	want := [][]string{{"uno dos tres", "cuatro"}, {"cuatro cinco seis", "siete"}, {"siete ocho"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("children %q, want %q", got, want)
	}
}

// A document title alone above the first session joins that session's
// chunk (no chunk without content) without entering its heading path.
func TestBareTitleJoinsFirstSession(t *testing.T) {
	doc := Document{Path: "Sesiones/Diario.md", Text: "# Diario\n\n## Sesión 1 — El puente\n\nCruzamos el puente.\n\n## Sesión 2\n\nLa cripta.\n"}
	chunks, err := Split(doc, Options{MaxWords: 100, OverlapWords: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(chunks) != 2 {
		t.Fatalf("%d chunks, want 2: %+v", len(chunks), chunks)
	}
	c := chunks[0]
	if !strings.HasPrefix(c.Text, "# Diario\n\n## Sesión 1") || c.Label != "Sesión 1" || strings.Join(c.Headings, " › ") != "Diario › Sesión 1 — El puente" {
		t.Fatalf("first chunk: label %q headings %q text %q", c.Label, c.Headings, c.Text)
	}
	// Small MaxWords forces sections: the title still stays out of the path.
	chunks, _ = Split(doc, Options{MaxWords: 4, OverlapWords: 1})
	for _, c := range chunks {
		for i, h := range c.Headings {
			if i > 0 && h == "Diario" {
				t.Errorf("title repeated inside the heading path: %q", c.Headings)
			}
		}
	}
}
