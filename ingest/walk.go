// Package ingest is the first stage of the pipeline: it finds the notes
// under a folder ([Walk]) and reads each one into a Note ([Read]): decoded,
// repaired where needed, with its front matter parsed. [Update] brings a
// folder's notes in a store up to date: it reads and cuts the files in
// parallel, decides who may see each note in the same write as the note,
// writes them in path order, and removes the notes whose files are gone.
//
// [Run] is one whole ingest of an index: its folders resolved (a vault
// that moved keeps its notes), each brought up to date with [Update], then
// the compendium, the vectors and the annotations (packages enrich and
// dense). [Lock] makes it the only ingest of its index.
package ingest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/oraculo/oraculo/load"
	"github.com/oraculo/oraculo/store"
)

// Reason says why a file was not ingested.
type Reason string

// Reasons a file is skipped.
const (
	ReasonBinary      Reason = "binary"
	ReasonTooLarge    Reason = "too-large"
	ReasonUnreadable  Reason = "unreadable"
	ReasonUnsupported Reason = "unsupported-type"
	ReasonEmpty       Reason = "empty"
	// ReasonNotRegular is a device, named pipe or socket named like a note,
	// or a symlink to one: reading it could block or never end.
	ReasonNotRegular Reason = "not-a-regular-file"
)

// Skip is a file (or folder) left out, with the reason.
type Skip struct {
	Path   string `json:"path"`
	Reason Reason `json:"reason"`
	Detail string `json:"detail,omitempty"`
}

// File is a note candidate found by [Walk].
type File struct {
	// Path is relative to the walked folder, with forward slashes.
	Path string
	// Abs is the file's path as found by the walk (the link's, for a
	// symlink).
	Abs string
	// Target is set when the file is a symlink: the absolute path it
	// resolves to, with every symlink evaluated ("" for an ordinary file).
	// [Read] opens Target rather than the link, so that the note read is the
	// file Target names even if the link is changed after the walk.
	Target string
	// Size is the size found by the walk (the target's, for a symlink).
	Size int64
	// stamp is the stamp of an ordinary file found by the walk, when
	// stamped (see [store.FileStamp]).
	stamp   store.FileStamp
	stamped bool
}

// Listing is the result of walking one folder.
type Listing struct {
	Files   []File
	Skipped []Skip
	// Incomplete lists folders (relative, forward slashes) that could not be
	// read: notes previously ingested from under them must not be treated as
	// deleted.
	Incomplete []string
}

// IsNoteFile reports whether a file name has an extension Oráculo reads.
func IsNoteFile(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".md", ".markdown", ".txt":
		return true
	}
	return load.IsDocumentName(name)
}

// Walk lists the note files under root, recursively, skipping hidden files
// and folders (.obsidian, .git, .oraculo, ...). Files of other types are
// reported as skipped. Files are returned sorted by path.
//
// Only regular files are listed. A symlink is judged by what it points to:
// a link to a regular file is listed with its [File.Target]; a link to a
// device, named pipe or socket is skipped as [ReasonNotRegular], like those
// files themselves; a dangling link is skipped as [ReasonUnreadable]. Links
// to folders are not followed. A link that leads outside root, and any
// file of the index's own, is refused: see [Fence.Walk] for other bounds.
func Walk(root string) (*Listing, error) {
	return NewFence(Bounds{Roots: []string{root}}).Walk(root)
}

// Walk lists the note files under root as [Walk] does, within the fence:
// a symlink whose target lies outside the fence's folders is skipped as
// [ReasonOutside] (unless the fence follows links outside), and any file
// of the index's own, however reached, as [ReasonIndexFile].
func (fc *Fence) Walk(root string) (*Listing, error) {
	fi, err := os.Stat(root)
	if err != nil {
		return nil, fmt.Errorf("reading notes folder %q: %w", root, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("reading notes folder %q: not a folder", root)
	}
	// The files under root lie where root really is: its path resolved
	// once, theirs need not be.
	realRoot := resolve(root)
	l := &Listing{}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		rel, relErr := filepath.Rel(root, p)
		if relErr != nil {
			return relErr
		}
		rel = filepath.ToSlash(rel)
		if err != nil {
			if p == root {
				return err
			}
			l.Skipped = append(l.Skipped, Skip{Path: rel, Reason: ReasonUnreadable, Detail: err.Error()})
			if d == nil || d.IsDir() {
				l.Incomplete = append(l.Incomplete, rel)
				return fs.SkipDir
			}
			return nil
		}
		if p != root && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		typ := d.Type()
		if !typ.IsRegular() && typ&fs.ModeSymlink == 0 {
			if IsNoteFile(d.Name()) {
				l.Skipped = append(l.Skipped, Skip{Path: rel, Reason: ReasonNotRegular, Detail: fileKind(typ)})
			}
			return nil
		}
		if rel == "compendium.yaml" {
			return nil // the user's compendium, read by the engine
		}
		if !IsNoteFile(d.Name()) {
			l.Skipped = append(l.Skipped, Skip{Path: rel, Reason: ReasonUnsupported})
			return nil
		}
		if typ.IsRegular() {
			info, err := d.Info()
			if err != nil {
				l.Skipped = append(l.Skipped, Skip{Path: rel, Reason: ReasonUnreadable, Detail: err.Error()})
				l.Incomplete = append(l.Incomplete, rel)
				return nil
			}
			if skip := fc.judgePrivate(rel, filepath.Join(realRoot, rel), info); skip != nil {
				l.Skipped = append(l.Skipped, *skip)
				return nil
			}
			f := File{Path: rel, Abs: p, Size: info.Size()}
			f.stamp, f.stamped = fileStamp(info)
			l.Files = append(l.Files, f)
			return nil
		}
		f, skip := fc.followLink(rel, p)
		switch {
		case skip != nil:
			l.Skipped = append(l.Skipped, *skip)
			if skip.Reason == ReasonUnreadable {
				l.Incomplete = append(l.Incomplete, rel)
			}
		case f != nil:
			l.Files = append(l.Files, *f)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading notes folder %q: %w", root, err)
	}
	sort.Slice(l.Files, func(i, j int) bool { return l.Files[i].Path < l.Files[j].Path })
	return l, nil
}

// followLink judges the symlink at p by its target: a regular file inside
// the fence comes back as a File, a folder as neither a File nor a Skip
// (links to folders are not followed), anything else as a Skip.
func (fc *Fence) followLink(rel, p string) (*File, *Skip) {
	info, err := os.Stat(p)
	if err != nil {
		dest, _ := os.Readlink(p)
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, &Skip{Path: rel, Reason: ReasonUnreadable, Detail: fmt.Sprintf("symlink to %q: %v", dest, err)}
	}
	if info.IsDir() {
		return nil, nil
	}
	target, err := filepath.EvalSymlinks(p)
	if err == nil {
		target, err = filepath.Abs(target)
	}
	if err != nil {
		return nil, &Skip{Path: rel, Reason: ReasonUnreadable, Detail: fmt.Sprintf("resolving symlink: %v", err)}
	}
	if !info.Mode().IsRegular() {
		return nil, &Skip{Path: rel, Reason: ReasonNotRegular, Detail: fmt.Sprintf("symlink to %s %q", fileKind(info.Mode()), target)}
	}
	if skip := fc.judge(rel, target, info); skip != nil {
		return nil, skip
	}
	return &File{Path: rel, Abs: p, Target: target, Size: info.Size()}, nil
}

// fileKind names the type of a file that is not a regular one.
func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "symlink"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "block device"
	case m.IsDir():
		return "folder"
	case m.IsRegular():
		return "regular file"
	}
	return "irregular file"
}

// Covers reports whether a relative path lies in one of the incomplete
// folders (or is one of the unreadable files) of the listing.
func (l *Listing) Covers(rel string) bool {
	for _, p := range l.Incomplete {
		if rel == p || strings.HasPrefix(rel, p+"/") {
			return true
		}
	}
	return false
}
