package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/oraculo/oraculo"
)

const compendiumDescription = `List the people, places, factions, gods and things the notes name (the compendium), with their aliases and where each is mentioned; or, given a name or alias, that one entity.`

// CompendiumInput is the compendium tool's input.
type CompendiumInput struct {
	Name string `json:"name,omitempty" jsonschema:"a name or alias to look up (case and accents do not matter); empty lists every entity"`
	Kind string `json:"kind,omitempty" jsonschema:"list only entities of this kind: pc, npc, place, faction, god, item or other"`
}

// CompendiumOutput is the compendium tool's result.
type CompendiumOutput struct {
	Entities []Entity `json:"entities" jsonschema:"the entities, in the compendium's order"`
}

// Entity is one entry of the compendium.
type Entity struct {
	Name     string   `json:"name" jsonschema:"the entity's name"`
	Kind     string   `json:"kind" jsonschema:"pc, npc, place, faction, god, item or other"`
	Aliases  []string `json:"aliases" jsonschema:"other names the notes use for it"`
	Note     string   `json:"note,omitempty" jsonschema:"the note that describes it (a file for read_note), when there is one"`
	Chunks   int      `json:"chunks" jsonschema:"how many chunks mention it"`
	Sessions []int    `json:"sessions" jsonschema:"the sessions that mention it"`
	Files    []string `json:"files" jsonschema:"the notes that mention it"`
}

func (t *tools) compendium(ctx context.Context, _ *mcp.CallToolRequest, in CompendiumInput) (*mcp.CallToolResult, CompendiumOutput, error) {
	var entries []oraculo.CompendiumEntry
	if name := strings.TrimSpace(in.Name); name != "" {
		e, ok, err := t.eng.FindEntity(ctx, name)
		if err != nil {
			return nil, CompendiumOutput{}, t.failure(ctx, "reading the compendium", err)
		}
		if !ok {
			return nil, CompendiumOutput{}, fmt.Errorf("entity %q %w", name, errNotFound)
		}
		entries = []oraculo.CompendiumEntry{e}
	} else {
		all, err := t.eng.Compendium(ctx)
		if err != nil {
			return nil, CompendiumOutput{}, t.failure(ctx, "reading the compendium", err)
		}
		entries = all
	}
	kind := strings.ToLower(strings.TrimSpace(in.Kind))
	out := CompendiumOutput{Entities: []Entity{}}
	for _, e := range entries {
		if kind != "" && e.Kind != kind {
			continue
		}
		out.Entities = append(out.Entities, Entity{
			Name: e.Name, Kind: e.Kind, Aliases: nonNil(e.Aliases), Note: e.Note,
			Chunks: e.Chunks, Sessions: nonNil(e.Sessions), Files: nonNil(e.Files),
		})
	}
	return textResult(compendiumText(out)), out, nil
}

// compendiumText is the compendium as a reader would want it: one entity
// a line.
func compendiumText(out CompendiumOutput) string {
	if len(out.Entities) == 0 {
		return "The compendium has no such entities."
	}
	var b strings.Builder
	for _, e := range out.Entities {
		fmt.Fprintf(&b, "%s (%s)", e.Name, e.Kind)
		if len(e.Aliases) > 0 {
			fmt.Fprintf(&b, ", also %s", strings.Join(e.Aliases, ", "))
		}
		if e.Note != "" {
			fmt.Fprintf(&b, "; its note: %s", e.Note)
		}
		fmt.Fprintf(&b, ". Mentioned in %d chunks", e.Chunks)
		if len(e.Sessions) > 0 {
			s := make([]string, len(e.Sessions))
			for i, n := range e.Sessions {
				s[i] = fmt.Sprint(n)
			}
			fmt.Fprintf(&b, ", sessions %s", strings.Join(s, ", "))
		}
		b.WriteString(".\n")
	}
	return b.String()
}
