package ingest

import (
	"github.com/oraculo/oraculo/enrich"
	"github.com/oraculo/oraculo/store"
)

// StageProgress reports a run's advance (see [Options.Progress]).
type StageProgress struct {
	// Stage is "read" while notes are read and indexed, "compendium" while
	// the compendium is built and its mentions found, "embed" while the
	// dense path's vectors are computed, "graph" while the vector graph is
	// built, "annotate" while the chat model describes chunks.
	Stage string
	Root  string
	Done  int
	Total int
	Bytes int64
	Path  string
	// Pages is how many pages of paged documents (PDF) were read so far.
	Pages int
}

// Report summarises a run (see [Run]).
type Report struct {
	Roots []string `json:"roots"`
	// Files is how many note files were found.
	Files int `json:"files"`
	// Indexed were new or changed and were (re)written.
	Indexed int `json:"indexed"`
	// Unchanged were found identical to the stored version and not touched.
	Unchanged int `json:"unchanged"`
	// Deleted left the index because their files are gone.
	Deleted int `json:"deleted"`
	// Bytes is the size of the files handled: those read and those whose
	// stamps told they had not changed (not read).
	Bytes int64 `json:"bytes"`
	// Skipped files, with the reason; Repaired and Warnings did get in.
	Skipped  []Problem `json:"skipped"`
	Repaired []Problem `json:"repaired"`
	Warnings []Problem `json:"warnings"`
	// Excluded counts the notes the Obsidian vaults' own settings left
	// out (templates folders, "Excluded files"), by folder and rule.
	Excluded []Exclusion `json:"excluded,omitempty"`
	// NewChunks is how many chunks this run wrote.
	NewChunks int `json:"new_chunks"`
	// Documents counts the documents besides notes this run read (new or
	// changed), by format ("pdf", "docx", "odt", "html", "epub"), and
	// Pages the pages of the paged ones.
	Documents map[string]int `json:"documents,omitempty"`
	Pages     int            `json:"pages,omitempty"`
	// Entities is how many entities the DM's compendium holds.
	Entities int `json:"entities"`
	// Embed says what was done for the dense path (nil without embedder).
	Embed *enrich.EmbedReport `json:"embed,omitempty"`
	// Annotate says what was done for annotations (nil without a chat
	// model).
	Annotate *enrich.AnnotateReport `json:"annotate,omitempty"`
	// SecretFolders are the folders whose notes are DM-only.
	SecretFolders []string `json:"secret_folders"`
	// FollowLinksOutside is set when symlinks were followed outside the
	// ingested folders ([Options.FollowLinksOutside]).
	FollowLinksOutside bool `json:"follow_links_outside,omitempty"`
	// Totals in the index after the run.
	Stats store.Stats `json:"stats"`
}

// add counts what one folder's update did.
func (r *Report) add(res *Result) {
	if res == nil {
		return
	}
	r.Files += res.Files
	r.Indexed += res.Indexed
	r.Unchanged += res.Unchanged
	r.Deleted += res.Deleted
	r.Bytes += res.Bytes
	r.NewChunks += res.NewChunks
	r.Pages += res.Pages
	for k, n := range res.Documents {
		if r.Documents == nil {
			r.Documents = map[string]int{}
		}
		r.Documents[k] += n
	}
	r.Skipped = append(r.Skipped, res.Skipped...)
	r.Excluded = append(r.Excluded, res.Excluded...)
	r.Repaired = append(r.Repaired, res.Repaired...)
	r.Warnings = append(r.Warnings, res.Warnings...)
}
