package store

import "context"

// FileStamp is what a file's metadata said when the note stored from it
// was read: its size, the times it was last modified and last changed
// (in nanoseconds since the epoch; the change time moves with any write,
// and cannot be set back), and its device and inode. Two stamps equal
// mean the file was not written in between, except within the
// filesystem's time granularity: an ingest stores the stamp of a file
// only once it is older than that (see package ingest).
type FileStamp struct {
	Size            int64
	ModNS, ChangeNS int64
	Device, Inode   uint64
}

// StampedFile is a file's stamp with the note it was read as: its path
// in the folder and the content hash of the version read. Repairs and
// Warnings are what reading it reported, so that a run that does not read
// it again reports the same.
type StampedFile struct {
	Path     string
	SHA256   string
	Stamp    FileStamp
	Repairs  string
	Warnings []string
}

// FileStamper is a store that keeps, beside each note, the stamp of the
// file the note was read from, so that an ingest leaves a file whose
// stamp did not change alone without reading it. A store that is not one
// has every file read and its content hash compared.
type FileStamper interface {
	// FileStamps returns the stamps kept for the notes of root, by path,
	// each with the content hash it was stamped with: a stamp tells
	// nothing of a note that no longer holds that content (the caller
	// compares).
	FileStamps(ctx context.Context, root string) (map[string]StampedFile, error)
	// PutFileStamps stamps notes of root, each only while the note stored
	// at its path holds the content hash given; a stamp it replaces goes.
	PutFileStamps(ctx context.Context, root string, files []StampedFile) error
}
