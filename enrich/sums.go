package enrich

import (
	"context"
	"fmt"

	"github.com/oraculo/oraculo/compendium"
	"github.com/oraculo/oraculo/store"
)

// The compendium's corpus-wide sums (see [compendium.NameStat]) are kept
// by the store, over every note and over the DM-only notes: an update
// takes away what the notes removed or rewritten added, moves the notes
// whose visibility flipped in or out of the DM-only sums, and adds the
// new notes'; the builder reads the sums, not every note's facts.

// Scopes of the sums.
const (
	sumsAll = iota
	sumsDMOnly
)

// nameKey is a name sum's identity.
type nameKey struct {
	surface     string
	start, date bool
}

// sumsDelta gathers what notes add to the stored sums, or take away.
type sumsDelta struct {
	names [2]map[nameKey]*store.NameSum
	lower [2]map[string]int
}

func newSumsDelta() *sumsDelta {
	d := &sumsDelta{}
	for i := range d.names {
		d.names[i] = map[nameKey]*store.NameSum{}
		d.lower[i] = map[string]int{}
	}
	return d
}

// add adds (sign 1) or takes away (-1) a note's facts and lowercase words
// to a scope's sums.
func (d *sumsDelta) add(scope int, id int64, f *compendium.Facts, lower map[string]int, sign int) {
	for _, st := range f.NameStats(uint64(id)) {
		k := nameKey{st.Surface, st.Start, st.Date}
		t := d.names[scope][k]
		if t == nil {
			t = &store.NameSum{Surface: st.Surface, Start: st.Start, Date: st.Date}
			d.names[scope][k] = t
		}
		t.Mentions += sign * st.Mentions
		t.Notes += sign * st.Notes
		t.IDSum += uint64(int64(sign)) * st.IDSum
	}
	for w, n := range lower {
		d.lower[scope][w] += sign * n
	}
}

// len is how many sums the delta changes.
func (d *sumsDelta) len() int {
	return len(d.names[0]) + len(d.names[1]) + len(d.lower[0]) + len(d.lower[1])
}

// update returns the delta as a store update (what adds up to nothing
// left out).
func (d *sumsDelta) update() store.CompendiumSumsUpdate {
	var up store.CompendiumSumsUpdate
	for scope, sums := range []*store.NoteSums{&up.All, &up.DMOnly} {
		for _, t := range d.names[scope] {
			if t.Mentions != 0 || t.Notes != 0 || t.IDSum != 0 {
				sums.Names = append(sums.Names, *t)
			}
		}
		sums.Lower = map[string]int{}
		for w, n := range d.lower[scope] {
			if n != 0 {
				sums.Lower[w] = n
			}
		}
	}
	return up
}

// noteFacts decodes a note's stored facts and lowercase words.
func noteFacts(nf store.NoteFacts) (*compendium.Facts, map[string]int, error) {
	f := new(compendium.Facts)
	if err := f.UnmarshalBinary(nf.Data); err != nil {
		return nil, nil, fmt.Errorf("reading the compendium's facts of note %d: %w", nf.DocID, err)
	}
	lower, err := compendium.UnmarshalLower(nf.Lower)
	if err != nil {
		return nil, nil, fmt.Errorf("reading the compendium's facts of note %d: %w", nf.DocID, err)
	}
	return f, lower, nil
}

// syncSums brings the stored sums up to date with the notes removed and
// those whose visibility changed, or fills them from every note's facts
// when they cannot be updated.
func syncSums(ctx context.Context, s CompendiumStore) error {
	ch, err := s.CompendiumChanges(ctx)
	if err != nil {
		return err
	}
	if ch.Stale {
		return fillSums(ctx, s)
	}
	if len(ch.Gone) == 0 && len(ch.Flipped) == 0 {
		return nil
	}
	d := newSumsDelta()
	var gone []int64
	for _, nf := range ch.Gone {
		f, lower, err := noteFacts(nf)
		if err != nil {
			return err
		}
		d.add(sumsAll, nf.DocID, f, lower, -1)
		if nf.Restricted {
			d.add(sumsDMOnly, nf.DocID, f, lower, -1)
		}
		gone = append(gone, nf.DocID)
	}
	for _, nf := range ch.Flipped {
		f, lower, err := noteFacts(nf)
		if err != nil {
			return err
		}
		sign := -1 // no longer DM-only
		if nf.Restricted {
			sign = 1
		}
		d.add(sumsDMOnly, nf.DocID, f, lower, sign)
	}
	up := d.update()
	up.Gone, up.Flipped = gone, ch.Flipped
	return s.UpdateCompendiumSums(ctx, up)
}

// fillSums sums every note's stored facts anew, with its visibility now,
// and sets what the builder reads of each besides (its structure).
func fillSums(ctx context.Context, s CompendiumStore) error {
	probe, err := compendium.NewCorpus(compendium.Config{})
	if err != nil {
		return err
	}
	d := newSumsDelta()
	structures := map[int64][]byte{}
	err = s.EachNoteFacts(ctx, func(nf store.NoteFacts) error {
		f := new(compendium.Facts)
		if err := f.UnmarshalBinary(nf.Data); err != nil {
			return fmt.Errorf("reading the compendium's facts of %q: %w", nf.Path, err)
		}
		d.add(sumsAll, nf.DocID, f, nil, 1)
		if nf.Restricted {
			d.add(sumsDMOnly, nf.DocID, f, nil, 1)
		}
		structures[nf.DocID] = structureOf(probe, noteInput(nf.Path, nf.Title, nf.Metadata), f)
		return nil
	})
	if err != nil {
		return err
	}
	err = s.EachNoteLower(ctx, func(restricted bool, data []byte) error {
		lower, err := compendium.UnmarshalLower(data)
		if err != nil {
			return err
		}
		for w, n := range lower {
			d.lower[sumsAll][w] += n
			if restricted {
				d.lower[sumsDMOnly][w] += n
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	up := d.update()
	up.Fill, up.Structures = true, structures
	return s.UpdateCompendiumSums(ctx, up)
}

// structureOf encodes what the builder reads of a note besides the sums:
// its links, and its headings if it is an entity or collection note; nil
// when there is none.
func structureOf(probe *compendium.Corpus, in compendium.NoteInput, f *compendium.Facts) []byte {
	s := compendium.Facts{Links: f.Links}
	if probe.ReadsHeadings(in) {
		s.Headings = f.Headings
	}
	if len(s.Links) == 0 && len(s.Headings) == 0 {
		return nil
	}
	data, _ := s.MarshalBinary() // never fails
	return data
}

// corpora reads the stored notes (their structure) and sums into the DM's
// corpus and the players' (without DM-only notes); restricted says
// whether any note is DM-only.
func corpora(ctx context.Context, s CompendiumStore) (dm, players *compendium.Corpus, restricted bool, err error) {
	if dm, err = compendium.NewCorpus(compendium.Config{}); err != nil {
		return nil, nil, false, err
	}
	if players, err = compendium.NewCorpus(compendium.Config{}); err != nil {
		return nil, nil, false, err
	}
	err = s.EachCompendiumNote(ctx, func(nf store.NoteFacts) error {
		var f *compendium.Facts
		if len(nf.Structure) > 0 {
			f = new(compendium.Facts)
			if err := f.UnmarshalBinary(nf.Structure); err != nil {
				return fmt.Errorf("reading the compendium's facts of %q: %w", nf.Path, err)
			}
		}
		in := noteInput(nf.Path, nf.Title, nf.Metadata)
		dm.AddNote(in, f)
		if nf.Restricted {
			restricted = true
		} else {
			players.AddNote(in, f)
		}
		return nil
	})
	if err != nil {
		return nil, nil, false, err
	}
	var all, dmOnly []compendium.NameStat
	err = s.CompendiumNames(ctx, func(isDMOnly bool, n store.NameSum) error {
		if isDMOnly {
			n.Mentions, n.Notes, n.IDSum = -n.Mentions, -n.Notes, -n.IDSum
			dmOnly = append(dmOnly, compendium.NameStat(n))
		} else {
			all = append(all, compendium.NameStat(n))
		}
		return nil
	})
	if err != nil {
		return nil, nil, false, err
	}
	dm.AddNames(all)
	dm.LowerFrom(func(words []string) (map[string]int, error) {
		all, _, err := s.CompendiumLower(ctx, words)
		return all, err
	})
	if restricted {
		// The players' sums are every note's but the DM-only notes'.
		players.AddNames(all)
		players.AddNames(dmOnly)
		players.LowerFrom(func(words []string) (map[string]int, error) {
			all, dmOnly, err := s.CompendiumLower(ctx, words)
			for w, n := range dmOnly {
				all[w] -= n
			}
			return all, err
		})
	}
	return dm, players, restricted, nil
}
