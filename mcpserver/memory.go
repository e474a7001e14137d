package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/oraculo/oraculo"
)

// The memory tools read and change long-term memory through the engine,
// with the call's context: the caller's role and player name decide what
// they see and may change, as everywhere else.

const (
	memoryListDescription      = `List long-term memory: what the table has settled or suspects (house rules, confirmed retcons, who plays whom), each entry a value for a key in a scope (campaign, dm, player:NAME or session:N) with its source, status (hypothesis or verified) and id. Only the active entries unless "all". A player sees their own player:NAME entries and the verified entries of the campaign and of the sessions they may see.`
	memoryShowDescription      = `Show one memory entry by id, with the entries it replaced (newest first).`
	memoryAddDescription       = `Add a memory entry, only when the user asks for it: a value for a key in a scope. It is a hypothesis unless "verified" (only the DM may add verified entries, and only when they say the matter is settled). A player may add only in their own scope, player:NAME. "note" names the note it comes from (a hit's "file"); without it, the entry is what the user states today. A key that already has an active value is a conflict: use memory_supersede.`
	memoryVerifyDescription    = `Mark a memory entry verified (the DM only), when the DM confirms it. An entry from a note is checked against the note as stored now.`
	memorySupersedeDescription = `Replace a memory entry's value with a new one, keeping the old entry in the history (memory_show). A hypothesis unless "verified" (the DM only); a player may supersede only their own entries.`
	memoryForgetDescription    = `Delete a memory entry for good, only when the user asks for it (a player only their own). Prefer memory_supersede to correct a value: it keeps the history.`
)

// MemoryListInput is the memory_list tool's input.
type MemoryListInput struct {
	Scope string `json:"scope,omitempty" jsonschema:"only this scope: campaign, dm, player:NAME or session:N; empty lists every scope the caller may see"`
	All   bool   `json:"all,omitempty" jsonschema:"also the entries that were superseded"`
}

// MemoryIDInput is the input of the tools that take an entry's id
// (memory_show, memory_verify, memory_forget).
type MemoryIDInput struct {
	ID string `json:"id" jsonschema:"the entry's id, such as m12 (from memory_list)"`
}

// MemoryAddInput is the memory_add tool's input.
type MemoryAddInput struct {
	Scope    string `json:"scope" jsonschema:"campaign, dm (the DM's own), player:NAME or session:N"`
	Key      string `json:"key" jsonschema:"what the entry is about, short: house rule: critical hits, Leoric's player"`
	Value    string `json:"value" jsonschema:"what is settled or suspected about it"`
	Note     string `json:"note,omitempty" jsonschema:"the path of the note it comes from (a hit's or an evidence's file); empty: the user states it"`
	Chunk    string `json:"chunk,omitempty" jsonschema:"the id of the chunk it comes from (a hit's or an evidence's id): its note is the source"`
	Verified bool   `json:"verified,omitempty" jsonschema:"settled (the DM only); otherwise a hypothesis"`
}

// MemorySupersedeInput is the memory_supersede tool's input.
type MemorySupersedeInput struct {
	ID       string `json:"id" jsonschema:"the active entry to replace"`
	Value    string `json:"value" jsonschema:"the new value"`
	Note     string `json:"note,omitempty" jsonschema:"the path of the note the new value comes from; empty: the user states it"`
	Chunk    string `json:"chunk,omitempty" jsonschema:"the id of the chunk the new value comes from"`
	Verified bool   `json:"verified,omitempty" jsonschema:"settled (the DM only); otherwise a hypothesis"`
}

// MemoryEntry is one entry of long-term memory.
type MemoryEntry struct {
	ID         string `json:"id" jsonschema:"the entry's id"`
	Scope      string `json:"scope" jsonschema:"campaign, dm, player:NAME or session:N"`
	Key        string `json:"key" jsonschema:"what it is about"`
	Value      string `json:"value" jsonschema:"its value"`
	Source     string `json:"source" jsonschema:"note:PATH@SHA256 (a note at the version it was taken from) or stated:ROLE:NAME@DATE"`
	Status     string `json:"status" jsonschema:"hypothesis or verified"`
	Supersedes string `json:"supersedes" jsonschema:"the id of the entry it replaced, or empty"`
	Created    string `json:"created" jsonschema:"when it was made (RFC 3339, UTC)"`
	Author     string `json:"author" jsonschema:"who made it"`
	Active     bool   `json:"active" jsonschema:"false once superseded"`
	Stale      bool   `json:"stale" jsonschema:"its note changed since (or is gone): not to be relied on until verified again"`
}

// MemoryListOutput is the memory_list tool's result.
type MemoryListOutput struct {
	Entries []MemoryEntry `json:"entries" jsonschema:"the entries, by scope and key"`
}

// MemoryChainOutput is the memory_show tool's result.
type MemoryChainOutput struct {
	Chain []MemoryEntry `json:"chain" jsonschema:"the entry, then those it replaced, newest first"`
}

// MemoryForgetOutput is the memory_forget tool's result.
type MemoryForgetOutput struct {
	Forgotten string `json:"forgotten" jsonschema:"the id of the deleted entry"`
}

// writes marks a tool as one that changes memory (and nothing beyond the
// index): destructive when it deletes.
func writes(t *mcp.Tool, destructive, idempotent bool) *mcp.Tool {
	closed := false
	t.Annotations = &mcp.ToolAnnotations{Title: t.Title, DestructiveHint: &destructive, IdempotentHint: idempotent, OpenWorldHint: &closed}
	return t
}

func addMemoryTools(srv *mcp.Server, t *tools) {
	mcp.AddTool(srv, readOnly(&mcp.Tool{Name: "memory_list", Title: "List memory", Description: memoryListDescription}), t.memoryList)
	mcp.AddTool(srv, readOnly(&mcp.Tool{Name: "memory_show", Title: "Show a memory entry", Description: memoryShowDescription}), t.memoryShow)
	mcp.AddTool(srv, writes(&mcp.Tool{Name: "memory_add", Title: "Add to memory", Description: memoryAddDescription}, false, false), t.memoryAdd)
	mcp.AddTool(srv, writes(&mcp.Tool{Name: "memory_verify", Title: "Verify a memory entry", Description: memoryVerifyDescription}, false, true), t.memoryVerify)
	mcp.AddTool(srv, writes(&mcp.Tool{Name: "memory_supersede", Title: "Supersede a memory entry", Description: memorySupersedeDescription}, false, false), t.memorySupersede)
	mcp.AddTool(srv, writes(&mcp.Tool{Name: "memory_forget", Title: "Forget a memory entry", Description: memoryForgetDescription}, true, true), t.memoryForget)
}

func (t *tools) memoryList(ctx context.Context, _ *mcp.CallToolRequest, in MemoryListInput) (*mcp.CallToolResult, MemoryListOutput, error) {
	ms, err := t.eng.Memories(ctx, strings.TrimSpace(in.Scope), in.All)
	if err != nil {
		return nil, MemoryListOutput{}, t.memoryFailure(ctx, "listing memory", "", err)
	}
	out := MemoryListOutput{Entries: entries(ms)}
	if len(out.Entries) == 0 {
		return textResult("No memory entries."), out, nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d memory entries:\n", len(out.Entries))
	for _, e := range out.Entries {
		b.WriteString(entryText(e))
	}
	return textResult(b.String()), out, nil
}

func (t *tools) memoryShow(ctx context.Context, _ *mcp.CallToolRequest, in MemoryIDInput) (*mcp.CallToolResult, MemoryChainOutput, error) {
	id := strings.TrimSpace(in.ID)
	if id == "" {
		return nil, MemoryChainOutput{}, errors.New("the id is empty")
	}
	chain, err := t.eng.MemoryChain(ctx, id)
	if err != nil {
		return nil, MemoryChainOutput{}, t.memoryFailure(ctx, "reading memory", id, err)
	}
	out := MemoryChainOutput{Chain: entries(chain)}
	var b strings.Builder
	for i, e := range out.Chain {
		if i == 1 {
			b.WriteString("It replaced, newest first:\n")
		}
		b.WriteString(entryText(e))
	}
	return textResult(b.String()), out, nil
}

func (t *tools) memoryAdd(ctx context.Context, _ *mcp.CallToolRequest, in MemoryAddInput) (*mcp.CallToolResult, MemoryEntry, error) {
	m, err := t.eng.AddMemory(ctx, oraculo.MemoryInput{Scope: strings.TrimSpace(in.Scope), Key: in.Key, Value: in.Value, Note: strings.TrimSpace(in.Note), Chunk: strings.TrimSpace(in.Chunk), Verified: in.Verified})
	if err != nil {
		return nil, MemoryEntry{}, t.memoryFailure(ctx, "adding to memory", "", err)
	}
	e := entry(m)
	return textResult("Added:\n" + entryText(e)), e, nil
}

func (t *tools) memoryVerify(ctx context.Context, _ *mcp.CallToolRequest, in MemoryIDInput) (*mcp.CallToolResult, MemoryEntry, error) {
	id := strings.TrimSpace(in.ID)
	if id == "" {
		return nil, MemoryEntry{}, errors.New("the id is empty")
	}
	m, err := t.eng.VerifyMemory(ctx, id)
	if err != nil {
		return nil, MemoryEntry{}, t.memoryFailure(ctx, "verifying memory", id, err)
	}
	e := entry(m)
	return textResult("Verified:\n" + entryText(e)), e, nil
}

func (t *tools) memorySupersede(ctx context.Context, _ *mcp.CallToolRequest, in MemorySupersedeInput) (*mcp.CallToolResult, MemoryEntry, error) {
	id := strings.TrimSpace(in.ID)
	if id == "" {
		return nil, MemoryEntry{}, errors.New("the id is empty")
	}
	m, err := t.eng.SupersedeMemory(ctx, id, oraculo.MemoryInput{Value: in.Value, Note: strings.TrimSpace(in.Note), Chunk: strings.TrimSpace(in.Chunk), Verified: in.Verified})
	if err != nil {
		return nil, MemoryEntry{}, t.memoryFailure(ctx, "superseding memory", id, err)
	}
	e := entry(m)
	return textResult(fmt.Sprintf("Superseded %s with:\n%s", id, entryText(e))), e, nil
}

func (t *tools) memoryForget(ctx context.Context, _ *mcp.CallToolRequest, in MemoryIDInput) (*mcp.CallToolResult, MemoryForgetOutput, error) {
	id := strings.TrimSpace(in.ID)
	if id == "" {
		return nil, MemoryForgetOutput{}, errors.New("the id is empty")
	}
	if err := t.eng.ForgetMemory(ctx, id); err != nil {
		return nil, MemoryForgetOutput{}, t.memoryFailure(ctx, "forgetting memory", id, err)
	}
	return textResult(fmt.Sprintf("Forgot memory entry %s.", id)), MemoryForgetOutput{Forgotten: id}, nil
}

// memoryFailure turns a memory operation's error into a tool error: an
// entry the caller may not see reads as a missing one; what the caller
// got wrong (a scope, key, value or note; a change they may not make; a
// conflict with the entries in force) is said as the engine says it;
// anything else is [tools.failure]'s.
func (t *tools) memoryFailure(ctx context.Context, what, id string, err error) error {
	switch {
	case errors.Is(err, oraculo.ErrNoMemory):
		return fmt.Errorf("memory entry %q not found: there is no such entry", id)
	case errors.Is(err, oraculo.ErrMemoryForbidden):
		return fmt.Errorf("%s is not allowed: %w", what, err)
	case errors.Is(err, oraculo.ErrInvalidMemory), errors.Is(err, oraculo.ErrMemoryConflict):
		return err
	}
	return t.failure(ctx, what, err)
}

func entry(m oraculo.Memory) MemoryEntry {
	return MemoryEntry{ID: m.ID, Scope: m.Scope, Key: m.Key, Value: m.Value, Source: m.Source, Status: m.Status,
		Supersedes: m.Supersedes, Created: m.Created, Author: m.Author, Active: m.Active, Stale: m.Stale}
}

func entries(ms []oraculo.Memory) []MemoryEntry {
	out := make([]MemoryEntry, len(ms))
	for i, m := range ms {
		out[i] = entry(m)
	}
	return out
}

// entryText is one entry on a line, with its status, source and history.
func entryText(e MemoryEntry) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s [%s] %s: %s (%s", e.ID, e.Scope, e.Key, e.Value, e.Status)
	if e.Stale {
		b.WriteString(", stale: its note changed")
	}
	if !e.Active {
		b.WriteString(", superseded")
	}
	fmt.Fprintf(&b, "; source %s; by %s, %s", e.Source, e.Author, e.Created)
	if e.Supersedes != "" {
		fmt.Fprintf(&b, "; replaces %s", e.Supersedes)
	}
	b.WriteString(")\n")
	return b.String()
}
