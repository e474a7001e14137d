// Package lazy holds a value built once, on first use, by whoever needs
// it first. It guarantees one build at a time per value, that a build that
// fails is not remembered, and that callers of other values never wait.
package lazy

import "sync"

// Value is a value built once, on first use. A build that fails is not
// remembered: the next use tries again. Callers of the same value wait for
// one build; nothing else does. The zero Value is ready to use.
type Value[T any] struct {
	mu   sync.Mutex
	done bool
	v    T
}

// Get returns the value, building it first if needed; built reports
// whether this call built it.
func (l *Value[T]) Get(build func() (T, error)) (v T, built bool, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.done {
		return l.v, false, nil
	}
	if v, err = build(); err != nil {
		return v, false, err
	}
	l.v, l.done = v, true
	return v, true, nil
}
