package interruptible

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestRunReturnsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	release := make(chan struct{})
	defer close(release)
	go func() {
		time.Sleep(20 * time.Millisecond)
		cancel()
	}()
	start := time.Now()
	_, err := Run(ctx, func() (int, error) {
		<-release // a computation far longer than the test
		return 1, nil
	})
	if !errors.Is(err, context.Canceled) || time.Since(start) > 5*time.Second {
		t.Fatalf("Run returned %v after %v; want context.Canceled at once", err, time.Since(start))
	}
	v, err := Run(context.Background(), func() (int, error) { return 7, nil })
	if v != 7 || err != nil {
		t.Fatalf("Run = %d, %v; want 7, nil", v, err)
	}
}
