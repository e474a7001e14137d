package compendium

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/oraculo/oraculo/internal/golden"
)

// TestMatcherScenarios runs testdata/find: a compendium's entities, then
// texts whose mentions the matcher finds, each written below its text
// with the entity it names. `go test ./compendium -run MatcherScenarios
// -update` rewrites them.
//
//	entities
//	Name | alias | alias
//	----
//	N entities
//
//	find
//	<a text>
//	----
//	"surface" → Name [(fuzzy)]
func TestMatcherScenarios(t *testing.T) {
	var ents []Entity
	var m *Matcher
	golden.Scenarios(t, "testdata/find", func(t *testing.T, d *datadriven.TestData) string {
		switch d.Cmd {
		case "entities":
			ents = parseEntities(d.Input)
			m = NewMatcher(ents)
			return fmt.Sprintf("%d entities\n", len(ents))
		case "find":
			if m == nil {
				d.Fatalf(t, "find before entities")
			}
			return renderMentions(t, d.Input, ents, m.Find(d.Input))
		}
		d.Fatalf(t, "unknown command %q (want entities or find)", d.Cmd)
		return ""
	})
}

// parseEntities reads one entity a line: its name, then its aliases, each
// after a "|".
func parseEntities(in string) []Entity {
	var ents []Entity
	for line := range strings.Lines(in) {
		fields := strings.Split(strings.TrimSpace(line), "|")
		for i := range fields {
			fields[i] = strings.TrimSpace(fields[i])
		}
		e := Entity{Name: fields[0]}
		if len(fields) > 1 {
			e.Aliases = fields[1:]
		}
		ents = append(ents, e)
	}
	return ents
}

// renderMentions prints each mention as the text spells it and the entity
// it names, checking that it spells what its offsets cover.
func renderMentions(t *testing.T, text string, ents []Entity, ms []Mention) string {
	if len(ms) == 0 {
		return "no mentions\n"
	}
	var b strings.Builder
	for _, x := range ms {
		if x.Surface != text[x.Start:x.End] {
			t.Errorf("surface %q != text[%d:%d] %q", x.Surface, x.Start, x.End, text[x.Start:x.End])
		}
		fmt.Fprintf(&b, "%q → %s", x.Surface, ents[x.Entity].Name)
		if x.Fuzzy {
			b.WriteString(" (fuzzy)")
		}
		b.WriteString("\n")
	}
	return b.String()
}
