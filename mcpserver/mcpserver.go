// Package mcpserver serves an [oraculo.Engine] over the Model Context
// Protocol: tools to search the notes, ask a cited question, read the
// chunk, note or compendium entry behind a citation, and keep long-term
// memory.
//
// Every tool reads the engine with the context of its call, so the caller's
// role ([oraculo.WithRole]), and a player's name ([oraculo.WithPlayer]),
// must ride in that context: over stdio it is the context given to
// [mcp.Server.Run]; over HTTP, [HTTPHandler] serves each request in a
// session of its own, connected with that request's context.
package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/link"
)

// instructions tell a client's model what the server is for and how its
// tools fit together.
const instructions = `Oráculo answers questions about the user's own notes (often a tabletop campaign written in Spanish), using only what the notes say.
Use "ask" for a verified answer in which every claim cites its source by label, such as [Sesión 17] or [NPCs: Leoric Valcárcel]; quote those labels when you relay the answer, and say so when it abstains.
Use "search" to see the ranked passages for a question, "read_chunk" to read the whole chunk behind a citation's evidence id or a hit's id, "read_note" for a whole note, "compendium" for the people, places and things the notes name, and "timeline" for one of them's story, session by session.
Ask in the notes' language when you can.
The memory tools (memory_list, memory_show, memory_add, memory_verify, memory_supersede, memory_forget) keep what the table has settled or suspects (house rules, retcons, who plays whom), with its source. Nothing becomes memory by itself: add, change or forget entries only when the user asks you to, and add them as hypotheses unless the user is the DM and says the matter is settled (verified).`

// NewServer returns an MCP server whose tools (search, ask, read_chunk,
// read_note, compendium, timeline) read eng, and whose memory tools (memory_list,
// memory_show, memory_add, memory_verify, memory_supersede, memory_forget)
// read and change its long-term memory. Tool results carry both structured
// content and readable text; failures are tool errors that name no
// internals.
//
// With [WithLinks], the text of an answer carries its citations as links
// to the pages of the cited passages on the server that serves them.
func NewServer(eng *oraculo.Engine, version string, opts ...Option) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "oraculo", Title: "Oráculo", Version: version}, &mcp.ServerOptions{
		Instructions: instructions,
		// No logging capability: the server sends no log messages.
		Capabilities: &mcp.ServerCapabilities{},
	})
	t := &tools{eng: eng}
	for _, o := range opts {
		o(t)
	}
	mcp.AddTool(srv, readOnly(&mcp.Tool{Name: "search", Title: "Search the notes", Description: searchDescription, InputSchema: searchInputSchema()}), t.search)
	mcp.AddTool(srv, readOnly(&mcp.Tool{Name: "ask", Title: "Ask the notes", Description: askDescription, InputSchema: mustSchema[AskInput]()}), t.ask)
	mcp.AddTool(srv, readOnly(&mcp.Tool{Name: "read_chunk", Title: "Read a chunk", Description: readChunkDescription}), t.readChunk)
	mcp.AddTool(srv, readOnly(&mcp.Tool{Name: "read_note", Title: "Read a note", Description: readNoteDescription}), t.readNote)
	mcp.AddTool(srv, readOnly(&mcp.Tool{Name: "compendium", Title: "Compendium", Description: compendiumDescription}), t.compendium)
	mcp.AddTool(srv, readOnly(&mcp.Tool{Name: "timeline", Title: "Timeline", Description: timelineDescription}), t.timeline)
	addMemoryTools(srv, t)
	return srv
}

// HTTPHandler returns an http.Handler serving [NewServer] over the
// streamable HTTP transport, to be mounted behind the caller's
// authentication.
//
// It is stateless: every POST is a session of its own, connected with the
// request's context, so each tool call runs with the role the
// authentication put in that request's context, never with one left by an
// earlier request. Server-to-client requests are therefore not available
// (no tool needs them), GET and DELETE answer 405, and replies are plain
// JSON, not event streams. Requests that reach it through a loopback
// address with a Host header that is not localhost are refused (403), the
// SDK's protection against DNS rebinding.
func HTTPHandler(eng *oraculo.Engine, version string, opts ...Option) http.Handler {
	srv := NewServer(eng, version, opts...)
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{
		Stateless:    true,
		JSONResponse: true,
	})
}

// readOnly marks a tool as one that changes nothing and reaches nothing
// beyond the index.
func readOnly(t *mcp.Tool) *mcp.Tool {
	closed := false
	t.Annotations = &mcp.ToolAnnotations{Title: t.Title, ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &closed}
	return t
}

// tools holds what the tool handlers share.
type tools struct {
	eng   *oraculo.Engine
	links *link.Maker
}

// Option configures [NewServer].
type Option func(*tools)

// WithLinks makes each citation in an answer's text a Markdown link to
// the page of its passage, made by m for the caller's role (see package
// link); a Maker without a Base points to the base in the call's context
// ([link.WithBase]), and an answer made where there is neither keeps its
// citations plain.
func WithLinks(m *link.Maker) Option { return func(t *tools) { t.links = m } }

// errNotFound is the tool error for an id, file or name the caller cannot
// see: a missing one and a DM-only one read the same.
var errNotFound = errors.New("not found")

// failure turns an engine error into a tool error a client may see: the
// cases a caller can act on are named, anything else is reported to the
// engine's warning sink and answered with what failed only.
func (t *tools) failure(ctx context.Context, what string, err error) error {
	switch {
	case errors.Is(err, oraculo.ErrNotIndexed):
		return errors.New("the index has no notes yet: run `oraculo ingest` first")
	case errors.Is(err, oraculo.ErrNoChunk), errors.Is(err, oraculo.ErrNoNote):
		return errNotFound
	case ctx.Err() != nil:
		return fmt.Errorf("%s: %w", what, ctx.Err())
	}
	t.eng.Warn(fmt.Sprintf("mcp %s: %v", what, err))
	return fmt.Errorf("%s failed", what)
}
