package retrieve

import "testing"

func TestDepth(t *testing.T) {
	for k, want := range map[int]int{1: 6, 3: 8, 5: 10, 8: 16, 10: 20, 50: 100} {
		if got := Depth(k); got != want {
			t.Errorf("Depth(%d) = %d, want %d", k, got, want)
		}
	}
}
