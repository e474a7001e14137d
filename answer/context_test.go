package answer

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// ids returns the items' ids in order.
func ids(items []Item) []int64 {
	out := []int64{}
	for _, it := range items {
		out = append(out, it.ID)
	}
	return out
}

func labels(items []Item) []string {
	out := []string{}
	for _, it := range items {
		out = append(out, it.Label)
	}
	return out
}

// text returns n words.
func text(n int) string {
	return strings.TrimSpace(strings.Repeat("palabra ", n))
}

func TestAssembleCampaign(t *testing.T) {
	ctx := Assemble(campaign(), AssembleOptions{})
	if got, want := ids(ctx.Full), []int64{1, 3, 4, 5, 6}; !reflect.DeepEqual(got, want) {
		t.Errorf("full ids = %v, want %v", got, want)
	}
	if got, want := ids(ctx.Summaries), []int64{2}; !reflect.DeepEqual(got, want) {
		t.Errorf("summary ids = %v, want %v", got, want)
	}
	wantLabels := []string{
		"Sesión 38 › La Dama Velada", "Fichas: Nix", "NPCs: Anika del Molino",
		"Sesión 12 (Diario)", "Sesión 12 (Otra mesa)",
	}
	if got := labels(ctx.Full); !reflect.DeepEqual(got, wantLabels) {
		t.Errorf("full labels = %q, want %q", got, wantLabels)
	}
	s := ctx.Summaries[0]
	if s.Kind != KindSummary || s.Text != "Emboscada de bandidos en el puente de Robledal." || s.Label != "Sesión 38 › El puente" {
		t.Errorf("summary = %+v", s)
	}
	for _, it := range ctx.Full {
		if it.Kind != KindFull || it.Text == "" || it.File == "" {
			t.Errorf("full item %+v", it)
		}
	}
	words := 0
	for _, it := range ctx.Items() {
		words += wordCount(it.Text)
	}
	if ctx.Words != words {
		t.Errorf("Words = %d, want %d", ctx.Words, words)
	}
}

func TestAssembleRules(t *testing.T) {
	session := func(id int64, file string, n int, words int) Candidate {
		return Candidate{ID: id, Label: fmt.Sprintf("Sesión %d › parte %d", n, id), File: file, Session: n, InSession: true,
			Text: text(words), Annotation: fmt.Sprintf("Resumen del fragmento %d.", id)}
	}
	note := func(id int64, file string, words int) Candidate {
		return Candidate{ID: id, Label: "Nota " + file, File: file, Text: text(words), Annotation: fmt.Sprintf("Resumen %d.", id)}
	}
	many := func(n int, f func(i int) Candidate) []Candidate {
		var out []Candidate
		for i := range n {
			out = append(out, f(i))
		}
		return out
	}
	tests := []struct {
		name      string
		cands     []Candidate
		opts      AssembleOptions
		full      []int64
		summaries []int64
	}{
		{
			name: "one slot per session, the second half becomes a summary",
			cands: []Candidate{
				session(1, "d.md", 38, 10), session(2, "d.md", 38, 10), session(3, "d.md", 39, 10),
				session(4, "d.md", 38, 10),
			},
			full: []int64{1, 3}, summaries: []int64{2, 4},
		},
		{
			name:  "same session number in another file is another session",
			cands: []Candidate{session(1, "a.md", 12, 10), session(2, "b.md", 12, 10)},
			full:  []int64{1, 2}, summaries: []int64{},
		},
		{
			name:  "a note without sessions is one session",
			cands: []Candidate{note(1, "Fichas/Nix.md", 10), note(2, "Fichas/Nix.md", 10), note(3, "Fichas/Kael.md", 10)},
			full:  []int64{1, 3}, summaries: []int64{2},
		},
		{
			name: "a session chunk and a non-session chunk of the same file are different sessions",
			cands: []Candidate{
				session(1, "d.md", 1, 10), note(2, "d.md", 10), note(3, "d.md", 10),
			},
			full: []int64{1, 2}, summaries: []int64{3},
		},
		{
			name:  "eight full by default, the rest are summaries",
			cands: many(12, func(i int) Candidate { return note(int64(i+1), fmt.Sprintf("n%d.md", i), 10) }),
			full:  []int64{1, 2, 3, 4, 5, 6, 7, 8}, summaries: []int64{9, 10, 11, 12},
		},
		{
			name:      "summaries capped at sixteen",
			cands:     many(30, func(i int) Candidate { return note(int64(i+1), "same.md", 10) }),
			full:      []int64{1},
			summaries: []int64{2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17},
		},
		{
			name:  "options",
			cands: many(6, func(i int) Candidate { return note(int64(i+1), fmt.Sprintf("n%d.md", i), 10) }),
			opts:  AssembleOptions{Full: 2, Summaries: 3},
			full:  []int64{1, 2}, summaries: []int64{3, 4, 5},
		},
		{
			name:  "no full chunks",
			cands: many(3, func(i int) Candidate { return note(int64(i+1), fmt.Sprintf("n%d.md", i), 10) }),
			opts:  AssembleOptions{Full: -1},
			full:  []int64{}, summaries: []int64{1, 2, 3},
		},
		{
			name:  "no summaries",
			cands: many(3, func(i int) Candidate { return note(int64(i+1), "same.md", 10) }),
			opts:  AssembleOptions{Summaries: -1},
			full:  []int64{1}, summaries: []int64{},
		},
		{
			name:  "a chunk over the budget is skipped whole and the next one tried",
			cands: []Candidate{note(1, "a.md", 30), note(2, "b.md", 30), note(3, "c.md", 15), note(4, "d.md", 10)},
			opts:  AssembleOptions{WordBudget: 50},
			// 30 + 15 = 45; the summary of 2 ("Resumen 2.", 2 words) fits, 4's
			// full chunk does not (55), its summary does (49).
			full: []int64{1, 3}, summaries: []int64{2, 4},
		},
		{
			name:  "summaries stop at the budget",
			cands: []Candidate{note(1, "a.md", 45), note(2, "a.md", 10), note(3, "a.md", 10), note(4, "a.md", 10)},
			opts:  AssembleOptions{WordBudget: 50},
			// 45 + 2 + 2 = 49; the next summary would make 51.
			full: []int64{1}, summaries: []int64{2, 3},
		},
		{
			name:  "no budget",
			cands: []Candidate{note(1, "a.md", 20000), note(2, "b.md", 20000)},
			opts:  AssembleOptions{WordBudget: -1},
			full:  []int64{1, 2}, summaries: []int64{},
		},
		{
			name:  "the default budget",
			cands: []Candidate{note(1, "a.md", 11000), note(2, "b.md", 1200), note(3, "c.md", 900)},
			full:  []int64{1, 3}, summaries: []int64{2},
		},
		{
			name:  "a repeated id is skipped",
			cands: []Candidate{note(1, "a.md", 10), note(1, "a.md", 10), note(2, "b.md", 10)},
			full:  []int64{1, 2}, summaries: []int64{},
		},
		{
			name: "a chunk without text is no full evidence and, without annotation, no summary",
			cands: []Candidate{
				{ID: 1, Label: "Vacío", File: "v.md", Text: "  \n", Annotation: "Una nota vacía."},
				{ID: 2, Label: "Nada", File: "n.md"},
				note(3, "v.md", 10),
			},
			full: []int64{3}, summaries: []int64{1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := Assemble(tt.cands, tt.opts)
			if got := ids(ctx.Full); !reflect.DeepEqual(got, tt.full) {
				t.Errorf("full = %v, want %v", got, tt.full)
			}
			if got := ids(ctx.Summaries); !reflect.DeepEqual(got, tt.summaries) {
				t.Errorf("summaries = %v, want %v", got, tt.summaries)
			}
			checkContext(t, ctx, tt.opts)
		})
	}
}

// checkContext asserts the invariants of every Context.
func checkContext(t *testing.T, ctx Context, opts AssembleOptions) {
	t.Helper()
	budget := opts.WordBudget
	if budget == 0 {
		budget = DefaultWordBudget
	}
	words := 0
	keys := map[string]bool{}
	for _, it := range ctx.Items() {
		words += wordCount(it.Text)
		k := labelKey(it.Label)
		if keys[k] {
			t.Errorf("label %q repeated", it.Label)
		}
		keys[k] = true
		if !citableLabel(it.Label) {
			t.Errorf("label %q cannot be cited", it.Label)
		}
	}
	for _, it := range ctx.Summaries {
		if strings.Contains(it.Text, "\n") || it.Kind != KindSummary {
			t.Errorf("summary %+v", it)
		}
	}
	if words != ctx.Words {
		t.Errorf("Words = %d, want %d", ctx.Words, words)
	}
	if budget > 0 && ctx.Words > budget {
		t.Errorf("Words = %d over the budget %d", ctx.Words, budget)
	}
	if len(ctx.Full) > max(orDefault(opts.Full, DefaultFull), 0) || len(ctx.Summaries) > max(orDefault(opts.Summaries, DefaultSummaries), 0) {
		t.Errorf("%d full and %d summaries over the limits", len(ctx.Full), len(ctx.Summaries))
	}
}

func TestAssembleSummaryLine(t *testing.T) {
	long := text(60)
	tests := []struct {
		name string
		c    Candidate
		want string
	}{
		{"annotation", Candidate{Annotation: "  Nix roba el cáliz.\n Huye al norte. ", Text: "x"}, "Nix roba el cáliz. Huye al norte."},
		{"first sentence after the heading", Candidate{Text: "## Sesión 4\nLos PJ llegan a Galerna. Allí descansan."}, "Los PJ llegan a Galerna."},
		{"first sentence clipped", Candidate{Text: long + "."}, text(SummaryWords) + "…"},
		{"a list item", Candidate{Text: "# Botín\n- Una espada corta de plata\n- Dos pociones"}, "Una espada corta de plata"},
		{"only a heading", Candidate{Text: "## Sesión 4"}, "Sesión 4"},
		{"abbreviation kept", Candidate{Text: "El Sr. Pérez vende pan. Nada más."}, "El Sr. Pérez vende pan."},
		{"nothing", Candidate{Text: " "}, ""},
	}
	for _, tt := range tests {
		if got := summaryLine(tt.c); got != tt.want {
			t.Errorf("%s: summaryLine = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestAssembleUniqueLabels(t *testing.T) {
	c := func(id int64, label, file string) Candidate {
		return Candidate{ID: id, Label: label, File: file, Text: "Texto de la nota."}
	}
	tests := []struct {
		name  string
		cands []Candidate
		want  []string
	}{
		{
			name:  "two files with the same session label get their stems",
			cands: []Candidate{c(1, "Sesión 12", "Campaña/Diario.md"), c(2, "Sesión 12", "Otra/Crónica.md"), c(3, "Fichas: Nix", "Fichas/Nix.md")},
			want:  []string{"Sesión 12 (Diario)", "Sesión 12 (Crónica)", "Fichas: Nix"},
		},
		{
			name:  "same stems in different folders get their paths",
			cands: []Candidate{c(1, "Sesión 12", "2023/notas.md"), c(2, "Sesión 12", "2024/notas.md")},
			want:  []string{"Sesión 12 (2023/notas)", "Sesión 12 (2024/notas)"},
		},
		{
			name:  "labels equal but for accents and case are the same label",
			cands: []Candidate{c(1, "Sesión 12", "a.md"), c(2, "SESION 12", "b.md")},
			want:  []string{"Sesión 12 (a)", "SESION 12 (b)"},
		},
		{
			name:  "the same file twice gets numbers",
			cands: []Candidate{c(1, "Mundo: GODS", "Mundo/GODS.md"), c(2, "Mundo: GODS", "Mundo/GODS.md")},
			want:  []string{"Mundo: GODS", "Mundo: GODS (2)"},
		},
		{
			name:  "a new label that collides gets a number",
			cands: []Candidate{c(1, "Sesión 12", "a.md"), c(2, "Sesión 12", "b.md"), c(3, "Sesión 12 (a)", "c.md")},
			want:  []string{"Sesión 12 (a)", "Sesión 12 (b)", "Sesión 12 (a) (2)"},
		},
		{
			name:  "brackets, backticks and empty labels",
			cands: []Candidate{c(1, "Sesión 3 › [Borrador]", "a.md"), c(2, "", "Mundo/Dioses.md"), {ID: 3, Title: "Crónica `final`", Text: "Texto."}, {ID: 4, Text: "Texto."}},
			want:  []string{"Sesión 3 › (Borrador)", "Dioses", "Crónica 'final'", "#4"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := Assemble(tt.cands, AssembleOptions{Full: 1})
			if got := labels(ctx.Items()); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("labels = %q, want %q", got, tt.want)
			}
			checkContext(t, ctx, AssembleOptions{Full: 1})
		})
	}
}

func TestAssembleLongLabel(t *testing.T) {
	long := strings.Repeat("muy ", 100) + "largo"
	ctx := Assemble([]Candidate{{ID: 1, Label: "Sesión 3 › " + long, File: "a.md", Text: "Texto."}}, AssembleOptions{})
	l := ctx.Full[0].Label
	if len(l) > maxLabelBytes || !strings.HasSuffix(l, "…") || !strings.HasPrefix(l, "Sesión 3 › muy") {
		t.Errorf("label = %q (%d bytes)", l, len(l))
	}
	checkContext(t, ctx, AssembleOptions{})
}

// TestSummaryFromPassage: without an annotation, a left-out candidate's
// summary line is the first sentence of the passage that matched, not the
// chunk's opening.
func TestSummaryFromPassage(t *testing.T) {
	var cands []Candidate
	for i := range 9 {
		cands = append(cands, Candidate{ID: int64(i + 1), Label: "Sesión " + string(rune('A'+i)), File: "s.md", Session: i + 1, InSession: true,
			Text: "Ha sido una sesión larguísima de casi cinco horas.\n\nEl archiduque cae enfermo tras la cena en palacio.", Passage: "El archiduque cae enfermo tras la cena en palacio."})
	}
	ctx := Assemble(cands, AssembleOptions{})
	if len(ctx.Summaries) != 1 || ctx.Summaries[0].Text != "El archiduque cae enfermo tras la cena en palacio." {
		t.Fatalf("summaries %+v, want the passage's sentence", ctx.Summaries)
	}
	if ctx.Full[0].Gist != "El archiduque cae enfermo tras la cena en palacio." {
		t.Errorf("full item's gist %q", ctx.Full[0].Gist)
	}
}

func TestAssembleChronological(t *testing.T) {
	cands := []Candidate{
		{ID: 1, Label: "Sesión 9", File: "s.md", Session: 9, InSession: true, Text: "nueve"},
		{ID: 2, Label: "NPCs: Vex", File: "NPCs/Vex.md", Text: "vex"},
		{ID: 3, Label: "Sesión 2", File: "s.md", Session: 2, InSession: true, Text: "dos"},
		{ID: 4, Label: "Sesión 5", File: "s.md", Session: 5, InSession: true, Text: "cinco"},
	}
	labels := func(ctx Context) []string {
		var out []string
		for _, it := range ctx.Full {
			out = append(out, it.Label)
		}
		return out
	}
	if got := labels(Assemble(cands, AssembleOptions{})); strings.Join(got, ",") != "Sesión 9,NPCs: Vex,Sesión 2,Sesión 5" {
		t.Errorf("rank order: %v", got)
	}
	if got := labels(Assemble(cands, AssembleOptions{Chronological: true})); strings.Join(got, ",") != "NPCs: Vex,Sesión 2,Sesión 5,Sesión 9" {
		t.Errorf("chronological order: %v", got)
	}
	// Still chosen by rank: with two full slots, the two best.
	if got := labels(Assemble(cands, AssembleOptions{Full: 2, Chronological: true})); strings.Join(got, ",") != "NPCs: Vex,Sesión 9" {
		t.Errorf("chronological, two slots: %v", got)
	}
}

// TestAssembleMore: More full chunks come after the usual ones, beyond the
// word budget, one per session, ranked after them, out of the summaries;
// the usual ones are those Assemble chooses without More.
func TestAssembleMore(t *testing.T) {
	long := strings.Repeat("palabra ", 50)
	cands := []Candidate{
		{ID: 1, Label: "Sesión 9", File: "s.md", Session: 9, InSession: true, Text: "nueve " + long},
		{ID: 2, Label: "Sesión 9 bis", File: "s.md", Session: 9, InSession: true, Text: "nueve otra vez"},
		{ID: 3, Label: "Sesión 2", File: "s.md", Session: 2, InSession: true, Text: "dos " + long},
		{ID: 4, Label: "Sesión 5", File: "s.md", Session: 5, InSession: true, Text: "cinco " + long},
		{ID: 5, Label: "Sesión 1", File: "s.md", Session: 1, InSession: true, Text: "uno " + long},
	}
	base := Assemble(cands, AssembleOptions{Full: 2, WordBudget: 120, Chronological: true})
	ctx := Assemble(cands, AssembleOptions{Full: 2, WordBudget: 120, Chronological: true, More: 2})
	var got []string
	for _, it := range ctx.Full {
		got = append(got, fmt.Sprintf("%s:%d", it.Label, it.Rank))
	}
	if g := strings.Join(got, ","); g != "Sesión 1:3,Sesión 2:1,Sesión 5:2,Sesión 9:0" {
		t.Errorf("full with More: %s", g)
	}
	for _, it := range base.Full {
		if it.Rank > 1 {
			t.Errorf("without More, %q ranked %d", it.Label, it.Rank)
		}
	}
	for _, s := range ctx.Summaries {
		if s.ID != 2 {
			t.Errorf("summary of a chunk read in full: %+v", s)
		}
	}
}
