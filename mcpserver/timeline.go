package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/story"
)

const timelineDescription = `The story of one person, place or thing in the notes, in session order: every session whose notes name it (by its name or any alias), each with the sentence that says most about it there and the passage it comes from (an id for read_chunk), its in-game date when the notes give one, and how many sessions it was absent before; its first and last session, its long absences (gaps), and the notes outside any session that name it. For "what happened to X?", "what role has X played?".`

// TimelineInput is the timeline tool's input.
type TimelineInput struct {
	Name string `json:"name" jsonschema:"the entity's name or an alias (case and accents do not matter)"`
}

func (t *tools) timeline(ctx context.Context, _ *mcp.CallToolRequest, in TimelineInput) (*mcp.CallToolResult, oraculo.Timeline, error) {
	name := strings.TrimSpace(in.Name)
	if name == "" {
		return nil, oraculo.Timeline{}, errors.New("name is required: the entity's name or an alias")
	}
	tl, err := t.eng.Timeline(ctx, name)
	var unknown *story.UnknownEntityError
	if errors.As(err, &unknown) {
		if len(unknown.Near) > 0 {
			return nil, oraculo.Timeline{}, fmt.Errorf("entity %q %w; did you mean %s?", name, errNotFound, strings.Join(unknown.Near, ", "))
		}
		return nil, oraculo.Timeline{}, fmt.Errorf("entity %q %w", name, errNotFound)
	}
	if err != nil {
		return nil, oraculo.Timeline{}, t.failure(ctx, "reading the timeline", err)
	}
	return textResult(timelineText(tl)), tl, nil
}

// timelineText is a timeline as a reader would want it: the entity, then
// one line a session, in order, with its citation's label and id, the
// absences, then the other notes.
func timelineText(tl oraculo.Timeline) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s)", tl.Name, tl.Kind)
	if tl.FirstSession == nil {
		b.WriteString(": no session names it.\n")
	} else {
		fmt.Fprintf(&b, ": %d sessions, from session %d to session %d.\n", len(tl.Sessions), *tl.FirstSession, *tl.LastSession)
	}
	for _, s := range tl.Sessions {
		if s.AbsentBefore >= story.GapSessions {
			fmt.Fprintf(&b, "(absent for %d sessions)\n", s.AbsentBefore)
		}
		fmt.Fprintf(&b, "Session %d", *s.Session)
		if s.Date != "" {
			fmt.Fprintf(&b, " (%s)", s.Date)
		}
		fmt.Fprintf(&b, ": %s [%s] (id %s)\n", s.Text, s.Label, s.ID)
	}
	for _, m := range tl.Notes {
		fmt.Fprintf(&b, "Note %s: %s [%s] (id %s)\n", m.File, m.Text, m.Label, m.ID)
	}
	return b.String()
}
