package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/oraculo/oraculo/story"
)

const threadsDescription = `The threads the notes left open, the longest open and most mentioned first: unchecked tasks (- [ ]), quests without a resolution, and people, places or things that came up in two or more sessions but in none of the last few; each with the passage where it was introduced and where it was last mentioned.`

// ThreadsInput is the threads tool's input.
type ThreadsInput struct {
	Quiet int `json:"quiet,omitempty" jsonschema:"list the entities absent from the last this many sessions (default 5)"`
}

func (t *tools) threads(ctx context.Context, _ *mcp.CallToolRequest, in ThreadsInput) (*mcp.CallToolResult, story.Threads, error) {
	if in.Quiet < 0 {
		return nil, story.Threads{}, fmt.Errorf("quiet must be 1 or more, or absent for 5")
	}
	th, err := t.eng.Threads(ctx, in.Quiet)
	if err != nil {
		return nil, story.Threads{}, t.failure(ctx, "reading the threads", err)
	}
	return textResult(threadsText(th)), th, nil
}

// threadsText lists the threads, one a line.
func threadsText(th story.Threads) string {
	if len(th.Threads) == 0 {
		return "No open threads."
	}
	var b strings.Builder
	for _, x := range th.Threads {
		fmt.Fprintf(&b, "%s: %s — introduced [%s], last mentioned [%s]; open %d sessions, %d mentions.\n",
			x.Kind, x.Title, x.Introduced.Label, x.Last.Label, x.OpenSessions, x.Mentions)
	}
	return b.String()
}
