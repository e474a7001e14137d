package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/ingest"
	"github.com/oraculo/oraculo/internal/termrender"
)

// vaultFlags are the flags that override an Obsidian vault's own
// exclusions, on ingest and serve (whose ingests and watcher use them).
type vaultFlags struct {
	templates, excluded *bool
}

// newVaultFlags registers --include-templates and --include-excluded on fs.
func newVaultFlags(fs *flag.FlagSet) *vaultFlags {
	return &vaultFlags{
		templates: fs.Bool("include-templates", false, "index an Obsidian vault's templates folder too (the Templates core plugin's or Templater's, left out by default)"),
		excluded:  fs.Bool("include-excluded", false, "index the files an Obsidian vault's \"Excluded files\" setting matches too (left out by default)"),
	}
}

// apply sets the flags' overrides in an ingest's options.
func (f *vaultFlags) apply(opts *oraculo.IngestOptions) {
	opts.IncludeTemplates, opts.IncludeExcluded = *f.templates, *f.excluded
}

func init() {
	// A config file may set them too (TestConfigKnownFlags checks it).
	knownFlags["include-templates"] = true
	knownFlags["include-excluded"] = true
	// The flags' Spanish lives here, with them (TestCommandHelp checks it).
	flagUsageES["include-templates"] = "indexar también la carpeta de plantillas de una bóveda de Obsidian (la del complemento Plantillas o la de Templater, que por defecto se omite)"
	flagUsageES["include-excluded"] = "indexar también los archivos que el ajuste «Archivos excluidos» de una bóveda de Obsidian deja fuera (por defecto se omiten)"
}

// printExcluded says how many notes the vaults' own settings left out, by
// rule, and how to index them.
func printExcluded(w io.Writer, excluded []ingest.Exclusion) {
	if len(excluded) == 0 {
		return
	}
	total := 0
	byReason := map[ingest.Reason][]string{}
	counts := map[string]int{}
	for _, e := range excluded {
		total += e.Notes
		key := string(e.Reason) + "\x00" + e.Rule
		if counts[key] == 0 {
			byReason[e.Reason] = append(byReason[e.Reason], e.Rule)
		}
		counts[key] += e.Notes
	}
	var parts, hints []string
	for _, reason := range []ingest.Reason{ingest.ReasonTemplate, ingest.ReasonObsidianExcluded} {
		rules := byReason[reason]
		if len(rules) == 0 {
			continue
		}
		for i, r := range rules {
			rules[i] = fmt.Sprintf("%s ×%d", r, counts[string(reason)+"\x00"+r])
		}
		parts = append(parts, msg("reason:"+string(reason))+" ("+termrender.Escape(strings.Join(rules, ", "))+")")
		hints = append(hints, msg("include:"+string(reason)))
	}
	fmt.Fprintln(w, msg("obsidian-left-out", total, strings.Join(parts, ", ")))
	fmt.Fprintln(w, "  "+strings.Join(hints, "; ")+".")
}
