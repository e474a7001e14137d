package compendium

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// FileError is a problem in a compendium.yaml, on a line (1-based; 0 when
// unknown). Err is the YAML library's error when there is one.
type FileError struct {
	Line int
	Msg  string
	Err  error
}

// Error returns "compendium file: line N: message".
func (e *FileError) Error() string {
	if e.Line == 0 {
		return "compendium file: " + e.Msg
	}
	return fmt.Sprintf("compendium file: line %d: %s", e.Line, e.Msg)
}

// Unwrap returns the YAML library's error, if any.
func (e *FileError) Unwrap() error { return e.Err }

var (
	yamlLineRE    = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)
	yamlUnknownRE = regexp.MustCompile(`^field (\S+) not found in type compendium\.(\w+)$`)
)

// goTypeNames says what the YAML library's Go type names mean.
var goTypeNames = strings.NewReplacer(
	"[]compendium.FileEntity", "a list of entities",
	"[]compendium.Merge", "a list of merges",
	"[]compendium.Rename", "a list of renames",
	"compendium.FileEntity", "an entity",
	"compendium.Merge", "a merge",
	"compendium.Rename", "a rename",
	"compendium.File", "a compendium file",
	"compendium.Kind", "a kind",
	"[]string", "a list of strings",
)

// yamlError turns the YAML library's error into FileErrors, one per
// problem, each with its line.
func yamlError(err error) error {
	var msgs []string
	var te *yaml.TypeError
	if errors.As(err, &te) {
		msgs = te.Errors
	} else {
		msgs = []string{err.Error()}
	}
	var errs []error
	for _, m := range msgs {
		fe := &FileError{Msg: strings.TrimPrefix(m, "yaml: "), Err: err}
		if sm := yamlLineRE.FindStringSubmatch(m); sm != nil {
			fe.Line, _ = strconv.Atoi(sm[1])
			fe.Msg = sm[2]
		}
		if sm := yamlUnknownRE.FindStringSubmatch(fe.Msg); sm != nil {
			where := map[string]string{"File": "at the top level (want entities, merge, rename, ban)",
				"FileEntity": "in an entity (want name, kind, aliases, note)",
				"Merge":      "in a merge (want into, names)", "Rename": "in a rename (want from, to)"}[sm[2]]
			fe.Msg = fmt.Sprintf("unknown key %q %s", sm[1], where)
		}
		fe.Msg = goTypeNames.Replace(fe.Msg)
		errs = append(errs, fe)
	}
	if len(errs) == 1 {
		return errs[0]
	}
	return errors.Join(errs...)
}

// File is a parsed compendium.yaml: the user's own edits, the highest
// authority in Build.
//
//	entities:                  # add an entity, or complete one found in the notes
//	  - name: Ciriela Vos
//	    kind: npc              # pc, npc, place, faction, god, item or other (optional)
//	    aliases: [la Dama Velada]
//	    note: NPCs/Ciriela Vos.md
//	merge:                     # these names are the same entity
//	  - into: Ciriela Vos
//	    names: [Dama Velada]
//	rename:                    # the canonical name changes; the old one becomes an alias
//	  - from: Lord Emeric
//	    to: Emeric Valcárcel
//	ban: [Sesión, Nochelarga]  # never an entity nor an alias
//
// Every section is optional. Names are compared normalised (Normalize), so
// "Cienaga de murgo" in the file is "Ciénaga de Murgo" in the notes.
type File struct {
	Entities []FileEntity `yaml:"entities"`
	Merge    []Merge      `yaml:"merge"`
	Rename   []Rename     `yaml:"rename"`
	Ban      []string     `yaml:"ban"`
}

// FileEntity is one entry of a File's entities section. Kind may be empty:
// the kind then comes from the notes (or is KindOther).
type FileEntity struct {
	Name    string   `yaml:"name"`
	Kind    Kind     `yaml:"kind"`
	Aliases []string `yaml:"aliases"`
	Note    string   `yaml:"note"`
}

// Merge says that the entities or names in Names are the entity Into.
type Merge struct {
	Into  string   `yaml:"into"`
	Names []string `yaml:"names"`
}

// Rename changes the canonical name of the entity called From (by name, or
// else by alias) to To; From stays as an alias.
type Rename struct {
	From string `yaml:"from"`
	To   string `yaml:"to"`
}

// ParseFile parses a compendium.yaml. Unknown keys, values of the wrong
// type, unknown kinds and empty names are errors; every error is a
// *FileError (or several joined with errors.Join) that names the line:
//
//	compendium file: line 4: unknown key "colour" in an entity (want name, kind, aliases, note)
//	compendium file: line 3: entities[0] ("Harbin"): unknown kind "villain" (want pc, npc, place, faction, god, item or other)
//
// An empty document is an empty File.
func ParseFile(data []byte) (*File, error) {
	var f File
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		if errors.Is(err, io.EOF) {
			return &File{}, nil
		}
		return nil, yamlError(err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, &FileError{Line: extra.Line, Msg: "more than one YAML document"}
	}
	// A second pass keeps the nodes, for the line numbers of the checks
	// below (the typed decode above has already rejected malformed input).
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, yamlError(err)
	}
	doc := &root
	if doc.Kind == yaml.DocumentNode && len(doc.Content) > 0 {
		doc = doc.Content[0]
	}
	line := func(path ...any) int { return nodeLine(doc, path...) }
	bad := func(l int, format string, args ...any) error {
		return &FileError{Line: l, Msg: fmt.Sprintf(format, args...)}
	}

	for i := range f.Entities {
		e := &f.Entities[i]
		e.Name = strings.TrimSpace(e.Name)
		if Normalize(e.Name) == "" {
			return nil, bad(line("entities", i), "entities[%d]: missing or empty name", i)
		}
		k, ok := parseKind(string(e.Kind))
		if !ok {
			return nil, bad(line("entities", i, "kind"), "entities[%d] (%q): unknown kind %q (want pc, npc, place, faction, god, item or other)", i, e.Name, e.Kind)
		}
		e.Kind = k
		for j, a := range e.Aliases {
			if Normalize(a) == "" {
				return nil, bad(line("entities", i, "aliases", j), "entities[%d] (%q): empty alias", i, e.Name)
			}
			e.Aliases[j] = strings.TrimSpace(a)
		}
		e.Note = strings.TrimSpace(e.Note)
	}
	for i := range f.Merge {
		m := &f.Merge[i]
		m.Into = strings.TrimSpace(m.Into)
		if Normalize(m.Into) == "" {
			return nil, bad(line("merge", i), "merge[%d]: missing or empty into", i)
		}
		if len(m.Names) == 0 {
			return nil, bad(line("merge", i), "merge[%d] (into %q): no names", i, m.Into)
		}
		for j, n := range m.Names {
			if Normalize(n) == "" {
				return nil, bad(line("merge", i, "names", j), "merge[%d] (into %q): empty name", i, m.Into)
			}
			m.Names[j] = strings.TrimSpace(n)
		}
	}
	for i := range f.Rename {
		r := &f.Rename[i]
		r.From, r.To = strings.TrimSpace(r.From), strings.TrimSpace(r.To)
		if Normalize(r.From) == "" {
			return nil, bad(line("rename", i), "rename[%d]: missing or empty from", i)
		}
		if Normalize(r.To) == "" {
			return nil, bad(line("rename", i), "rename[%d] (from %q): missing or empty to", i, r.From)
		}
	}
	for i, b := range f.Ban {
		if Normalize(b) == "" {
			return nil, bad(line("ban", i), "ban[%d]: empty name", i)
		}
		f.Ban[i] = strings.TrimSpace(b)
	}
	return &f, nil
}

// nodeLine follows path (mapping keys as strings, sequence indexes as ints)
// from n and returns the line of the deepest node reached.
func nodeLine(n *yaml.Node, path ...any) int {
	l := n.Line
	for _, p := range path {
		var next *yaml.Node
		switch p := p.(type) {
		case string:
			if n.Kind == yaml.MappingNode {
				for i := 0; i+1 < len(n.Content); i += 2 {
					if n.Content[i].Value == p {
						next = n.Content[i+1]
						if next.Kind == yaml.ScalarNode && next.Tag == "!!null" {
							next = n.Content[i] // "kind:" with no value: point at the key
						}
					}
				}
			}
		case int:
			if n.Kind == yaml.SequenceNode && p < len(n.Content) {
				next = n.Content[p]
			}
		}
		if next == nil {
			break
		}
		n, l = next, next.Line
	}
	return l
}

// parseKind accepts a kind name in any case; "" is allowed (unknown).
func parseKind(s string) (Kind, bool) {
	k := Kind(strings.ToLower(strings.TrimSpace(s)))
	switch k {
	case "", KindPC, KindNPC, KindPlace, KindFaction, KindGod, KindItem, KindOther:
		return k, true
	}
	return k, false
}
