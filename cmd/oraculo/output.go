package main

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/ingest"
	"github.com/oraculo/oraculo/internal/termrender"
	"github.com/oraculo/oraculo/link"
)

// maxListed is how many skipped, repaired or warned files are listed.
const maxListed = 20

func printIngestReport(w io.Writer, dbPath string, r *oraculo.IngestReport) {
	fmt.Fprintln(w, msg("ingest-done", time.Duration(r.Elapsed).Round(time.Millisecond), r.Files, r.Indexed, r.Unchanged, r.Deleted, humanBytes(r.Bytes)))
	if r.Files == 0 && len(r.Skipped) == 0 && r.Stats.Documents == 0 {
		fmt.Fprintln(w, msg("no-notes-found"))
	}
	s := r.Stats
	fmt.Fprintln(w, msg("index-summary", dbPath, s.Documents, s.Sessions, s.Chunks, s.Children, indexSize(dbPath, s.Bytes, msg("size-on-disk", humanBytes(s.Bytes)))))
	fmt.Fprintln(w, msg("settings", langSetting(r.Settings.Lang, s.Langs), r.Settings.MaxWords, r.Settings.OverlapWords))
	if r.FollowLinksOutside {
		fmt.Fprintln(w, msg("links-outside-followed"))
	}
	if len(r.Documents) > 0 {
		var parts []string
		for _, kind := range slices.Sorted(maps.Keys(r.Documents)) {
			if kind == "pdf" && r.Pages > 0 {
				parts = append(parts, msg("document-pages", r.Documents[kind], strings.ToUpper(kind), r.Pages))
			} else {
				parts = append(parts, msg("document-count", r.Documents[kind], strings.ToUpper(kind)))
			}
		}
		fmt.Fprintln(w, msg("documents-summary", strings.Join(parts, ", ")))
	}
	if r.Entities > 0 {
		fmt.Fprintln(w, msg("compendium-summary", r.Entities))
	}
	if e := r.Embed; e != nil {
		fmt.Fprintln(w, msg("embed-summary", e.Model, e.Embedded, e.Pending, e.Pruned))
	}
	if a := r.Annotate; a != nil {
		fmt.Fprintln(w, msg("annotate-summary", a.Model, a.Annotated, a.Cached, a.Pending, a.Failed))
	}
	printSkipped(w, r.Skipped)
	printExcluded(w, r.Excluded)
	if len(r.Repaired) > 0 {
		fmt.Fprintln(w, msg("repaired", len(r.Repaired)))
		listProblems(w, r.Repaired, false)
	}
	if len(r.Warnings) > 0 {
		fmt.Fprintln(w, msg("warnings", len(r.Warnings)))
		listProblems(w, r.Warnings, false)
	}
}

// printSkipped lists the files an ingest skipped: those of types it does
// not read counted by extension, the others one by one with why.
func printSkipped(w io.Writer, problems []oraculo.Problem) {
	var skipped []oraculo.Problem
	others := map[string]int{}
	for _, p := range problems {
		if p.Reason == "unsupported-type" {
			ext := termrender.Escape(strings.ToLower(extOf(p.Path)))
			others[ext]++
			continue
		}
		skipped = append(skipped, p)
	}
	nOthers := 0
	for _, n := range others {
		nOthers += n
	}
	if len(skipped) > 0 || nOthers > 0 {
		fmt.Fprintln(w, msg("skipped", len(skipped)+nOthers))
		listProblems(w, skipped, true)
		if nOthers > 0 {
			fmt.Fprintln(w, msg("other-types", nOthers, joinCounts(others, "%s ×%d", ", ")))
		}
	}
}

func listProblems(w io.Writer, ps []oraculo.Problem, reasons bool) {
	for i, p := range ps {
		if i == maxListed {
			fmt.Fprintln(w, msg("and-more", len(ps)-maxListed))
			return
		}
		text := termrender.Escape(p.Detail)
		if p.Reason == ingest.ReasonObsidianSettings {
			text = msg("obsidian-settings-warning", text)
		}
		if reasons {
			text = msg("reason:" + p.Reason)
			if p.Detail != "" {
				text += " (" + termrender.Escape(p.Detail) + ")"
			}
		}
		if p.Path == "" {
			fmt.Fprintf(w, "  %s\n", text)
			continue
		}
		fmt.Fprintf(w, "  %s — %s\n", termrender.Escape(p.Path), text)
	}
}

func extOf(p string) string {
	base := p[strings.LastIndex(p, "/")+1:]
	if i := strings.LastIndex(base, "."); i > 0 {
		return base[i:]
	}
	return "(none)"
}

// indexSize is onDisk, what the size of the index at path says, unless
// the index is in a cluster, whose disks are not measured.
func indexSize(path string, n int64, onDisk string) string {
	if n == 0 && strings.Contains(path, "://") {
		return msg("size-in-cluster")
	}
	return onDisk
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

func printHits(w io.Writer, question string, hits []oraculo.Hit, explain bool) {
	fmt.Fprintln(w, msg("question", termrender.Escape(question)))
	if len(hits) == 0 {
		fmt.Fprintln(w, "  "+msg("no-hits"))
		fmt.Fprintln(w)
		return
	}
	for _, h := range hits {
		fmt.Fprintf(w, "%3d. %s  ·  %s  ·  %s %.4g  ·  %s\n", h.Rank, termrender.Escape(h.Label), termrender.Escape(h.File), msg("col-score"), h.Score, pathsText(h.Paths))
		text := h.Passage
		if text == "" {
			text = h.Text
		}
		fmt.Fprintf(w, "     %s\n", termrender.Escape(clip(oraculo.Snippet(link.Render(text)), 110)))
		if explain {
			fmt.Fprintf(w, "     %s\n", explainRanks(h))
		}
	}
	fmt.Fprintln(w)
}

// explainRanks spells out a hit's fusion: each path's rank and its
// reciprocal-rank contribution, summed.
func explainRanks(h oraculo.Hit) string {
	s := explainFusion(h)
	if h.Coverage > 0 {
		s += " " + msg("explain-coverage", h.Coverage)
	}
	if h.Prior > 0 {
		s += " " + msg("explain-prior", h.Prior)
	}
	return s
}

// explainFusion prints the explanation the fusion recorded in the hit.
func explainFusion(h oraculo.Hit) string {
	f := h.Fusion
	if f.ReorderedBy != "" {
		base := maps.Clone(h.Paths)
		delete(base, f.ReorderedBy)
		if r, ok := h.Paths[f.ReorderedBy]; ok {
			return msg("explain-lift", pathsText(base), f.Share, r, f.Lift, h.Score)
		}
		return msg("explain-share", pathsText(base), h.Score)
	}
	if len(f.Parts) < 2 {
		return msg("explain-one", pathsText(h.Paths), f.Total())
	}
	parts := slices.Clone(f.Parts)
	sort.Slice(parts, func(i, j int) bool { return parts[i].Path < parts[j].Path })
	terms := make([]string, len(parts))
	for i, p := range parts {
		terms[i] = fmt.Sprintf("%s #%d: %g/(%d+%d) = %.4f", p.Path, p.Rank, p.Weight, p.K, p.Rank, p.Score)
	}
	return msg("explain-rrf", strings.Join(terms, " + "), f.Total())
}

func pathsText(p map[string]int) string { return joinCounts(p, "%s:%d", " ") }

// joinCounts formats a map's entries in key order.
func joinCounts(m map[string]int, format, sep string) string {
	keys := slices.Sorted(maps.Keys(m))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf(format, k, m[k])
	}
	return strings.Join(parts, sep)
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

func printChunks(w io.Writer, chunks []oraculo.ChunkInfo) {
	if len(chunks) == 0 {
		fmt.Fprintln(w, msg("no-chunks"))
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", msg("col-label"), msg("col-file"), msg("col-session"), msg("col-headings"), msg("col-words"), msg("col-first"))
	for _, c := range chunks {
		session := "-"
		if c.Session != nil {
			session = fmt.Sprint(*c.Session)
		}
		esc := termrender.Escape
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\n", esc(c.Label), esc(c.File), session, esc(clip(strings.Join(c.Headings, " › "), 60)), c.Words, esc(clip(c.FirstLine, 60)))
	}
	tw.Flush()
}

// docsByType is the count of documents with, when they are not all of one
// type, how many of each: "47 (md 44, pdf 2, docx 1)".
func docsByType(n int, byType map[string]int) string {
	if len(byType) < 2 {
		return fmt.Sprint(n)
	}
	return fmt.Sprintf("%d (%s)", n, joinCounts(byType, "%s %d", ", "))
}

func printStats(w io.Writer, s oraculo.Stats) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	rows := [][2]string{
		{msg("stats-path"), termrender.Escape(s.Path)},
		{msg("stats-docs"), docsByType(s.Documents, s.DocumentsByType)},
		{msg("stats-sessions"), fmt.Sprint(s.Sessions)},
		{msg("stats-chunks"), fmt.Sprint(s.Chunks)},
		{msg("stats-children"), fmt.Sprint(s.Children)},
		{msg("stats-size"), indexSize(s.Path, s.Bytes, humanBytes(s.Bytes))},
		{msg("stats-lang"), langSetting(s.Settings.Lang, s.Langs)},
		{msg("stats-cap"), fmt.Sprintf("%d / %d", s.Settings.MaxWords, s.Settings.OverlapWords)},
		{msg("stats-schema"), fmt.Sprint(s.Schema)},
		{msg("stats-entities"), fmt.Sprint(s.Entities)},
		{msg("stats-paths"), strings.Join(s.Retrieval.Paths, ", ")},
	}
	if s.Retrieval.DenseModel != "" {
		how := msg("stats-dense-exact", s.Retrieval.DenseVectors)
		if s.Retrieval.Graph {
			how = msg("stats-dense-graph", s.Retrieval.DenseVectors)
		}
		rows = append(rows, [2]string{msg("stats-dense", s.Retrieval.DenseModel), how})
	}
	for _, m := range slices.Sorted(maps.Keys(s.Vectors)) {
		rows = append(rows, [2]string{msg("stats-vectors", m), fmt.Sprint(s.Vectors[m])})
	}
	for _, k := range slices.Sorted(maps.Keys(s.Annotations)) {
		rows = append(rows, [2]string{msg("stats-annotations", k), fmt.Sprint(s.Annotations[k])})
	}
	dm := fmt.Sprint(s.DMOnly.Notes)
	if s.DMOnly.Notes > 0 {
		var why []string
		for _, r := range slices.Sorted(maps.Keys(s.DMOnly.ByReason)) {
			why = append(why, msg("stats-dm-"+r, s.DMOnly.ByReason[r]))
		}
		dm += " (" + strings.Join(why, ", ") + ")"
	}
	folders := termrender.Escape(strings.Join(s.DMOnly.SecretFolders, ", "))
	if folders == "" {
		folders = "-"
	}
	rows = append(rows, [2]string{msg("stats-dm-notes"), dm}, [2]string{msg("stats-secret-folders"), folders})
	if s.DMOnly.PlayersCompendium != "ok" {
		rows = append(rows, [2]string{msg("stats-players-compendium"), msg("stats-withheld")})
	}
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\n", r[0], r[1])
	}
	tw.Flush()
}

// printAnalysis says which sessions a search was restricted to because
// the question named them, or that nothing in them matched; with explain,
// everything that was understood of the question.
func printAnalysis(w io.Writer, an oraculo.QueryAnalysis, explain bool) {
	if explain {
		fmt.Fprintln(w, msg("explain-analysis", explainKind(an.Kind), termrender.Escape(listOrNone(an.Entities)), termrender.Escape(explainFilter(an.Filters))))
	}
	switch {
	case an.Unfiltered:
		fmt.Fprintln(w, msg("search-unfiltered", termrender.Escape(an.Said)))
	case an.Said != "" && an.Filters.UntilSession > 0:
		fmt.Fprintln(w, msg("search-until", an.Filters.UntilSession, termrender.Escape(an.Said)))
	case an.Said != "":
		s := make([]string, len(an.Filters.Sessions))
		for i, n := range an.Filters.Sessions {
			s[i] = fmt.Sprint(n)
		}
		fmt.Fprintln(w, msg("search-sessions", strings.Join(s, ", "), termrender.Escape(an.Said)))
	}
}

func explainKind(kind string) string {
	if kind == "arc" {
		return msg("kind-arc")
	}
	return msg("kind-lookup")
}

func listOrNone(items []string) string {
	if len(items) == 0 {
		return msg("none")
	}
	return strings.Join(items, ", ")
}

// explainFilter spells out a filter: "sessions 3, 4 · folders NPCs", or
// "none".
func explainFilter(f oraculo.Filter) string {
	var parts []string
	if len(f.Sessions) > 0 {
		s := make([]string, len(f.Sessions))
		for i, n := range f.Sessions {
			s[i] = strconv.Itoa(n)
		}
		parts = append(parts, msg("filter-sessions", strings.Join(s, ", ")))
	}
	if f.UntilSession > 0 {
		parts = append(parts, msg("filter-until", f.UntilSession))
	}
	if len(f.Folders) > 0 {
		parts = append(parts, msg("filter-folders", strings.Join(f.Folders, ", ")))
	}
	if len(f.Tags) > 0 {
		parts = append(parts, msg("filter-tags", strings.Join(f.Tags, ", ")))
	}
	if len(parts) == 0 {
		return msg("none")
	}
	return strings.Join(parts, " · ")
}
