package ingest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
)

// Reasons an Obsidian vault's own settings leave a note out (see [Vault]).
const (
	// ReasonTemplate is a note in the vault's templates folder (the core
	// Templates plugin's or Templater's).
	ReasonTemplate Reason = "obsidian-template"
	// ReasonObsidianExcluded is a note the vault's "Excluded files"
	// (userIgnoreFilters) match.
	ReasonObsidianExcluded Reason = "obsidian-excluded"
)

// ReasonObsidianSettings is the reason of a warning about a vault's
// settings file that could not be applied (see [Vault.Warnings]).
const ReasonObsidianSettings = "obsidian-settings"

// The files of a vault's settings that an ingest reads, relative to it.
const (
	ObsidianDir       = ".obsidian"
	obsidianApp       = ObsidianDir + "/app.json"
	obsidianTemplates = ObsidianDir + "/templates.json"
	obsidianTemplater = ObsidianDir + "/plugins/templater-obsidian/data.json"
)

// ObsidianSettingsFiles are the settings files of a vault (relative to it,
// forward slashes) whose content decides what [ReadVault] leaves out: a
// watcher reads the vault's settings again when one changes.
var ObsidianSettingsFiles = []string{obsidianApp, obsidianTemplates, obsidianTemplater}

// VaultOptions say which of a vault's own exclusions an ingest overrides.
type VaultOptions struct {
	// IncludeTemplates indexes the templates folder too.
	IncludeTemplates bool
	// IncludeExcluded indexes the notes Obsidian's "Excluded files"
	// setting matches too.
	IncludeExcluded bool
}

// Vault is what an Obsidian vault's own settings leave out of an ingest:
// the templates folders, and the "Excluded files" filters, matched as
// Obsidian matches them (see [ReadVault]). The zero Vault leaves out
// nothing.
type Vault struct {
	// Templates are the templates folders (relative, forward slashes, no
	// trailing slash).
	Templates []string
	// Filters are the "Excluded files" filters that apply.
	Filters []VaultFilter
	// Warnings are the settings that could not be applied, each naming
	// its file (Path) and what is wrong with it.
	Warnings []Problem
}

// VaultFilter is one of Obsidian's "Excluded files" filters.
type VaultFilter struct {
	// Rule is the filter as the vault writes it: "Archive/", "/regexp/".
	Rule string
	re   *regexp.Regexp
	// text is set when Rule is text, not a regular expression.
	text bool
}

// ReadVault reads what the Obsidian vault at root leaves out of an
// ingest, o saying what to include anyway. A folder without a .obsidian
// folder is no vault: nothing is left out. A settings file that is
// missing leaves out nothing; one that is malformed is a warning naming
// it, and the ingest goes on without that setting.
//
// The templates folder is the core Templates plugin's ("folder" in
// .obsidian/templates.json) and Templater's ("templates_folder" in
// .obsidian/plugins/templater-obsidian/data.json), whether the plugin is
// enabled or not; a folder that is the vault itself ("", "/") leaves out
// nothing. The "Excluded files" are .obsidian/app.json's
// "userIgnoreFilters", matched as Obsidian does against a note's path in
// the vault (forward slashes), ignoring case: a filter written between
// slashes ("/draft|wip/") is a regular expression found anywhere in the
// path; any other ("Archive/") is text found anywhere in it, so
// "Archive/" also matches "Old/Archive/x.md". A regular expression Go
// cannot compile (a look-ahead, a back-reference) is a warning.
func ReadVault(root string, o VaultOptions) *Vault {
	v := &Vault{}
	if fi, err := os.Stat(filepath.Join(root, ObsidianDir)); err != nil || !fi.IsDir() {
		return v
	}
	if !o.IncludeTemplates {
		for _, s := range []struct{ file, key string }{{obsidianTemplates, "folder"}, {obsidianTemplater, "templates_folder"}} {
			if dir := v.templatesFolder(root, s.file, s.key); dir != "" && !slices.Contains(v.Templates, dir) {
				v.Templates = append(v.Templates, dir)
			}
		}
	}
	if !o.IncludeExcluded {
		v.readFilters(root)
	}
	return v
}

// readSetting decodes the key of the JSON object in the settings file
// into dst; a missing file, or key, is no error.
func readSetting(root, file, key string, dst any) (found bool, err error) {
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		return false, jsonError(data, err)
	}
	raw, ok := obj[key]
	if !ok || bytes.Equal(raw, []byte("null")) {
		return false, nil
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		return false, fmt.Errorf("%q: %w", key, jsonError(raw, err))
	}
	return true, nil
}

// jsonError says where a JSON text is malformed, by line and column.
func jsonError(data []byte, err error) error {
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		before := data[:min(int(syn.Offset), len(data))]
		line := bytes.Count(before, []byte("\n")) + 1
		col := len(before) - bytes.LastIndexByte(before, '\n') - 1
		return fmt.Errorf("malformed JSON at line %d, column %d: %w", line, col, err)
	}
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		return fmt.Errorf("a JSON %s where %s was expected", typ.Value, jsonKind(typ.Type))
	}
	return fmt.Errorf("malformed JSON: %w", err)
}

// jsonKind names the kind of JSON value a Go type decodes.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Bool:
		return "true or false"
	}
	return "a number"
}

// warn records a setting that could not be applied.
func (v *Vault) warn(file, what string, err error) {
	v.Warnings = append(v.Warnings, Problem{Path: file, Reason: ReasonObsidianSettings, Detail: fmt.Sprintf("%v; %s", err, what)})
}

// templatesFolder is the templates folder a plugin's settings file names,
// "" when it names none (or the vault itself).
func (v *Vault) templatesFolder(root, file, key string) string {
	var dir string
	if _, err := readSetting(root, file, key, &dir); err != nil {
		v.warn(file, "its templates folder is indexed like any other", err)
		return ""
	}
	return strings.Trim(filepath.ToSlash(strings.TrimSpace(dir)), "/")
}

// readFilters reads and compiles the vault's "Excluded files".
func (v *Vault) readFilters(root string) {
	var raw []json.RawMessage
	if _, err := readSetting(root, obsidianApp, "userIgnoreFilters", &raw); err != nil {
		v.warn(obsidianApp, "its excluded files are indexed like any other", err)
		return
	}
	for _, r := range raw {
		var rule string
		if err := json.Unmarshal(r, &rule); err != nil {
			v.warn(obsidianApp, "ignoring it", fmt.Errorf("\"userIgnoreFilters\" holds %s, not a text", r))
			continue
		}
		f, err := compileFilter(rule)
		if err != nil {
			v.warn(obsidianApp, "the notes it would exclude are indexed", fmt.Errorf("\"userIgnoreFilters\" %q: %w", rule, err))
			continue
		}
		if f != nil {
			v.Filters = append(v.Filters, *f)
		}
	}
}

// compileFilter is one "Excluded files" filter as Obsidian reads it:
// trimmed, an empty one skipped, a regular expression between slashes,
// else text; both found anywhere in a path, whatever the case.
func compileFilter(rule string) (*VaultFilter, error) {
	rule = strings.TrimSpace(rule)
	if rule == "" {
		return nil, nil
	}
	expr, text := "(?i)"+regexp.QuoteMeta(rule), true
	if len(rule) > 2 && strings.HasPrefix(rule, "/") && strings.HasSuffix(rule, "/") {
		expr, text = "(?i)"+rule[1:len(rule)-1], false
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		var re2 *syntax.Error
		if errors.As(err, &re2) {
			err = fmt.Errorf("not a regular expression Go can read (%s)", re2.Code)
		}
		return nil, err
	}
	return &VaultFilter{Rule: rule, re: re, text: text}, nil
}

// Excludes says why the note at rel (relative to the vault, forward
// slashes) is left out, and by which rule ("Templates/", "Archive/"); ok
// is false when it is not.
func (v *Vault) Excludes(rel string) (reason Reason, rule string, ok bool) {
	if v == nil {
		return "", "", false
	}
	for _, dir := range v.Templates {
		if len(rel) > len(dir) && rel[len(dir)] == '/' && strings.EqualFold(rel[:len(dir)], dir) {
			return ReasonTemplate, dir + "/", true
		}
	}
	for _, f := range v.Filters {
		if f.re.MatchString(rel) {
			return ReasonObsidianExcluded, f.Rule, true
		}
	}
	return "", "", false
}

// ExcludesFolder reports whether every note under the folder at rel
// (relative to the vault, forward slashes) is left out, whatever its
// name: the folder lies in a templates folder, or its path with a
// trailing slash holds an "Excluded files" text. A regular expression
// judges each note by its own path, so it leaves out no whole folder.
func (v *Vault) ExcludesFolder(rel string) bool {
	if v == nil {
		return false
	}
	if reason, _, _ := v.Excludes(rel + "/"); reason == ReasonTemplate {
		return true
	}
	for _, f := range v.Filters {
		if f.text && f.re.MatchString(rel+"/") {
			return true
		}
	}
	return false
}

// Exclusion counts the notes of one folder that one rule of its vault's
// settings left out of an ingest.
type Exclusion struct {
	Root string `json:"root"`
	// Reason is "obsidian-template" or "obsidian-excluded".
	Reason Reason `json:"reason"`
	// Rule is the templates folder ("Templates/") or the "Excluded files"
	// filter ("Archive/", "/regexp/").
	Rule string `json:"rule"`
	// Notes is how many note files it left out.
	Notes int `json:"notes"`
}

// filter takes out of the listing the files the vault leaves out, and the
// files skipped there, and counts those left out by rule, in the order
// found.
func (v *Vault) filter(root string, l *Listing) []Exclusion {
	if v == nil || (len(v.Templates) == 0 && len(v.Filters) == 0) {
		return nil
	}
	var out []Exclusion
	at := map[string]int{}
	kept := l.Files[:0]
	for _, f := range l.Files {
		reason, rule, ok := v.Excludes(f.Path)
		if !ok {
			kept = append(kept, f)
			continue
		}
		key := string(reason) + "\x00" + rule
		i, seen := at[key]
		if !seen {
			i = len(out)
			at[key] = i
			out = append(out, Exclusion{Root: root, Reason: reason, Rule: rule})
		}
		out[i].Notes++
	}
	l.Files = kept
	skipped := l.Skipped[:0]
	for _, s := range l.Skipped {
		if _, _, ok := v.Excludes(s.Path); !ok {
			skipped = append(skipped, s)
		}
	}
	l.Skipped = skipped
	return out
}
