package oraculo_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/store"
)

// TestFilterRestrictsEveryPath: a filter (sessions, folders, tags)
// restricts every path before ranking, alone and fused: each hit passes
// it, and a filtered search still finds what it lets through.
func TestFilterRestrictsEveryPath(t *testing.T) {
	ctx := context.Background()
	eng, _ := openEngine(t, oraculo.WithEmbedder(oraculo.EmbedderConfig{Provider: oraculo.ProviderHashing}))
	if _, err := eng.Ingest(ctx, []string{sampleDir}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		filter store.Filter
		q      string
		pass   func(oraculo.Hit) bool
	}{
		{"one session", store.Filter{Sessions: []int{12}}, "Rhosyn Tomás Madre Grulla", func(h oraculo.Hit) bool { return h.Session != nil && *h.Session == 12 }},
		{"sessions", store.Filter{Sessions: []int{3, 4, 5}}, "¿Qué pasó en la sesión con el archiduque?", func(h oraculo.Hit) bool { return h.Session != nil && *h.Session >= 3 && *h.Session <= 5 }},
		{"folder, any case", store.Filter{Folders: []string{"npcs"}}, "Rhosyn Calatrava Guardia de Ceniza", func(h oraculo.Hit) bool { return strings.HasPrefix(h.File, "NPCs/") }},
		{"tag", store.Filter{Tags: []string{"NPC"}}, "Rhosyn Calatrava Guardia de Ceniza", func(h oraculo.Hit) bool { return strings.HasPrefix(h.File, "NPCs/") }},
		{"folder and session", store.Filter{Folders: []string{"Sesiones"}, Sessions: []int{20}}, "Rhosyn en la sesión", func(h oraculo.Hit) bool {
			return strings.HasPrefix(h.File, "Sesiones/") && h.Session != nil && *h.Session == 20
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, paths := range [][]string{{"bm25"}, {"dense"}, {"entity"}, nil} {
				hits, err := eng.Search(ctx, c.q, oraculo.SearchOptions{K: 20, Paths: paths, Filter: c.filter})
				if err != nil {
					t.Fatal(err)
				}
				for _, h := range hits {
					if !c.pass(h) {
						t.Errorf("paths %v: %s (%s) is outside the filter", paths, h.Label, h.File)
					}
				}
				if len(hits) == 0 && (paths == nil || paths[0] != "entity") {
					t.Errorf("paths %v: nothing found through the filter", paths)
				}
			}
			// Without the filter the same search goes elsewhere: the
			// check can fail.
			hits, _ := eng.Search(ctx, c.q, oraculo.SearchOptions{K: 20})
			outside := 0
			for _, h := range hits {
				if !c.pass(h) {
					outside++
				}
			}
			if outside == 0 {
				t.Errorf("unfiltered, every hit passes the filter anyway: a weak case")
			}
		})
	}
	// Nothing through the filter: no hits, no error.
	if hits, err := eng.Search(ctx, "Rhosyn", oraculo.SearchOptions{Filter: store.Filter{Sessions: []int{999}}}); err != nil || len(hits) != 0 {
		t.Errorf("a session that does not exist: %d hits, %v", len(hits), err)
	}
	// A player's filtered search still leaves the DM's notes out.
	player := oraculo.WithRole(ctx, oraculo.RolePlayer)
	hits, err := eng.Search(player, "traidor", oraculo.SearchOptions{K: 20, Filter: store.Filter{Folders: []string{"DM"}}})
	if err != nil || len(hits) != 0 {
		t.Errorf("a player filtering on the DM folder gets %d hits (%v)", len(hits), err)
	}
}

// TestSessionsNamedInTheQuestion: a question that names sessions searches
// only them (every path), "la última sesión" is the highest number, and
// when nothing in them matches, everything is searched and it says so.
func TestSessionsNamedInTheQuestion(t *testing.T) {
	ctx := context.Background()
	eng, _ := openEngine(t)
	if _, err := eng.Ingest(ctx, []string{sampleDir}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	all, err := eng.Chunks(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	perSession, last := map[int]int{}, 0
	for _, c := range all {
		if c.Session != nil {
			perSession[*c.Session]++
			last = max(last, *c.Session)
		}
	}
	for _, c := range []struct {
		q    string
		want []int
	}{
		{"¿Qué pasó en la sesión 12?", []int{12}},
		{"¿Qué pasó en la sesión doce?", []int{12}},
		{"¿Qué ocurrió entre la sesión 3 y la 5?", []int{3, 4, 5}},
		{"¿Qué hicimos en la última sesión?", []int{last}},
		{"What happened in session 20?", []int{20}},
	} {
		var an oraculo.QueryAnalysis
		hits, err := eng.Search(ctx, c.q, oraculo.SearchOptions{K: 5, Analysis: &an})
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(an.Filters.Sessions) != fmt.Sprint(c.want) || an.Said == "" || an.Unfiltered {
			t.Errorf("%q: analysis %+v, want sessions %v", c.q, an, c.want)
		}
		in := 0
		for _, n := range c.want {
			in += perSession[n]
		}
		if len(hits) == 0 || len(hits) > 5 || (len(hits) < 5 && len(hits) < in) {
			t.Errorf("%q: %d hits, the sessions hold %d chunks", c.q, len(hits), in)
		}
		for _, h := range hits {
			if h.Session == nil || !slices.Contains(c.want, *h.Session) {
				t.Errorf("%q: %s is outside sessions %v", c.q, h.Label, c.want)
			}
		}
		// Without the analysis the same words go elsewhere too.
		if plain, _ := eng.Search(ctx, c.q, oraculo.SearchOptions{K: 5, NoAnalysis: true}); len(plain) > 0 && slices.EqualFunc(plain, hits, func(a, b oraculo.Hit) bool { return a.ID == b.ID }) {
			t.Logf("%q: the words alone find the same hits", c.q)
		}
	}
	// Not constraints: no filter.
	for _, q := range []string{"¿En qué sesión conocimos a Rhosyn?", "¿Qué pasó con el archiduque?", "¿Quién tenía 12 monedas?"} {
		var an oraculo.QueryAnalysis
		if _, err := eng.Search(ctx, q, oraculo.SearchOptions{Analysis: &an}); err != nil || !an.Filters.IsZero() {
			t.Errorf("%q: filters %+v (%v), want none", q, an.Filters, err)
		}
	}
	// Nothing in the named session matches: everything is searched.
	var an oraculo.QueryAnalysis
	hits, err := eng.Search(ctx, "What about Garrik in session two?", oraculo.SearchOptions{K: 5, Paths: []string{"bm25"}, Analysis: &an})
	if err != nil || !an.Unfiltered || len(hits) == 0 {
		t.Errorf("fallback: %d hits, analysis %+v, %v", len(hits), an, err)
	}
}

// TestAnalysisNamesEntities: the analysis lists the compendium entries a
// question names, from the compendium the asker may see.
func TestAnalysisNamesEntities(t *testing.T) {
	ctx := context.Background()
	eng, _ := openEngine(t)
	if _, err := eng.Ingest(ctx, []string{sampleDir}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	var an oraculo.QueryAnalysis
	if _, err := eng.Search(ctx, "¿Qué papel ha jugado Rhosyn en la campaña?", oraculo.SearchOptions{Analysis: &an}); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(an.Entities, "Rhosyn Calatrava") || an.Kind != "arc" {
		t.Errorf("analysis %+v: want the entity Rhosyn Calatrava, an arc", an)
	}
	// A player's analysis names only what the players' compendium holds.
	dm, err := eng.Compendium(ctx)
	if err != nil {
		t.Fatal(err)
	}
	players, err := eng.Compendium(oraculo.WithRole(ctx, oraculo.RolePlayer))
	if err != nil {
		t.Fatal(err)
	}
	public := map[string]bool{}
	for _, en := range players {
		public[en.Name] = true
	}
	checked := 0
	for _, en := range dm {
		if public[en.Name] {
			continue
		}
		var pa oraculo.QueryAnalysis
		if _, err := eng.Search(oraculo.WithRole(ctx, oraculo.RolePlayer), "¿Quién es "+en.Name+"?", oraculo.SearchOptions{Analysis: &pa}); err != nil {
			t.Fatal(err)
		}
		if slices.Contains(pa.Entities, en.Name) {
			t.Errorf("a player's analysis names %q, known only from DM notes", en.Name)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("the sample should have entities known only from DM notes")
	}
}
