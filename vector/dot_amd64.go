//go:build !purego

package vector

import "golang.org/x/sys/cpu"

// hasFMA reports whether dotFMA can run: AVX2 and FMA (x86-64-v3).
var hasFMA = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// dotFMA is the AVX2+FMA kernel of [Dot] (dot_amd64.s); len(b) ≥ len(a).
//
//go:noescape
func dotFMA(a, b []float32) float32

func dot(a, b []float32) float32 {
	if hasFMA {
		return dotFMA(a, b)
	}
	return dotGo(a, b)
}
