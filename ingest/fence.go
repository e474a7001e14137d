package ingest

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Reasons a file is refused for where it lies rather than for what it is.
const (
	// ReasonOutside is a symlink whose target lies outside every ingested
	// folder: a link in a shared or synced vault must not publish any file
	// the ingest can read (see [Bounds.FollowOutside]).
	ReasonOutside Reason = "link-outside-notes"
	// ReasonIndexFile is one of the index's own files (the index, its
	// journal, the link key, the tokens, the chat history) or a file in
	// the index's folder, reached by whatever path: never a note.
	ReasonIndexFile Reason = "index-file"
)

// Bounds say which files an ingest may read as notes.
type Bounds struct {
	// Roots are the ingested folders: a symlink is followed only to a file
	// that lies inside one of them.
	Roots []string
	// FollowOutside lets a symlink lead to a file outside Roots too.
	FollowOutside bool
	// Private are the index's own files and folders: never read as notes,
	// whatever the path to them (a symlink, a hard link, a folder of the
	// notes that holds them), FollowOutside or not. A folder stands for
	// everything under it, and a file also for the files and folders
	// named after it (for "x.db": "x.db-wal", "x.db.linkkey",
	// "x.db.graphs/", ...).
	Private []string
}

// maxPrivateFiles bounds how many files of the private folders are
// identified, so that a private folder as large as a home folder costs a
// bounded walk (its files are still refused by their path).
const maxPrivateFiles = 10000

// Fence is [Bounds] made ready to judge files: its paths absolute with
// every symlink resolved, and the index's own files identified (device
// and inode), so that a hard link to one is known for what it is.
type Fence struct {
	roots   []string
	outside bool
	private []string
	// own are the index's own files, by identity (fileID), and those
	// whose identity is not known so, to compare one by one.
	own      map[[2]uint64]bool
	ownOther []fs.FileInfo
}

// NewFence resolves b into a Fence. A path that does not exist is kept as
// written (made absolute): nothing can point to it yet, and a file made
// there later is judged by its path.
func NewFence(b Bounds) *Fence {
	f := &Fence{outside: b.FollowOutside, own: map[[2]uint64]bool{}}
	for _, r := range b.Roots {
		f.roots = append(f.roots, resolve(r))
	}
	for _, p := range b.Private {
		if p == "" {
			continue
		}
		f.private = append(f.private, resolve(p))
		if abs, err := filepath.Abs(p); err == nil && abs != resolve(p) {
			f.private = append(f.private, filepath.Clean(abs))
		}
		f.identify(p)
	}
	return f
}

// resolve makes p absolute with every symlink evaluated; for a path that
// does not exist (yet), its nearest existing folder is resolved and the
// rest kept as written.
func resolve(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	rest := ""
	for dir := abs; ; dir = filepath.Dir(dir) {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(real, rest)
		}
		if dir == filepath.Dir(dir) {
			return abs
		}
		rest = filepath.Join(filepath.Base(dir), rest)
	}
}

// identify records the device and inode of the private file p, and of
// every file under it when it is a folder (up to maxPrivateFiles), and of
// the files beside it named after it.
func (f *Fence) identify(p string) {
	info, err := os.Stat(p)
	if err == nil && !info.IsDir() {
		f.addOwn(info)
	}
	if err == nil && info.IsDir() {
		n := 0
		_ = filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
			if n >= maxPrivateFiles {
				return fs.SkipAll
			}
			if err == nil && d.Type().IsRegular() {
				if info, err := d.Info(); err == nil {
					f.addOwn(info)
					n++
				}
			}
			return nil
		})
		return
	}
	dash, _ := filepath.Glob(globEscape(p) + "-*")
	dot, _ := filepath.Glob(globEscape(p) + ".*")
	for _, s := range append(dash, dot...) {
		if info, err := os.Stat(s); err == nil && info.Mode().IsRegular() {
			f.addOwn(info)
		}
	}
}

// addOwn records one of the index's own files.
func (f *Fence) addOwn(info fs.FileInfo) {
	if id, ok := fileID(info); ok {
		f.own[id] = true
	} else {
		f.ownOther = append(f.ownOther, info)
	}
}

// globEscape quotes the characters filepath.Match treats specially.
func globEscape(p string) string {
	r := strings.NewReplacer(`\`, `\\`, `*`, `\*`, `?`, `\?`, `[`, `\[`)
	return r.Replace(p)
}

// inside reports whether p is dir or lies under it (both clean and
// absolute).
func inside(p, dir string) bool {
	if p == dir {
		return true
	}
	return strings.HasPrefix(p, strings.TrimSuffix(dir, string(filepath.Separator))+string(filepath.Separator))
}

// isPrivate reports whether the file at the resolved path real, found as
// info (nil when unknown), is one of the index's own.
func (f *Fence) isPrivate(real string, info fs.FileInfo) bool {
	for _, p := range f.private {
		if inside(real, p) {
			return true
		}
		// The files named after it, and what lies in folders so named
		// (the index's graphs).
		if rest, ok := strings.CutPrefix(real, p); ok && rest != "" && (rest[0] == '-' || rest[0] == '.') {
			return true
		}
	}
	if info == nil {
		return false
	}
	if id, ok := fileID(info); ok && f.own[id] {
		return true
	}
	for _, own := range f.ownOther {
		if os.SameFile(info, own) {
			return true
		}
	}
	return false
}

// judge refuses the file rel, whose resolved path is real and which was
// found as info (nil when unknown), when it is one of the index's own, or
// when it lies outside every ingested folder and the fence does not let
// it.
func (f *Fence) judge(rel, real string, info fs.FileInfo) *Skip {
	if skip := f.judgePrivate(rel, real, info); skip != nil {
		return skip
	}
	if f.outside {
		return nil
	}
	for _, r := range f.roots {
		if inside(real, r) {
			return nil
		}
	}
	return &Skip{Path: rel, Reason: ReasonOutside, Detail: fmt.Sprintf("symlink to %q, outside the notes folders (ingest --follow-links-outside reads it)", real)}
}

// judgePrivate refuses the file rel, whose resolved path is real and
// which was found as info (nil when unknown), when it is one of the
// index's own.
func (f *Fence) judgePrivate(rel, real string, info fs.FileInfo) *Skip {
	if f.isPrivate(real, info) {
		return &Skip{Path: rel, Reason: ReasonIndexFile, Detail: fmt.Sprintf("%q is one of the index's own files: never read as a note", real)}
	}
	return nil
}

// judgeOpened judges the file opened as file for rel (its name as
// opened: the walk's path or the link's target) by what was opened, so
// that a file or folder swapped after the walk cannot lead elsewhere: its
// identity and, where the system tells it, the path it was opened at.
func (f *Fence) judgeOpened(rel, name string, file *os.File, info fs.FileInfo) *Skip {
	real, ok := openedPath(file)
	if !ok {
		var err error
		if real, err = filepath.EvalSymlinks(name); err != nil {
			return &Skip{Path: rel, Reason: ReasonUnreadable, Detail: fmt.Sprintf("resolving %q: %v", name, err)}
		}
		if now, err := os.Stat(real); err != nil || !os.SameFile(now, info) {
			return &Skip{Path: rel, Reason: ReasonUnreadable, Detail: fmt.Sprintf("%q changed while it was read", name)}
		}
	}
	if abs, err := filepath.Abs(real); err == nil {
		real = abs
	}
	return f.judge(rel, real, info)
}
