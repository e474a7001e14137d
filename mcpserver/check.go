package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/oraculo/oraculo/story"
)

const checkDescription = `Check the notes for continuity errors across sessions, as a game master does before a session: an entity said to die, leave or be destroyed and later shown acting, and two notes giving one entity different values of a front-matter field. Each pair cites both passages (ids for read_chunk) and carries a chat model's verdict (contradiction, consistent) when the server has a model, else "unjudged".`

// CheckInput is the check tool's input: none.
type CheckInput struct{}

// CheckOutput is the check tool's result.
type CheckOutput struct {
	Contradictions []story.Contradiction `json:"contradictions" jsonschema:"the pairs of statements that may contradict each other, by entity"`
	Warnings       []string              `json:"warnings,omitempty" jsonschema:"what went wrong judging the pairs (they stay unjudged)"`
}

func (t *tools) check(ctx context.Context, _ *mcp.CallToolRequest, _ CheckInput) (*mcp.CallToolResult, CheckOutput, error) {
	res, err := t.eng.Check(ctx)
	if err != nil {
		return nil, CheckOutput{}, t.failure(ctx, "checking the notes", err)
	}
	out := CheckOutput{Contradictions: nonNil(res.Contradictions), Warnings: res.Warnings}
	return textResult(checkText(out)), out, nil
}

// checkText is the pairs as a reader would want them: each with both
// statements and where they come from.
func checkText(out CheckOutput) string {
	if len(out.Contradictions) == 0 {
		return "No contradictions found in the notes."
	}
	var b strings.Builder
	for _, c := range out.Contradictions {
		what := "said to be gone, later acting"
		if c.Kind == story.KindField {
			what = fmt.Sprintf("two values of the field %q", c.Field)
		}
		fmt.Fprintf(&b, "%s: %s (%s)\n", c.Entity, what, c.Verdict)
		for _, m := range []story.Moment{c.First, c.Second} {
			fmt.Fprintf(&b, "  [%s] %s (id %s)\n", m.Label, m.Text, m.ID)
		}
		if c.Reason != "" {
			fmt.Fprintf(&b, "  %s\n", c.Reason)
		}
	}
	return b.String()
}
