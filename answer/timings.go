package answer

import "time"

// Timings are milliseconds per stage of an answer (the engine's
// Answer.Timings, `ask --json`).
type Timings map[string]float64

// Since records the stage as taking the time since start.
func (t Timings) Since(stage string, start time.Time) {
	t[stage] = float64(time.Since(start).Microseconds()) / 1000
}
