//go:build !unix

package oraculo_test

import "time"

// processCPU is unknown here: the benchmarks report 0.
func processCPU() time.Duration { return 0 }
