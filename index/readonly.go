package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
)

// ErrReadOnly is returned, wrapped in an error that names the index and
// says why, by every write to an index opened read-only (see [Open]).
var ErrReadOnly = errors.New("the index is read-only")

// readOnlyError says which index cannot be written, and why.
type readOnlyError struct {
	path, why string
}

func (e *readOnlyError) Error() string {
	return fmt.Sprintf("the index %q is read-only: %s", e.path, e.why)
}

func (e *readOnlyError) Is(target error) bool { return target == ErrReadOnly }

// unwritable says why the index file at path, or the folder SQLite keeps
// its journal in, cannot be written ("" when both can, or when the file
// does not exist yet). A variable, so that tests running as root, whom
// permissions do not stop, can stand for a read-only mount.
var unwritable = unwritableReason

// OpenReadOnly opens the existing index file at path for reading only:
// searches work, and every write fails with [ErrReadOnly]. [Open] does
// this by itself for a file, or a folder, it cannot write.
func OpenReadOnly(ctx context.Context, path string) (*Index, error) {
	if path == "" {
		return nil, errors.New("opening index: empty path")
	}
	return openReadOnly(ctx, path, "opened read-only", true)
}

// openReadOnly opens path read-only. SQLite keeps a WAL index's
// shared memory in a file beside it (-shm), which a read-only folder
// cannot hold: the file is then opened as immutable, which needs no
// other file, and reads the database as the last checkpoint left it.
// When plain (the folder is writable) or a -wal file is already there (a
// writer elsewhere left commits in it), the file is opened read-only but
// not immutable first, so that those commits are seen.
func openReadOnly(ctx context.Context, path, why string, plain bool) (*Index, error) {
	if fi, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("opening index %q: %w", path, err)
	} else if fi.IsDir() {
		return nil, fmt.Errorf("opening index %q: it is a folder, not a file", path)
	}
	modes := []string{"ro&immutable=1"}
	if _, err := os.Stat(path + "-wal"); err == nil || plain {
		modes = []string{"ro", "ro&immutable=1"}
	}
	var errs []error
	for _, mode := range modes {
		q := url.Values{}
		q.Add("_pragma", "foreign_keys(1)")
		q.Add("_pragma", "busy_timeout(10000)")
		q.Add("_pragma", mmapPragma)
		// SQLite reads mode and immutable itself, from the "file:" URI.
		db, err := sql.Open("sqlite", "file:"+path+"?mode="+mode+"&"+q.Encode())
		if err != nil {
			return nil, fmt.Errorf("opening index %q: %w", path, err)
		}
		ix := &Index{db: db, path: path, readOnly: &readOnlyError{path: path, why: why}}
		err = ix.migrate(ctx)
		if err == nil {
			return ix, nil
		}
		db.Close()
		if errors.Is(err, ErrReadOnly) {
			return nil, err
		}
		if errors.Is(err, ErrNewerSchema) {
			return nil, fmt.Errorf("opening index %q: %w", path, err)
		}
		errs = append(errs, err)
	}
	return nil, fmt.Errorf("opening index %q read-only (%s): %w", path, why, errors.Join(errs...))
}

// ReadOnly returns nil when the index can be written, else the error
// (wrapping [ErrReadOnly]) that says why it cannot: callers about to
// write ask first, to say so before doing anything.
func (ix *Index) ReadOnly() error {
	if ix.readOnly == nil {
		return nil
	}
	return ix.readOnly
}
