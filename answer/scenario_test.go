package answer

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/oraculo/oraculo/internal/golden"
)

// TestExtractiveScenarios runs testdata/extractive: passages of the notes
// handed over in rank order, then questions answered from them with the
// notes' own sentences, each answer written below its question with the
// evidence each label it cites names. `go test ./answer -run
// ExtractiveScenarios -update` rewrites the answers.
//
//	passage id=N label=(Sesión 12) file=(Campaña/Diario.md) [session=N] [headings=(a, b)] [annotation=(...)]
//	<the chunk's text>
//	----
//
//	ask lang=es|en [terms=es]
//	<the question>
//	----
//	<the answer, one line a sentence, or "no answer">
//	cites: [label] chunk N
//
//	reset
//	----
//
// terms=es reads words with the Spanish analyser (stems, stop words);
// without it, with the language's plain words. Every answer must verify
// cleanly and keep to the extractive answer's limits (checkExtractive).
func TestExtractiveScenarios(t *testing.T) {
	var cands []Candidate
	golden.Scenarios(t, "testdata/extractive", func(t *testing.T, d *datadriven.TestData) string {
		switch d.Cmd {
		case "passage":
			cands = append(cands, scenarioPassage(t, d))
			return ""
		case "reset":
			cands = nil
			return ""
		case "ask":
			var lang, terms string
			d.ScanArgs(t, "lang", &lang)
			d.MaybeScanArgs(t, "terms", &terms)
			var analyse func(string) []string
			if terms == "es" {
				analyse = spanishTerms(t)
			}
			ctx := Assemble(cands, AssembleOptions{})
			got, ok := Extractive(d.Input, ctx, analyse, lang)
			if !ok {
				if got != "" {
					t.Errorf("answer %q with ok false", got)
				}
				return "no answer\n"
			}
			checkExtractive(t, got, ctx)
			return got + "\n" + renderCites(Verify(got, ctx).Citations)
		}
		d.Fatalf(t, "unknown command %q (want passage, ask or reset)", d.Cmd)
		return ""
	})
}

// scenarioPassage reads a passage directive as the candidate it describes.
func scenarioPassage(t *testing.T, d *datadriven.TestData) Candidate {
	c := Candidate{Text: d.Input}
	d.ScanArgs(t, "id", &c.ID)
	c.Label = joinedArg(d, "label")
	c.File = joinedArg(d, "file")
	c.Annotation = joinedArg(d, "annotation")
	if d.HasArg("session") {
		d.ScanArgs(t, "session", &c.Session)
		c.InSession = true
	}
	if arg, ok := d.Arg("headings"); ok {
		c.Headings = arg.Vals
	}
	return c
}

// joinedArg is an argument's values joined back with the ", " the parser
// split them at, so that a label or an annotation may hold commas.
func joinedArg(d *datadriven.TestData, key string) string {
	arg, ok := d.Arg(key)
	if !ok {
		return ""
	}
	return strings.Join(arg.Vals, ", ")
}

// renderCites lists each cited label once, in order, with the id of the
// evidence it names.
func renderCites(cs []Citation) string {
	var b strings.Builder
	seen := map[string]bool{}
	for _, c := range cs {
		if seen[c.Label] {
			continue
		}
		seen[c.Label] = true
		id := "nothing delivered"
		if c.Evidence != nil {
			id = fmt.Sprintf("chunk %d", *c.Evidence)
		}
		fmt.Fprintf(&b, "cites: [%s] %s\n", c.Label, id)
	}
	return b.String()
}
