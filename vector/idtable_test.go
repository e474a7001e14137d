package vector

import (
	"errors"
	"testing"
)

// The three indexes share their id bookkeeping (idTable): Len, Contains
// and Dims say the same of each, and each refuses an id twice.
func TestIDTableShared(t *testing.T) {
	for _, idx := range []interface {
		Add(id int64, v []float32) error
		Len() int
		Contains(id int64) bool
		Dims() int
	}{NewExact(3), NewQuantized(3, 0), NewHNSW(3, HNSWOptions{})} {
		if idx.Len() != 0 || idx.Contains(7) || idx.Dims() != 3 {
			t.Fatalf("%T empty: len %d, contains 7 %v, dims %d", idx, idx.Len(), idx.Contains(7), idx.Dims())
		}
		for _, id := range []int64{7, -2} {
			if err := idx.Add(id, []float32{1, 0, 0}); err != nil {
				t.Fatalf("%T add %d: %v", idx, id, err)
			}
		}
		if err := idx.Add(7, []float32{0, 1, 0}); !errors.Is(err, ErrDuplicateID) {
			t.Fatalf("%T add 7 again: %v", idx, err)
		}
		if idx.Len() != 2 || !idx.Contains(7) || !idx.Contains(-2) || idx.Contains(3) {
			t.Fatalf("%T: len %d, contains 7 %v, -2 %v, 3 %v", idx, idx.Len(), idx.Contains(7), idx.Contains(-2), idx.Contains(3))
		}
	}
}
