package index

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/oraculo/oraculo/retrieve"
	"github.com/oraculo/oraculo/store"
)

// commonIndex holds 10,000 one-paragraph chunks: "tod" in every paragraph
// (half or more: no weight), "comun" in three of seven (over the budget,
// still informative), "rar" in 80 of them (a few twice with "comun"), and
// the notes "secret*.md" DM-only.
func commonIndex(t *testing.T) *Index {
	t.Helper()
	ctx := context.Background()
	ix := testIndex(t)
	for d := range 250 {
		path := fmt.Sprintf("n%03d.md", d)
		if d%50 == 7 {
			path = fmt.Sprintf("secret%03d.md", d)
		}
		var chunks [][]string
		for p := range 40 {
			i := d*40 + p
			text := "tod"
			if i%7 < 3 {
				text += " comun"
				if i%11 == 0 {
					text += " comun"
				}
			}
			if i%250 == 3 || i%250 == 4 {
				text += " rar"
			}
			chunks = append(chunks, []string{text + fmt.Sprintf(" p%d", i)})
		}
		rec := doc(path, chunks...)
		rec.DMOnly = d%50 == 7
		if err := ix.ReplaceDocument(ctx, rec); err != nil {
			t.Fatal(err)
		}
	}
	return ix
}

// exactRanking ranks the chunks of every paragraph that holds any of
// terms, every term scoring them (no plan), as the keyword path ranks
// them.
func exactRanking(ctx context.Context, ix *Index, terms []string, public bool) ([]store.Match, error) {
	all := &paragraphSearch{db: ix.db, pool: newParagraphPool(ix.db, bm25Plan{match: MatchQuery(terms)}, 1, public, store.Filter{}),
		close: func() error { return nil }}
	return retrieve.RankParagraphs(ctx, all, 10000, 0)
}

func TestPlanKeepsTheRankingOfTheParagraphsItScores(t *testing.T) {
	ctx := context.Background()
	ix := commonIndex(t)
	terms := []string{"comun", "rar", "tod"}
	plan, err := ix.planBM25(ctx, ix.db, terms)
	if err != nil {
		t.Fatal(err)
	}
	if plan.match != `"rar"` || plan.rescore != `("comun") AND ("rar")` || plan.fromRowid != 0 {
		t.Fatalf("plan: %+v", plan)
	}
	for _, public := range []bool{false, true} {
		got, err := retrieve.SearchBM25(ctx, ix, terms, 80, store.BM25Options{Public: public})
		if err != nil {
			t.Fatal(err)
		}
		// The exact ranking: every term in the query, every paragraph scored.
		exact, err := exactRanking(ctx, ix, terms, public)
		if err != nil {
			t.Fatal(err)
		}
		want := 0
		for i := range 10000 {
			if (i%250 == 3 || i%250 == 4) && !(public && i/40%50 == 7) {
				want++
			}
		}
		if len(got) != want {
			t.Fatalf("public %v: %d chunks, want the %d holding rar", public, len(got), want)
		}
		// Equal but for "tod", which bm25 weighs 1e-6 and the plan leaves out.
		for i, m := range got {
			if m.Chunk.ID != exact[i].Chunk.ID || math.Abs(m.Score-exact[i].Score) > 1e-5 {
				t.Fatalf("public %v, rank %d: chunk %d score %v, exact ranking has %d score %v",
					public, i, m.Chunk.ID, m.Score, exact[i].Chunk.ID, exact[i].Score)
			}
			if public && strings.HasPrefix(m.Chunk.Path, "secret") {
				t.Fatalf("a player got %q", m.Chunk.Path)
			}
		}
	}
}

func TestPlanForCommonTerms(t *testing.T) {
	ctx := context.Background()
	ix := commonIndex(t)
	// In every paragraph: it tells none from another.
	if m, err := retrieve.SearchBM25(ctx, ix, []string{"tod"}, 10, store.BM25Options{}); err != nil || len(m) != 0 {
		t.Fatalf("a term in every paragraph: %d matches, %v", len(m), err)
	}
	// Over the budget: its latest paragraphs are scored, not all of them.
	plan, err := ix.planBM25(ctx, ix.db, []string{"comun", "tod"})
	if err != nil {
		t.Fatal(err)
	}
	if plan.match != `"comun"` || plan.rescore != "" || plan.fromRowid <= 1 {
		t.Fatalf("plan: %+v", plan)
	}
	m, err := retrieve.SearchBM25(ctx, ix, []string{"comun", "tod"}, 10, store.BM25Options{Public: true})
	if err != nil || len(m) != 10 {
		t.Fatalf("common term: %d matches, %v", len(m), err)
	}
	for _, x := range m {
		if strings.HasPrefix(x.Chunk.Path, "secret") {
			t.Fatalf("a player got %q", x.Chunk.Path)
		}
	}
}

// The pool scores once: its tiers, read one after another, are the
// prefixes of the largest, as each was when every tier was scored anew.
func TestPoolTiersArePrefixes(t *testing.T) {
	ctx := context.Background()
	ix := commonIndex(t)
	for _, terms := range [][]string{{"comun", "rar", "tod"}, {"comun", "tod"}, {"rar", "p3"}} {
		plan, err := ix.planBM25(ctx, ix.db, terms)
		if err != nil {
			t.Fatal(err)
		}
		grown := newParagraphPool(ix.db, plan, 1, false, store.Filter{})
		for _, limit := range []int{2, 8, 32, 128, 512, 2048, 8192} {
			got, err := grown.top(ctx, limit)
			if err != nil {
				t.Fatal(err)
			}
			want, err := newParagraphPool(ix.db, plan, 1, false, store.Filter{}).top(ctx, limit)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("%v, %d: %d paragraphs, want %d", terms, limit, len(got), len(want))
			}
			for i := range got {
				if got[i].id != want[i].id || got[i].score != want[i].score || *got[i].chunkID != *want[i].chunkID {
					t.Fatalf("%v, %d, rank %d: %+v, want %+v", terms, limit, i, got[i], want[i])
				}
			}
		}
	}
}

// A question that names a session reads that session's chunks through
// chunks_session, not every note's chunks.
func TestSessionFilterUsesTheIndex(t *testing.T) {
	ctx := context.Background()
	ix := commonIndex(t)
	p := newParagraphPool(ix.db, bm25Plan{match: `"rar"`}, 1, false, store.Filter{Sessions: []int{3}})
	rows, err := ix.db.QueryContext(ctx, `EXPLAIN QUERY PLAN SELECT rowid FROM children_fts WHERE children_fts MATCH ?`+p.filter,
		append([]any{p.plan.match}, p.args...)...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	got := strings.Join(plan, "\n")
	if !strings.Contains(got, "SEARCH k USING INDEX chunks_session") || strings.Contains(got, "SCAN k") || strings.Contains(got, "SCAN d") {
		t.Fatalf("the session filter's plan:\n%s", got)
	}
	if _, err := retrieve.SearchBM25(ctx, ix, []string{"rar"}, 10, store.BM25Options{Filter: store.Filter{Sessions: []int{3}}}); err != nil {
		t.Fatal(err)
	}
}

// When no paragraph the chosen terms find holds another informative
// term, the chosen terms alone score them all.
func TestRescoreWithoutOtherTermsInTheChosenParagraphs(t *testing.T) {
	ctx := context.Background()
	ix := commonIndex(t)
	// p3 is in paragraph 3 only, which has no "comun" (3 % 7 == 3).
	terms := []string{"comun", "p3"}
	plan, err := ix.planBM25(ctx, ix.db, terms)
	if err != nil {
		t.Fatal(err)
	}
	if plan.match != `"p3"` || plan.rescore != `("comun") AND ("p3")` {
		t.Fatalf("plan: %+v", plan)
	}
	got, err := retrieve.SearchBM25(ctx, ix, terms, 10, store.BM25Options{})
	if err != nil {
		t.Fatal(err)
	}
	exact, err := exactRanking(ctx, ix, terms, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Chunk.ID != exact[0].Chunk.ID || math.Abs(got[0].Score-exact[0].Score) > 1e-9 {
		t.Fatalf("got %d matches (%+v), want chunk %d score %v", len(got), got, exact[0].Chunk.ID, exact[0].Score)
	}
}

// TermCounts counts every paragraph that holds a term, past MatchBudget
// too, and every paragraph; a term no paragraph holds counts 0.
func TestTermCounts(t *testing.T) {
	ctx := context.Background()
	ix := commonIndex(t)
	held, total, err := ix.TermCounts(ctx, []string{"tod", "comun", "rar", "nada", ""})
	if err != nil {
		t.Fatal(err)
	}
	// i%7 < 3 over 10,000 paragraphs; i%250 in {3, 4}.
	comun := int64(0)
	for i := range 10000 {
		if i%7 < 3 {
			comun++
		}
	}
	if want := []int64{10000, comun, 80, 0, 0}; fmt.Sprint(held) != fmt.Sprint(want) || total != 10000 {
		t.Errorf("TermCounts = %v of %d, want %v of 10000", held, total, want)
	}
}
