//go:build !amd64 || purego

package vector

const hasFMA, hasAVX2 = false, false

func dot(a, b []float32) float32 { return dotGo(a, b) }

func dotI8(a, b []int8) int32 { return dotI8Go(a, b) }

func prefetchCodes([]int8) {}
