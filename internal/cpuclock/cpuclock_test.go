//go:build unix

package cpuclock

import "testing"

// Work done by this process shows in its CPU time.
func TestProcessGrows(t *testing.T) {
	before := Process()
	if before <= 0 {
		t.Fatalf("Process() = %v before any work, want > 0", before)
	}
	x := 0
	for i := 0; Process()-before < 1e6; i++ { // 1 ms of CPU
		x += i
	}
	_ = x
}
