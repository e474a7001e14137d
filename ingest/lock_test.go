package ingest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestLock(t *testing.T) {
	index := filepath.Join(t.TempDir(), "o.db")
	release, err := Lock(context.Background(), index, true, nil)
	if err != nil {
		t.Fatal(err)
	}

	// A second ingest told not to wait fails, saying who holds the lock.
	_, err = Lock(context.Background(), index, true, nil)
	if !errors.Is(err, ErrRunning) || !strings.Contains(err.Error(), "pid "+strconv.Itoa(os.Getpid())+" (") {
		t.Fatalf("second lock without waiting: %v, want ErrRunning naming this process", err)
	}

	// One that waits is told once, and stops with its context.
	ctx, cancel := context.WithTimeout(context.Background(), 3*lockPoll)
	defer cancel()
	var told []Holder
	_, err = Lock(ctx, index, false, func(h Holder) { told = append(told, h) })
	if !errors.Is(err, context.DeadlineExceeded) || len(told) != 1 || told[0].PID != os.Getpid() || time.Since(told[0].Since) > time.Minute {
		t.Fatalf("waiting lock: %v, told %v; want the deadline, told once who holds it", err, told)
	}

	release()
	if h := readHolder(index + ".ingest-lock"); h.PID != 0 {
		t.Errorf("released lock still names %v", h)
	}
	release2, err := Lock(context.Background(), index, true, nil)
	if err != nil {
		t.Fatalf("lock after release: %v", err)
	}
	release2()
}

func TestHolderString(t *testing.T) {
	since := time.Date(2026, 12, 2, 7, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		h    Holder
		want string
	}{
		{Holder{}, "another process"},
		{Holder{PID: 42}, "pid 42"},
		{Holder{PID: 42, Command: "oraculo ingest notas", Since: since}, "pid 42 (oraculo ingest notas) since 2026-12-02 07:00:00 UTC"},
	} {
		if got := c.h.String(); got != c.want {
			t.Errorf("%#v: %q, want %q", c.h, got, c.want)
		}
	}
}
