package ingest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/oraculo/oraculo/internal/filelock"
)

// ErrRunning is returned by [Lock] told not to wait when another ingest of
// the same index, in this process or another, is running; the error says
// who runs it.
var ErrRunning = errors.New("another ingest of this index is running")

// Holder is who holds an index's ingest lock, as written in the lock file
// beside the index ("<index>.ingest-lock").
type Holder struct {
	PID     int       `json:"pid"`
	Command string    `json:"command"`
	Since   time.Time `json:"since"`
}

// String says who holds the lock: "pid 4121 (oraculo ingest notes) since
// 06:40:01 UTC"; "another process" when the file does not say.
func (h Holder) String() string {
	if h.PID == 0 {
		return "another process"
	}
	s := "pid " + strconv.Itoa(h.PID)
	if h.Command != "" {
		s += " (" + h.Command + ")"
	}
	if !h.Since.IsZero() {
		s += " since " + h.Since.Format("2006-01-02 15:04:05 MST")
	}
	return s
}

// lockPoll is how often a waiting ingest tries the lock again.
const lockPoll = 200 * time.Millisecond

// Lock takes the ingest lock of the index file index, so that one ingest
// of an index runs at a time, across processes: the next one reads what
// this one wrote. Unless noWait (then it fails with [ErrRunning]), it
// waits for the lock, telling onWait once who holds it; it writes who
// holds it now into the lock file, and release gives it back. The system
// releases the lock of a process that dies.
func Lock(ctx context.Context, index string, noWait bool, onWait func(Holder)) (release func(), err error) {
	path := index + ".ingest-lock"
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("locking the index %q for an ingest: %w", index, err)
	}
	if err := wait(ctx, f, index, noWait, onWait); err != nil {
		f.Close()
		return nil, err
	}
	me := fmt.Sprintf("pid=%d\ncommand=%s\nsince=%s\n", os.Getpid(), commandLine(), time.Now().UTC().Format(time.RFC3339))
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(me), 0)
	}
	return func() {
		f.Truncate(0)
		filelock.Unlock(f)
		f.Close()
	}, nil
}

// wait takes the lock on f, the lock file of index, as [Lock] says.
func wait(ctx context.Context, f *os.File, index string, noWait bool, onWait func(Holder)) error {
	for waited := false; ; {
		err := filelock.TryLock(f)
		if err == nil {
			return nil
		}
		if !errors.Is(err, filelock.ErrLocked) {
			return fmt.Errorf("locking the index %q for an ingest: %w", index, err)
		}
		h := readHolder(f.Name())
		if noWait {
			return fmt.Errorf("%w: %q: %s holds it", ErrRunning, index, h)
		}
		if !waited && onWait != nil {
			onWait(h)
		}
		waited = true
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(lockPoll):
		}
	}
}

// commandLine is this process's command, on one line, not too long.
func commandLine() string {
	s := strings.Join(os.Args, " ")
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// readHolder reads who holds the lock from its file: the zero holder when
// it does not say (yet).
func readHolder(path string) Holder {
	var h Holder
	f, err := os.Open(path)
	if err != nil {
		return h
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), "=")
		switch k {
		case "pid":
			h.PID, _ = strconv.Atoi(v)
		case "command":
			h.Command = v
		case "since":
			h.Since, _ = time.Parse(time.RFC3339, v)
		}
	}
	return h
}
