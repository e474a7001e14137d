package main

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/oraculo/oraculo"
)

// langCounts says how many notes are in each language, the most first:
// "70 en, 4 es". Notes of no known language count as "?".
func langCounts(langs map[string]int) string {
	keys := slices.SortedFunc(maps.Keys(langs), func(a, b string) int {
		return cmp.Or(cmp.Compare(langs[b], langs[a]), cmp.Compare(a, b))
	})
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		if langs[k] == 0 {
			continue
		}
		name := k
		if name == "" {
			name = "?"
		}
		parts = append(parts, fmt.Sprintf("%d %s", langs[k], name))
	}
	return strings.Join(parts, ", ")
}

// langSetting is the language setting with the notes found in each
// language, when the index holds any: "auto (notes: 70 en, 4 es)".
func langSetting(setting string, langs map[string]int) string {
	if c := langCounts(langs); c != "" {
		return msg("lang-notes", setting, c)
	}
	return setting
}

// langDoctor is doctor's line on the notes' languages.
func langDoctor(setting string, langs map[string]int) string {
	if setting == oraculo.LangAuto {
		return msg("doctor-langs-auto", langCounts(langs))
	}
	return msg("doctor-langs-forced", setting, langCounts(langs))
}
