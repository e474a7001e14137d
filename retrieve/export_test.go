package retrieve

import "time"

// SetQueryTimeout sets how long the dense path waits for a question's
// vector, for a test, and returns a function that puts it back.
func SetQueryTimeout(d time.Duration) (restore func()) {
	old := queryTimeout
	queryTimeout = d
	return func() { queryTimeout = old }
}
