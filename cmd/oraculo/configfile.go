package main

import (
	"flag"
	"fmt"
	"net/url"
	"os"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/oraculo/oraculo/text"
)

// configSetting is one key of a config file as it applies to the command
// that runs: its value as a flag reads it, and where it was written.
type configSetting struct {
	key, value string
	line       int
	section    string // the command it was written under; "" at the top
}

// readConfig reads a config file's settings for the command named by
// words ("token", "add"): the top-level keys, overridden by those under
// the command's name, overridden by those under its verb's. Sections of
// other commands are left for them. A file that is not a mapping, a
// section no command has, a key written twice in one mapping or a value
// that is itself a mapping is an error naming the file and the line.
func readConfig(path string, data []byte, words []string) ([]configSetting, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		// The parser's line is where it noticed, which may be the line
		// after the mistake: said as the parser's, not as the key's.
		return nil, fmt.Errorf("%s: %s", path, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if len(doc.Content) == 0 {
		return nil, nil // an empty file, or only comments
	}
	top := resolved(doc.Content[0])
	if top.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s", msg("config-not-mapping", fmt.Sprintf("%s:%d", path, top.Line)))
	}
	byKey := map[string]configSetting{}
	rank := map[string]int{}
	set := func(k, v *yaml.Node, section string, r int) error {
		value, err := flagValue(path, k, v)
		if err != nil {
			return err
		}
		if old, ok := rank[k.Value]; !ok || r >= old {
			byKey[k.Value] = configSetting{key: k.Value, value: value, line: k.Line, section: section}
			rank[k.Value] = r
		}
		return nil
	}
	err := eachPair(path, top, func(k, v *yaml.Node) error {
		if v.Kind != yaml.MappingNode {
			return set(k, v, "", 0)
		}
		if !sectionNames[k.Value] {
			if knownFlags[k.Value] {
				return fmt.Errorf("%s", msg("config-bad-kind", fmt.Sprintf("%s:%d", path, k.Line), k.Value))
			}
			return unknownSection(fmt.Sprintf("%s:%d", path, k.Line), k.Value)
		}
		r := slices.Index(words, k.Value) + 1
		if r == 0 {
			return nil // another command's
		}
		return eachPair(path, v, func(sk, sv *yaml.Node) error { return set(sk, sv, k.Value, r) })
	})
	if err != nil {
		return nil, err
	}
	settings := make([]configSetting, 0, len(byKey))
	for _, s := range byKey {
		settings = append(settings, s)
	}
	sort.Slice(settings, func(i, j int) bool { return settings[i].line < settings[j].line })
	return settings, nil
}

// eachPair calls fn with each key and value of mapping m (aliases
// resolved), failing on a key written twice.
func eachPair(path string, m *yaml.Node, fn func(k, v *yaml.Node) error) error {
	seen := map[string]int{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], resolved(m.Content[i+1])
		if first, ok := seen[k.Value]; ok {
			return fmt.Errorf("%s", msg("config-key-twice", fmt.Sprintf("%s:%d", path, k.Line), k.Value, first))
		}
		seen[k.Value] = k.Line
		if err := fn(k, v); err != nil {
			return err
		}
	}
	return nil
}

// resolved is n, or what it is an alias of.
func resolved(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

// flagValue is a YAML value as a flag reads it: a scalar as written, a
// list of scalars joined by commas, nothing as "".
func flagValue(path string, k, v *yaml.Node) (string, error) {
	switch v.Kind {
	case yaml.ScalarNode:
		if v.Tag == "!!null" {
			return "", nil
		}
		return v.Value, nil
	case yaml.SequenceNode:
		parts := make([]string, len(v.Content))
		for i, p := range v.Content {
			if p = resolved(p); p.Kind != yaml.ScalarNode {
				return "", fmt.Errorf("%s", msg("config-bad-kind", fmt.Sprintf("%s:%d", path, p.Line), k.Value))
			}
			parts[i] = p.Value
		}
		return strings.Join(parts, ","), nil
	}
	return "", fmt.Errorf("%s", msg("config-bad-kind", fmt.Sprintf("%s:%d", path, k.Line), k.Value))
}

// commandWords are the sections of a config file that the command fs is
// for reads, the most specific last: "serve"; "token", "add"; or
// "serve", "health" for a command that borrows serve's.
func commandWords(fs *flag.FlagSet) []string {
	words := strings.Fields(strings.TrimPrefix(fs.Name(), "oraculo "))
	if b, ok := borrowedSections[words[len(words)-1]]; ok {
		words = append([]string{b}, words...)
	}
	return words
}

// borrowedSections are the commands that read another's section of a
// config file as well as their own, taking from it the keys they have.
var borrowedSections = map[string]string{}

// leftForOthers reports whether a setting that the command fs is for
// lacks belongs to other commands (a key at the top that some command
// has, or one in a section borrowed) rather than being a mistake.
func leftForOthers(fs *flag.FlagSet, s configSetting) bool {
	if s.section == "" {
		return knownFlags[s.key]
	}
	words := commandWords(fs)
	return s.section == borrowedSections[words[len(words)-1]]
}

// unknownKey is the error for a setting that the command running does
// not have, with the key meant when one is near, and where API keys go
// when it looks like one.
func unknownKey(fs *flag.FlagSet, at string, s configSetting) error {
	if env, ok := secretKeys[s.key]; ok {
		return fmt.Errorf("%s", msg("config-secret", at, s.key, env))
	}
	var e string
	var names []string
	if s.section != "" {
		e = msg("config-key-not-of", at, s.key, s.section)
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	} else {
		e = msg("config-key-unknown", at, s.key)
		for k := range knownFlags {
			names = append(names, k)
		}
	}
	if near := nearestKey(names, s.key); near != "" {
		e += "; " + msg("did-you-mean", strconv.Quote(near))
	}
	return fmt.Errorf("%s", e)
}

// unknownSection is the error for a mapping under a key that no command
// is called, with the command meant when one is near.
func unknownSection(at, name string) error {
	e := msg("config-section-unknown", at, name)
	names := make([]string, 0, len(sectionNames))
	for n := range sectionNames {
		names = append(names, n)
	}
	if near := nearestKey(names, name); near != "" {
		e += "; " + msg("did-you-mean", strconv.Quote(near))
	}
	return fmt.Errorf("%s", e)
}

// nearestKey is the name closest to key (edit distance at most a third of
// the name's length, at least 1; two letters swapped count as one), or "".
func nearestKey(names []string, key string) string {
	sort.Strings(names)
	best, bestD := "", 0
	for _, n := range names {
		d := text.Distance(key, n)
		if swapped(key, n) {
			d = 1
		}
		if d <= max(1, len(n)/3) && (best == "" || d < bestD) {
			best, bestD = n, d
		}
	}
	return best
}

// swapped reports whether a is b with two neighbouring letters swapped.
func swapped(a, b string) bool {
	ra, rb := []rune(a), []rune(b)
	if len(ra) != len(rb) {
		return false
	}
	i := 0
	for i < len(ra) && ra[i] == rb[i] {
		i++
	}
	return i+1 < len(ra) && ra[i] == rb[i+1] && ra[i+1] == rb[i] && string(ra[i+2:]) == string(rb[i+2:])
}

// badValue is the error for a value that flag f refused, saying what the
// flag takes.
func badValue(at string, f *flag.Flag, value string, err error) error {
	kinds := map[string]string{"": "config-kind-bool", "int": "config-kind-int", "float": "config-kind-float", "duration": "config-kind-duration"}
	if kind, ok := kinds[valueKindOf(f)]; ok {
		return fmt.Errorf("%s", msg("config-bad-value", at, f.Name, value, msg(kind)))
	}
	return fmt.Errorf("%s", msg("config-bad-value-why", at, f.Name, value, err))
}

// valueKindOf is the flag package's name for the kind of f's value: ""
// for a boolean flag.
func valueKindOf(f *flag.Flag) string {
	kind, _ := flag.UnquoteUsage(f)
	return kind
}

// exposedPassword is a warning when a file that every user of the
// machine may read holds a password in a URL, else "". (API keys are
// never read from the file: see secretKeys.)
func exposedPassword(path string, settings []configSetting) string {
	if runtime.GOOS == "windows" {
		return "" // no mode bits to look at
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm()&0o004 == 0 {
		return ""
	}
	for _, s := range settings {
		u, err := url.Parse(s.value)
		if err != nil || u.User == nil {
			continue
		}
		if _, ok := u.User.Password(); ok {
			return msg("config-world-readable", fmt.Sprintf("%s:%d", path, s.line), s.key, path)
		}
	}
	return ""
}

// secretKeys are keys one might write for an API key, and the variable
// that holds it instead: a secret belongs in the service's environment
// (systemd's EnvironmentFile, compose's env_file), not in a file that is
// easily shared or committed.
var secretKeys = map[string]string{
	"api-key": "ORACULO_CHAT_KEY", "openai-api-key": "OPENAI_API_KEY", "chat-key": "ORACULO_CHAT_KEY",
	"embed-key": "ORACULO_EMBED_KEY", "rerank-key": "ORACULO_RERANK_KEY", "weaviate-key": "ORACULO_WEAVIATE_KEY",
}

// sectionNames are the names a config file's sections may have: the
// commands and their verbs.
var sectionNames = map[string]bool{}

func init() {
	for _, c := range commands {
		sectionNames[c.name] = true
		if c.alias != "" {
			sectionNames[c.alias] = true
		}
		for _, v := range c.verbs {
			words := strings.Fields(v.name)
			sectionNames[words[len(words)-1]] = true
		}
	}
	for id, texts := range map[string][2]string{
		"config-not-mapping":     {"%s: a config file is a mapping of options to values, e.g. addr: 127.0.0.1:8080", "%s: un archivo de configuración asigna valores a opciones, p. ej. addr: 127.0.0.1:8080"},
		"config-key-twice":       {"%s: %q is set twice (first at line %d)", "%s: «%s» está dos veces (la primera en la línea %d)"},
		"config-bad-kind":        {"%s: %s: give one value or a list, not a mapping", "%s: %s: da un valor o una lista, no un mapa"},
		"config-section-unknown": {"%s: %q is no command, so it cannot have options under it", "%s: «%s» no es ninguna orden: no puede llevar opciones debajo"},
		"config-key-not-of":      {"%s: %q is no option of %s", "%s: «%s» no es una opción de %s"},
		"config-bad-value":       {"%s: %s: %q is not %s", "%s: %s: «%s» no es %s"},
		"config-kind-bool":       {"true or false", "true o false"},
		"config-kind-int":        {"a whole number", "un número entero"},
		"config-kind-float":      {"a number", "un número"},
		"config-kind-duration":   {"a duration such as 30s, 2m or 1h", "una duración como 30s, 2m o 1h"},
		"config-bad-value-why":   {"%s: %s: %q: %v", "%s: %s: «%s»: %v"},
		"config-secret":          {"%s: %q: API keys are not read from a config file (it is easily shared or committed): set $%s in the environment the service runs in", "%s: «%s»: las claves de API no se leen de un archivo de configuración (se comparte o se sube con facilidad): fija $%s en el entorno del servicio"},
		"config-world-readable":  {"%s: %s holds a password and every user of this machine may read the file: chmod 600 %s", "%s: %s lleva una contraseña y cualquier usuario de esta máquina puede leer el archivo: chmod 600 %s"},
	} {
		catalog[id] = texts
	}
}
