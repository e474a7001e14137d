package ingest

import "path/filepath"

// indexFiles are the files an index at db keeps, never to be read as
// notes: the index (and the files named after it: its journal, link key
// and graphs), the files named beside in its folder (the tokens and chat
// history a server keeps there), and the whole folder the index lies in,
// unless a folder of notes (among roots, resolved) lies in it (an index
// kept in the vault's root, say), which would refuse every note.
func indexFiles(db string, beside, roots []string) []string {
	db, err := filepath.Abs(db)
	if err != nil {
		return nil
	}
	dir := filepath.Dir(db)
	files := []string{db}
	for _, name := range beside {
		files = append(files, filepath.Join(dir, name))
	}
	real, err := absRoot(dir)
	if err != nil {
		return files
	}
	for _, r := range roots {
		if inside(r, real) {
			return files
		}
	}
	return append(files, dir)
}
