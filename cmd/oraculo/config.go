package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

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
// A flag given on the command line wins over the file, and the file over
// the flags' defaults. A key at the top that the command lacks is left for
// the commands that have it (the file serves every command); a key that
// no command has, a key under the command's name that it lacks, a value
// the flag refuses and a key set twice are errors naming the file, the
// line and the key, with the key meant when one is near. API keys are not
// read from the file (secretKeys).

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
// the config file; it returns the warnings to print. A mistake in the
// file (a key no command has, a value of the wrong kind, a key set twice)
// is an error naming the file, the line and the key.
func applyConfig(fs *flag.FlagSet) ([]string, error) {
	path, named := configPath(fs)
	data, err := os.ReadFile(path)
	if err != nil {
		if !named && errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		return nil, usageError{fmt.Errorf("config file %s: %w", path, err)}
	}
	settings, err := readConfig(path, data, commandWords(fs))
	if err != nil {
		return nil, usageError{err}
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var warnings []string
	for _, s := range settings {
		at := fmt.Sprintf("%s:%d", path, s.line)
		f := fs.Lookup(s.key)
		switch {
		case s.key == "as":
			// The role is decided before the flags are read: a file that
			// asked for a player's view must not quietly get the DM's.
			return nil, usageError{errors.New(msg("config-key-as", at))}
		case s.key == "ui-lang" || s.key == "config" || s.key == "db" && !named:
			warnings = append(warnings, msg("config-key-here", at, s.key))
		case f == nil:
			if !leftForOthers(fs, s) {
				return nil, usageError{unknownKey(fs, at, s)}
			}
		case given[s.key]:
		default:
			if err := fs.Set(s.key, s.value); err != nil {
				return nil, usageError{badValue(at, f, s.value, err)}
			}
		}
	}
	if w := exposedPassword(path, settings); w != "" {
		warnings = append(warnings, w)
	}
	return warnings, nil
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
