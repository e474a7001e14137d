package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/oraculo/oraculo"
)

// A config file sets any command's flags, so that a setting need not be
// repeated on every command line: --config FILE, else $ORACULO_CONFIG,
// else oraculo.yaml beside the index. Its keys are flag names without the
// dashes; a key at the top applies to every command that has that flag,
// and a mapping under a command's name to that command only:
//
//	chat: ollama
//	chat-model: qwen2.5:7b
//	embedder: ollama
//	serve:
//	  addr: 0.0.0.0:8080
//	  cors: app://obsidian.md
//
// A flag given on the command line wins over the file. A value the flag
// refuses is an error naming the file and the key; a key that no flag of
// the command has is named in a warning and left out (the file serves
// every command).

// ConfigFileName is the config file looked for beside the index.
const ConfigFileName = "oraculo.yaml"

// configPath is the config file to read, and whether it was named (a named
// file that is missing is an error; oraculo.yaml beside the index may
// well not exist).
func configPath(fs *flag.FlagSet) (string, bool) {
	if f := fs.Lookup("config"); f != nil && f.Value.String() != "" {
		return f.Value.String(), true
	}
	if v := os.Getenv("ORACULO_CONFIG"); v != "" {
		return v, true
	}
	db := ""
	if f := fs.Lookup("db"); f != nil {
		db = f.Value.String()
	}
	return filepath.Join(filepath.Dir(oraculo.DBPath(db)), ConfigFileName), false
}

// applyConfig sets the flags of fs that the command line left unset from
// the config file; it returns the warnings to print.
func applyConfig(fs *flag.FlagSet) ([]string, error) {
	path, named := configPath(fs)
	data, err := os.ReadFile(path)
	if err != nil {
		if !named && errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		return nil, usageError{fmt.Errorf("config file %s: %w", path, err)}
	}
	var doc map[string]any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, usageError{fmt.Errorf("config file %s: %v", path, err)}
	}
	cmd := fs.Name()[strings.LastIndexByte(fs.Name(), ' ')+1:]
	values := map[string]any{}
	var warnings []string
	for k, v := range doc {
		if section, ok := v.(map[string]any); ok {
			if k == cmd {
				for sk, sv := range section {
					values[sk] = sv // the command's own section wins
				}
			}
			continue
		}
		if _, set := values[k]; !set {
			values[k] = v
		}
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	keys := make([]string, 0, len(values))
	for k := range values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		f := fs.Lookup(k)
		switch {
		case k == "as":
			// The role is decided before the flags are read: a file that
			// asked for a player's view must not quietly get the DM's.
			return nil, usageError{errors.New(msg("config-key-as", path))}
		case k == "ui-lang" || k == "config" || k == "db" && !named:
			warnings = append(warnings, msg("config-key-here", path, k))
		case f == nil:
			// A flag of another command is for that one; anything else is
			// a mistake worth naming.
			if !knownFlags[k] {
				warnings = append(warnings, msg("config-key-unknown", path, k))
			}
		case given[k]:
		default:
			if err := fs.Set(k, scalar(values[k])); err != nil {
				return nil, usageError{fmt.Errorf("config file %s: %s: %v", path, k, err)}
			}
		}
	}
	return warnings, nil
}

// scalar is a YAML value as a flag reads it: lists joined by commas.
func scalar(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case []any:
		parts := make([]string, len(x))
		for i, p := range x {
			parts[i] = fmt.Sprint(p)
		}
		return strings.Join(parts, ",")
	default:
		return fmt.Sprint(x)
	}
}

// knownFlags are the flags of every command (TestConfigKnownFlags keeps
// the list true): a config key outside it is a mistake.
var knownFlags = map[string]bool{}

func init() {
	for _, f := range strings.Fields(`addr annotate-workers answers as ask ask-timeout chat chat-model
		chat-first-token-timeout chat-idle-timeout chat-timeout chat-url compare config cors db diagnose embed-dims embed-model embed-url embedder
		explain extractive folder from golden obsidian-vault ingest-timeout json k kind lang max-file-mb max-words n no-wait
		overlap-words paths public-url questions quiet report rerank rerank-budget rerank-model
		rerank-shape rerank-url role secret-folders seed session tag timeout tokens ui-lang until-session`) {
		knownFlags[f] = true
	}
}
