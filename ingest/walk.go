// Package ingest finds the notes under a folder and reads each one into a
// Note: decoded, repaired where needed, with its front matter parsed.
// Deciding what changed and storing it is the engine's job.
package ingest

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
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
	// Abs is the path to open.
	Abs  string
	Size int64
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
	return false
}

// Walk lists the note files under root, recursively, skipping hidden files
// and folders (.obsidian, .git, .oraculo, ...). Files of other types are
// reported as skipped. Files are returned sorted by path.
func Walk(root string) (*Listing, error) {
	fi, err := os.Stat(root)
	if err != nil {
		return nil, fmt.Errorf("reading notes folder %q: %w", root, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("reading notes folder %q: not a folder", root)
	}
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
		if !d.Type().IsRegular() && d.Type()&fs.ModeSymlink == 0 {
			return nil
		}
		if rel == "compendium.yaml" {
			return nil // the user's compendium, read by the engine
		}
		if !IsNoteFile(d.Name()) {
			l.Skipped = append(l.Skipped, Skip{Path: rel, Reason: ReasonUnsupported})
			return nil
		}
		info, err := os.Stat(p)
		if err != nil {
			l.Skipped = append(l.Skipped, Skip{Path: rel, Reason: ReasonUnreadable, Detail: err.Error()})
			l.Incomplete = append(l.Incomplete, rel)
			return nil
		}
		if info.IsDir() {
			return nil
		}
		l.Files = append(l.Files, File{Path: rel, Abs: p, Size: info.Size()})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading notes folder %q: %w", root, err)
	}
	sort.Slice(l.Files, func(i, j int) bool { return l.Files[i].Path < l.Files[j].Path })
	return l, nil
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
