//go:build race

package oraculo_test

// raceDetector: the race detector slows every search several times; the
// tests that ask every dev-set question ask a sample of them under it.
const raceDetector = true
