package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/oraculo/oraculo/story"
)

const recapDescription = `A session's recap: what happened in it, in order (its most salient sentences, as the notes word them, never an attendance list or a remark about the table), and what it left open (unchecked tasks, unanswered questions, a cliffhanger); each sentence with the passage it comes from (its id for read_chunk). Without a session, the last one.`

// RecapInput is the recap tool's input.
type RecapInput struct {
	Session int `json:"session,omitempty" jsonschema:"the session's number; 0 or absent for the last session"`
}

func (t *tools) recap(ctx context.Context, _ *mcp.CallToolRequest, in RecapInput) (*mcp.CallToolResult, story.Recap, error) {
	if in.Session < 0 {
		return nil, story.Recap{}, fmt.Errorf("session must be 1 or more, or absent for the last one")
	}
	r, err := t.eng.Recap(ctx, in.Session)
	if errors.Is(err, story.ErrNoSession) {
		return nil, story.Recap{}, fmt.Errorf("session %d %w", in.Session, errNotFound)
	}
	if err != nil {
		return nil, story.Recap{}, t.failure(ctx, "reading the session", err)
	}
	return textResult(recapText(r)), r, nil
}

// recapText is the recap as a reader would want it: the events numbered,
// each with its passage's label.
func recapText(r story.Recap) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Session %d", r.Session)
	if r.Date != "" {
		fmt.Fprintf(&b, " (%s)", r.Date)
	}
	b.WriteString(", what happened:\n")
	for i, e := range r.Events {
		fmt.Fprintf(&b, "%d. %s [%s]\n", i+1, e.Text, e.Label)
	}
	if len(r.Open) > 0 {
		b.WriteString("Left open:\n")
		for _, o := range r.Open {
			fmt.Fprintf(&b, "- %s [%s]\n", o.Text, o.Label)
		}
	}
	return b.String()
}
