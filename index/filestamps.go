package index

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/oraculo/oraculo/store"
)

// FileStamps returns the stamps kept for the notes of root, by path (see
// [store.FileStamper]).
func (ix *Index) FileStamps(ctx context.Context, root string) (map[string]store.StampedFile, error) {
	rows, err := ix.db.QueryContext(ctx, `SELECT path, sha256, size, mtime, ctime, device, inode, report
		FROM file_stamps WHERE root = ?`, root)
	if err != nil {
		return nil, fmt.Errorf("reading the file stamps of %q: %w", root, err)
	}
	defer rows.Close()
	stamps := map[string]store.StampedFile{}
	for rows.Next() {
		var sf store.StampedFile
		var dev, ino int64
		var report string
		if err := rows.Scan(&sf.Path, &sf.SHA256, &sf.Stamp.Size, &sf.Stamp.ModNS, &sf.Stamp.ChangeNS, &dev, &ino, &report); err != nil {
			return nil, fmt.Errorf("reading the file stamps of %q: %w", root, err)
		}
		sf.Stamp.Device, sf.Stamp.Inode = uint64(dev), uint64(ino)
		if report != "" {
			var r stampReport
			if err := json.Unmarshal([]byte(report), &r); err != nil {
				continue // read the file again
			}
			sf.Repairs, sf.Warnings = r.Repairs, r.Warnings
		}
		stamps[sf.Path] = sf
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading the file stamps of %q: %w", root, err)
	}
	return stamps, nil
}

// stampReport is what reading a stamped file reported, as file_stamps
// keeps it.
type stampReport struct {
	Repairs  string   `json:"repairs,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
}

// PutFileStamps stamps notes of root, each only while the note stored at
// its path holds the content hash given (see [store.FileStamper]).
func (ix *Index) PutFileStamps(ctx context.Context, root string, files []store.StampedFile) error {
	tx, err := ix.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("stamping the files of %q: %w", root, err)
	}
	defer tx.Rollback()
	put, err := tx.PrepareContext(ctx, `INSERT OR REPLACE INTO file_stamps(doc_id, root, path, sha256, size, mtime, ctime, device, inode, report)
		SELECT id, root, path, sha256, ?, ?, ?, ?, ?, ? FROM documents WHERE root = ? AND path = ? AND sha256 = ?`)
	if err != nil {
		return fmt.Errorf("stamping the files of %q: %w", root, err)
	}
	defer put.Close()
	for _, f := range files {
		report := ""
		if f.Repairs != "" || len(f.Warnings) > 0 {
			b, err := json.Marshal(stampReport{Repairs: f.Repairs, Warnings: f.Warnings})
			if err != nil {
				return fmt.Errorf("stamping %q: %w", f.Path, err)
			}
			report = string(b)
		}
		s := f.Stamp
		if _, err := put.ExecContext(ctx, s.Size, s.ModNS, s.ChangeNS, int64(s.Device), int64(s.Inode), report, root, f.Path, f.SHA256); err != nil {
			return fmt.Errorf("stamping %q: %w", f.Path, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("stamping the files of %q: %w", root, err)
	}
	return nil
}
