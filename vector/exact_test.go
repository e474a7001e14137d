package vector

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"testing"
)

func TestExactErrors(t *testing.T) {
	testErrors(t, func(d int) Searcher { return NewExact(d) })
}

func TestExactMatchesNaive(t *testing.T) {
	r := rng(10)
	for _, dims := range []int{1, 7, 384, 1024} {
		for _, n := range []int{1, 9, 300, 2500} {
			if testing.Short() && n*dims > 1_000_000 {
				continue
			}
			m := unitVecs(r, n, dims)
			ids := seqIDs(n, 1_000_000, -7) // descending ids: order of insertion ≠ id order
			e := NewExact(dims)
			fill(t, e, m, ids)
			qs := unitVecs(r, 5, dims)
			for _, k := range []int{1, 10, 50, n, n + 7} {
				for qi := range 5 {
					q := row(qs, dims, qi)
					got, err := e.Search(q, k)
					if err != nil {
						t.Fatal(err)
					}
					want := naiveSearch(m, ids, dims, q, k)
					if len(got) != len(want) {
						t.Fatalf("dims %d n %d k %d: %d hits, want %d", dims, n, k, len(got), len(want))
					}
					for i := range want {
						if got[i] != want[i] {
							t.Fatalf("dims %d n %d k %d: hit %d = %v, want %v", dims, n, k, i, got[i], want[i])
						}
					}
				}
			}
		}
	}
}

// TestExactManyWorkers splits the scan into more (and uneven) ranges than
// this machine has cores.
func TestExactManyWorkers(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(7))
	r := rng(11)
	const dims, n = 256, 5003
	m := unitVecs(r, n, dims)
	ids := seqIDs(n, 0, 1)
	e := NewExact(dims)
	fill(t, e, m, ids)
	if w := workers(n, dims); w < 2 {
		t.Fatalf("workers = %d, want several", w)
	}
	for qi := range 10 {
		q := unitVecs(r, 1, dims)
		if qi == 0 {
			q = row(m, dims, 4321) // the query itself is in the index
		}
		for _, k := range []int{1, 50, 3000} {
			got, _ := e.Search(q, k)
			want := naiveSearch(m, ids, dims, q, k)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("k %d: results differ from the reference", k)
			}
		}
	}
}

// TestExactTies stores the same vectors under many ids, inserted in a
// scrambled order, so that every score is shared: ranks must follow ids.
func TestExactTies(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(3))
	r := rng(12)
	const dims, distinct, copies = 64, 5, 2000
	base := unitVecs(r, distinct, dims)
	e := NewExact(dims)
	perm := r.Perm(distinct * copies)
	for _, p := range perm {
		// id p holds vector p % distinct.
		if err := e.Add(int64(p), row(base, dims, p%distinct)); err != nil {
			t.Fatal(err)
		}
	}
	q := row(base, dims, 2)
	for _, k := range []int{1, 10, 50, copies, copies + 10, distinct*copies + 3} {
		got, err := e.Search(q, k)
		if err != nil {
			t.Fatal(err)
		}
		checkSorted(t, got)
		if len(got) != min(k, distinct*copies) {
			t.Fatalf("k %d: %d hits", k, len(got))
		}
		for i := range min(k, copies) {
			if want := int64(2 + distinct*i); got[i].ID != want {
				t.Fatalf("k %d: hit %d has id %d, want %d (smallest ids first among ties)", k, i, got[i].ID, want)
			}
		}
	}
}

func TestNewExactFromMatrix(t *testing.T) {
	r := rng(13)
	const dims, n = 33, 700
	m := unitVecs(r, n, dims)
	ids := seqIDs(n, 5, 3)
	e, err := NewExactFromMatrix(dims, ids, m)
	if err != nil {
		t.Fatal(err)
	}
	if e.Len() != n {
		t.Fatalf("Len = %d", e.Len())
	}
	q := unitVecs(r, 1, dims)
	got, _ := e.Search(q, 20)
	if want := naiveSearch(m, ids, dims, q, 20); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Error("NewExactFromMatrix search differs from the reference")
	}
	if v, ok := e.Vector(8); !ok || v[0] != m[dims] {
		t.Error("Vector(8) is not row 1")
	}
	if err := e.Add(5, q); !errors.Is(err, ErrDuplicateID) {
		t.Errorf("Add of an existing id: %v", err)
	}
	if _, err := NewExactFromMatrix(dims, ids, m[:len(m)-1]); !errors.Is(err, ErrDims) {
		t.Errorf("short matrix: %v", err)
	}
	if _, err := NewExactFromMatrix(dims, []int64{1, 1}, m[:2*dims]); !errors.Is(err, ErrDuplicateID) {
		t.Errorf("duplicate ids: %v", err)
	}
	if _, err := NewExactFromMatrix(0, nil, nil); !errors.Is(err, ErrDims) {
		t.Errorf("dims 0: %v", err)
	}
}

// TestExactConcurrent runs searches alongside adds (meaningful under -race).
func TestExactConcurrent(t *testing.T) {
	r := rng(14)
	const dims = 32
	m := unitVecs(r, 2000, dims)
	e := NewExact(dims)
	e.Reserve(2000)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := range 2000 {
			if err := e.Add(int64(i), row(m, dims, i)); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	go func() {
		defer wg.Done()
		for i := range 200 {
			hits, err := e.Search(row(m, dims, i), 5)
			if err != nil {
				t.Error(err)
				return
			}
			checkSorted(t, hits)
		}
	}()
	wg.Wait()
	if e.Len() != 2000 {
		t.Errorf("Len = %d", e.Len())
	}
}
