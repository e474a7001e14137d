package oraculo_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
)

// dumpCompendium lists both stored compendiums, mentions included (by
// chunk uid, which does not depend on the index), one line each.
func dumpCompendium(t *testing.T, db string) []string {
	t.Helper()
	ix := openIndex(t, db)
	var out []string
	for _, q := range []string{
		`SELECT scope, name, kind, aliases, note, source FROM entities`,
		`SELECT e.scope, e.name, k.uid, m.count FROM mentions m JOIN entities e ON e.id = m.entity_id JOIN chunks k ON k.id = m.chunk_id`,
	} {
		rows, err := ix.DB().Query(q)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprint(vals...))
		}
		rows.Close()
	}
	slices.Sort(out)
	return out
}

// TestIncrementalCompendiumIngest edits the sample campaign at random over
// several ingests (notes edited, added, removed, moved in and out of DM/,
// the compendium.yaml written and removed); after each, the compendiums
// the updates left must be those a fresh index of the same notes gets.
func TestIncrementalCompendiumIngest(t *testing.T) {
	ctx := context.Background()
	dir := copyTree(t, sampleDir)
	eng, db := openEngine(t)
	if _, err := eng.Ingest(ctx, []string{dir}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	ents, err := eng.Compendium(ctx)
	if err != nil || len(ents) < 20 {
		t.Fatalf("%d entities, %v", len(ents), err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name)
		names = append(names, e.Aliases...)
	}
	names = append(names, "Brumosa Quintana", "Vharn el Negro", "Orden de la Ceniza")
	rng := rand.New(rand.NewPCG(14, 3))
	notes := func() []string {
		var out []string
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && strings.HasSuffix(p, ".md") {
				out = append(out, p)
			}
			return nil
		})
		return out
	}
	sentence := func() string {
		var b strings.Builder
		for range 3 + rng.IntN(6) {
			if rng.IntN(2) == 0 {
				fmt.Fprintf(&b, "%s ", names[rng.IntN(len(names))])
			} else {
				b.WriteString([]string{"vio a", "habló con", "y", "en la", "luego", "[[" + names[rng.IntN(len(names))] + "]]", "dijo que"}[rng.IntN(7)] + " ")
			}
		}
		return "\n\n" + strings.TrimSpace(b.String()) + ".\n"
	}
	for round := range 6 {
		ns := notes()
		for range 1 + rng.IntN(4) {
			p := ns[rng.IntN(len(ns))]
			switch rng.IntN(5) {
			case 0:
				os.Remove(p)
			case 1: // into or out of DM/
				rel, _ := filepath.Rel(dir, p)
				to := filepath.Join(dir, "DM", filepath.Base(p))
				if strings.HasPrefix(rel, "DM"+string(filepath.Separator)) {
					to = filepath.Join(dir, "Sesiones", filepath.Base(p))
				}
				os.Rename(p, to)
			default:
				f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
				if err == nil {
					f.WriteString(sentence())
					f.Close()
				}
			}
		}
		os.WriteFile(filepath.Join(dir, "Sesiones", fmt.Sprintf("Nueva %d.md", round)), []byte("# Nueva\n"+sentence()+sentence()), 0o644)
		yaml := filepath.Join(dir, "compendium.yaml")
		switch round % 3 {
		case 0:
			os.WriteFile(yaml, []byte("entities:\n  - {name: Brumosa Quintana, kind: npc, aliases: [la Brumosa]}\nban: ["+names[0]+"]\n"), 0o644)
		case 1:
			os.WriteFile(yaml, []byte("merge:\n  - {into: Vharn el Negro, names: ["+names[1]+"]}\n"), 0o644)
		case 2:
			os.Remove(yaml)
		}
		if _, err := eng.Ingest(ctx, []string{dir}, oraculo.IngestOptions{}); err != nil {
			t.Fatal(err)
		}
		fresh, freshDB := openEngine(t)
		if _, err := fresh.Ingest(ctx, []string{dir}, oraculo.IngestOptions{}); err != nil {
			t.Fatal(err)
		}
		got, want := dumpCompendium(t, db), dumpCompendium(t, freshDB)
		if !slices.Equal(got, want) {
			for _, l := range want {
				if !slices.Contains(got, l) {
					t.Errorf("round %d: the update lacks %s", round, l)
				}
			}
			for _, l := range got {
				if !slices.Contains(want, l) {
					t.Errorf("round %d: the update has %s", round, l)
				}
			}
			t.FailNow()
		}
	}
}
