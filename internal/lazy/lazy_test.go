package lazy

import (
	"errors"
	"sync"
	"testing"
)

func TestValueBuildsOnceAndForgetsFailures(t *testing.T) {
	var l Value[int]
	calls := 0
	fail := errors.New("not yet")
	if _, built, err := l.Get(func() (int, error) { calls++; return 0, fail }); !errors.Is(err, fail) || built {
		t.Fatalf("failed build: built %v, err %v; want false and %v", built, err, fail)
	}
	v, built, err := l.Get(func() (int, error) { calls++; return 7, nil })
	if err != nil || !built || v != 7 {
		t.Fatalf("second build: %d, %v, %v; want 7, true, nil", v, built, err)
	}
	v, built, err = l.Get(func() (int, error) { calls++; return 8, nil })
	if err != nil || built || v != 7 {
		t.Fatalf("after a build: %d, %v, %v; want the kept 7, false, nil", v, built, err)
	}
	if calls != 2 {
		t.Fatalf("%d builds, want 2 (the failed one and the kept one)", calls)
	}
}

func TestValueConcurrentCallersShareOneBuild(t *testing.T) {
	var l Value[int]
	var mu sync.Mutex
	calls := 0
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, _, err := l.Get(func() (int, error) { mu.Lock(); calls++; mu.Unlock(); return 3, nil })
			if err != nil || v != 3 {
				t.Errorf("got %d, %v; want 3, nil", v, err)
			}
		}()
	}
	wg.Wait()
	if calls != 1 {
		t.Fatalf("%d builds for 8 concurrent callers, want 1", calls)
	}
}
