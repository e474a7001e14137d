//go:build !race

package oraculo_test

const raceDetector = false
