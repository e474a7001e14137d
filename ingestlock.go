package oraculo

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/oraculo/oraculo/index"
	"github.com/oraculo/oraculo/internal/filelock"
)

// ErrIngestRunning is returned by Ingest with IngestOptions.NoWait when
// another ingest of the same index, in this process or another, is
// running; the error says who runs it.
var ErrIngestRunning = errors.New("another ingest of this index is running")

// IngestHolder is who holds an index's ingest lock, as written in the
// lock file beside the index ("<index>.ingest-lock").
type IngestHolder struct {
	PID     int       `json:"pid"`
	Command string    `json:"command"`
	Since   time.Time `json:"since"`
}

// String says who holds the lock: "pid 4121 (oraculo ingest notes) since
// 06:40:01 UTC"; "another process" when the file does not say.
func (h IngestHolder) String() string {
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

// ingestLockPoll is how often a waiting ingest tries the lock again.
const ingestLockPoll = 200 * time.Millisecond

// lockIngest takes the index's ingest lock, waiting for it (saying so
// once, to opts.OnWait or the warning sink) unless opts.NoWait, and
// writes who holds it into the lock file; release gives it back. The
// system releases the lock of a process that dies. A store other than an
// index file is not locked.
func (e *Engine) lockIngest(ctx context.Context, opts IngestOptions) (release func(), err error) {
	ix, ok := e.idx.(*index.Index)
	if !ok {
		return func() {}, nil
	}
	path := ix.Path() + ".ingest-lock"
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("locking the index %q for an ingest: %w", ix.Path(), err)
	}
	for waited := false; ; {
		err := filelock.TryLock(f)
		if err == nil {
			break
		}
		if !errors.Is(err, filelock.ErrLocked) {
			f.Close()
			return nil, fmt.Errorf("locking the index %q for an ingest: %w", ix.Path(), err)
		}
		h := readIngestHolder(path)
		if opts.NoWait {
			f.Close()
			return nil, fmt.Errorf("%w: %q: %s holds it", ErrIngestRunning, ix.Path(), h)
		}
		if !waited {
			waited = true
			if opts.OnWait != nil {
				opts.OnWait(h)
			} else {
				e.warn("waiting for another ingest of %q to end: %s holds it", ix.Path(), h)
			}
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		case <-time.After(ingestLockPoll):
		}
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

// readIngestHolder reads who holds the lock from its file: the zero
// holder when it does not say (yet).
func readIngestHolder(path string) IngestHolder {
	var h IngestHolder
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
