//go:build race

package server

// raceDetector: the race detector slows every request several times.
const raceDetector = true
