//go:build !purego

package vector

import "golang.org/x/sys/cpu"

// hasFMA reports whether dotFMA can run: AVX2 and FMA (x86-64-v3).
var hasFMA = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// hasAVX2 reports whether dotI8AVX2 can run.
var hasAVX2 = cpu.X86.HasAVX2

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

// dotI8AVX2 is the AVX2 kernel of dotI8 (dot_amd64.s): len(a) a multiple
// of 32, len(b) ≥ len(a), codes in [-127, 127].
//
//go:noescape
func dotI8AVX2(a, b []int8) int32

func dotI8(a, b []int8) int32 {
	if !hasAVX2 {
		return dotI8Go(a, b)
	}
	n := len(a) &^ 31
	s := dotI8AVX2(a[:n], b[:n])
	if n < len(a) {
		s += dotI8Go(a[n:], b[n:])
	}
	return s
}

// prefetchBytes hints that the n bytes at p will be read soon.
//
//go:noescape
func prefetchBytes(p *int8, n int)

// prefetchCodes hints that c will be read soon.
func prefetchCodes(c []int8) {
	if len(c) > 0 {
		prefetchBytes(&c[0], len(c))
	}
}
