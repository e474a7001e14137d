package mcpserver_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/mcpserver"
)

// addEntry calls memory_add and fails the test unless it made the entry.
func addEntry(t *testing.T, cs *mcp.ClientSession, args map[string]any) mcpserver.MemoryEntry {
	t.Helper()
	var e mcpserver.MemoryEntry
	if res := call(t, cs, "memory_add", args, &e); res.IsError || e.ID == "" || !strings.Contains(text(res), e.ID) {
		t.Fatalf("memory_add(%v): %+v %s", args, e, text(res))
	}
	return e
}

// listIDs calls memory_list and returns the ids it lists.
func listIDs(t *testing.T, cs *mcp.ClientSession, args map[string]any) []string {
	t.Helper()
	var out mcpserver.MemoryListOutput
	if res := call(t, cs, "memory_list", args, &out); res.IsError || out.Entries == nil {
		t.Fatalf("memory_list(%v): %s", args, text(res))
	}
	var ids []string
	for _, e := range out.Entries {
		ids = append(ids, e.ID)
	}
	return ids
}

// wantToolError calls tool and wants a tool error whose text has want.
func wantToolError(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any, want string) string {
	t.Helper()
	res := call(t, cs, tool, args, nil)
	if !res.IsError || !strings.Contains(text(res), want) {
		t.Errorf("%s(%v): error %v, %q; want an error saying %q", tool, args, res.IsError, text(res), want)
	}
	return text(res)
}

// TestMemoryTools adds, lists, shows, supersedes and forgets entries as
// the DM (no role in the context).
func TestMemoryTools(t *testing.T) {
	cs := connect(t, context.Background(), mcpserver.NewServer(newEngine(t), "test"))
	if ids := listIDs(t, cs, nil); len(ids) != 0 {
		t.Fatalf("a new index lists %v", ids)
	}
	rule := addEntry(t, cs, map[string]any{"scope": "campaign", "key": "críticos", "value": "doble daño", "verified": true})
	if rule.Status != "verified" || rule.Author != "dm" || !rule.Active || !strings.HasPrefix(rule.Source, "stated:dm:") {
		t.Errorf("memory_add: %+v", rule)
	}
	note := addEntry(t, cs, map[string]any{"scope": "session:1", "key": "capitán", "value": "Orsino", "note": "NPCs/Orsino.md"})
	if note.Status != "hypothesis" || !strings.HasPrefix(note.Source, "note:NPCs/Orsino.md@") {
		t.Errorf("memory_add from a note: %+v", note)
	}
	wantToolError(t, cs, "memory_add", map[string]any{"scope": "campaign", "key": "críticos", "value": "triple daño"}, "supersede")
	wantToolError(t, cs, "memory_add", map[string]any{"scope": "todos", "key": "k", "value": "v"}, `"todos"`)
	wantToolError(t, cs, "memory_add", map[string]any{"scope": "campaign", "key": "k", "value": "v", "note": "No/Existe.md"}, "No/Existe.md")
	wantToolError(t, cs, "memory_add", map[string]any{"scope": "campaign", "key": "k"}, "value")
	if ids := listIDs(t, cs, map[string]any{"scope": "campaign"}); !slices.Equal(ids, []string{rule.ID}) {
		t.Errorf("memory_list(campaign) = %v, want [%s]", ids, rule.ID)
	}

	// ask: the verified entry is evidence, cited by its label; the
	// hypothesis that concerns the question is unconfirmed, and said so.
	var ans mcpserver.AskOutput
	if res := call(t, cs, "ask", map[string]any{"question": "¿Qué daño hacen los críticos? ¿Quién es el capitán Orsino?"}, &ans); res.IsError {
		t.Fatalf("ask: %s", text(res))
	} else {
		uses := map[string]string{}
		for _, m := range ans.Memory {
			uses[m.ID] = m.Use
		}
		if uses[rule.ID] != "evidence" || uses[note.ID] != "unconfirmed" || !strings.Contains(text(res), "Memoria sin confirmar, no es una fuente") {
			t.Errorf("ask's memory %+v; want %s as evidence and %s unconfirmed\n%s", ans.Memory, rule.ID, note.ID, text(res))
		}
		var kind string
		for _, e := range ans.Evidence {
			if e.ID == rule.ID {
				kind = e.Kind
			}
		}
		if kind != "memory" {
			t.Errorf("ask's evidence %+v; want %s of kind memory", ans.Evidence, rule.ID)
		}
	}

	var next mcpserver.MemoryEntry
	res := call(t, cs, "memory_supersede", map[string]any{"id": rule.ID, "value": "daño máximo", "verified": true}, &next)
	if res.IsError || next.Supersedes != rule.ID || next.Key != rule.Key || next.Value != "daño máximo" || !next.Active {
		t.Fatalf("memory_supersede: %+v %s", next, text(res))
	}
	var chain mcpserver.MemoryChainOutput
	res = call(t, cs, "memory_show", map[string]any{"id": next.ID}, &chain)
	if res.IsError || len(chain.Chain) != 2 || chain.Chain[0].ID != next.ID || chain.Chain[1].ID != rule.ID || chain.Chain[1].Active {
		t.Fatalf("memory_show(%s): %+v %s", next.ID, chain, text(res))
	}
	if !strings.Contains(text(res), "doble daño") || !strings.Contains(text(res), "daño máximo") {
		t.Errorf("memory_show's text lacks the chain:\n%s", text(res))
	}
	if ids := listIDs(t, cs, map[string]any{"scope": "campaign"}); !slices.Equal(ids, []string{next.ID}) {
		t.Errorf("active campaign entries %v, want [%s]", ids, next.ID)
	}
	if ids := listIDs(t, cs, map[string]any{"scope": "campaign", "all": true}); len(ids) != 2 {
		t.Errorf("every campaign entry: %v", ids)
	}

	var verified mcpserver.MemoryEntry
	if res := call(t, cs, "memory_verify", map[string]any{"id": note.ID}, &verified); res.IsError || verified.Status != "verified" || verified.ID != note.ID {
		t.Errorf("memory_verify: %+v %s", verified, text(res))
	}

	var gone mcpserver.MemoryForgetOutput
	if res := call(t, cs, "memory_forget", map[string]any{"id": note.ID}, &gone); res.IsError || gone.Forgotten != note.ID {
		t.Fatalf("memory_forget: %+v %s", gone, text(res))
	}
	wantToolError(t, cs, "memory_show", map[string]any{"id": note.ID}, "no such entry")
	wantToolError(t, cs, "memory_forget", map[string]any{"id": note.ID}, "no such entry")
	if ids := listIDs(t, cs, map[string]any{"all": true}); slices.Contains(ids, note.ID) {
		t.Errorf("the forgotten %s is listed: %v", note.ID, ids)
	}
	wantToolError(t, cs, "memory_show", map[string]any{"id": " "}, "empty")
}

// TestMemoryToolsPlayers checks that the player in the call's context
// decides what memory they see and change: their own scope, verified
// campaign entries, never another player's nor a DM-only note's.
func TestMemoryToolsPlayers(t *testing.T) {
	srv := mcpserver.NewServer(newEngine(t), "test")
	dm := connect(t, oraculo.WithRole(context.Background(), oraculo.RoleDM), srv)
	ana := connect(t, oraculo.WithPlayer(context.Background(), "ana"), srv)
	bruno := connect(t, oraculo.WithPlayer(context.Background(), "bruno"), srv)

	open := addEntry(t, dm, map[string]any{"scope": "campaign", "key": "faro", "value": "lo apagaron a propósito", "verified": true})
	hypo := addEntry(t, dm, map[string]any{"scope": "campaign", "key": "Brisa", "value": "trabaja para la cofradía"})
	secret := addEntry(t, dm, map[string]any{"scope": "campaign", "key": "Zoltan", "value": "financia a los contrabandistas", "note": "DM/Secretos.md", "verified": true})
	mine := addEntry(t, ana, map[string]any{"scope": "player:ana", "key": "sospecha", "value": "Orsino miente"})
	if mine.Author != "ana" || mine.Status != "hypothesis" {
		t.Errorf("ana's entry: %+v", mine)
	}

	wantToolError(t, ana, "memory_add", map[string]any{"scope": "campaign", "key": "k", "value": "v"}, "not allowed")
	wantToolError(t, ana, "memory_add", map[string]any{"scope": "player:ana", "key": "k", "value": "v", "verified": true}, "not allowed")
	wantToolError(t, ana, "memory_verify", map[string]any{"id": mine.ID}, "not allowed")
	wantToolError(t, ana, "memory_supersede", map[string]any{"id": open.ID, "value": "no"}, "not allowed")
	wantToolError(t, ana, "memory_forget", map[string]any{"id": open.ID}, "not allowed")

	if ids := listIDs(t, ana, nil); !slices.Equal(sorted(ids), sorted([]string{open.ID, mine.ID})) {
		t.Errorf("ana lists %v, want %s and %s", ids, open.ID, mine.ID)
	}
	if ids := listIDs(t, bruno, map[string]any{"all": true}); !slices.Equal(ids, []string{open.ID}) {
		t.Errorf("bruno lists %v, want [%s]", ids, open.ID)
	}
	missing := wantToolError(t, bruno, "memory_show", map[string]any{"id": "m999"}, "no such entry")
	for _, id := range []string{mine.ID, hypo.ID, secret.ID} {
		msg := wantToolError(t, bruno, "memory_show", map[string]any{"id": id}, "no such entry")
		if strings.ReplaceAll(msg, id, "m999") != missing {
			t.Errorf("bruno's memory_show(%s) %q; a missing id %q", id, msg, missing)
		}
		wantToolError(t, bruno, "memory_forget", map[string]any{"id": id}, "no such entry")
		wantToolError(t, bruno, "memory_supersede", map[string]any{"id": id, "value": "v"}, "no such entry")
	}
	var chain mcpserver.MemoryChainOutput
	if res := call(t, ana, "memory_show", map[string]any{"id": mine.ID}, &chain); res.IsError || len(chain.Chain) != 1 {
		t.Errorf("ana's memory_show of her entry: %s", text(res))
	}
	var gone mcpserver.MemoryForgetOutput
	if res := call(t, ana, "memory_forget", map[string]any{"id": mine.ID}, &gone); res.IsError || gone.Forgotten != mine.ID {
		t.Errorf("ana forgetting her entry: %s", text(res))
	}
}
