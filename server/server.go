// Package server serves an [oraculo.Engine] over HTTP: a JSON API for
// search, cited answers (streamed as server-sent events), chunks, notes,
// the compendium and long-term memory; an OpenAI-compatible chat
// endpoint, so that chat front ends can use Oráculo as a model; and mounts
// for the web page and the MCP handler.
//
// Every request that reaches the engine carries its caller's role
// ([oraculo.WithRole]), from the bearer token it presented, and a player's
// token also the player's name ([oraculo.WithPlayer]); a player never sees
// a DM-only note, and the server never echoes an engine error to a player
// (but for what is wrong with a memory request: its scope, key, value or
// note, or a change the player may not make). Without tokens there is no
// authentication: every request is the local user's, and only loopback
// clients are served.
package server

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/link"
)

// Defaults for [Config].
const (
	DefaultMaxBodyBytes  = 1 << 20
	DefaultAskTimeout    = 3 * time.Minute
	DefaultIngestTimeout = 30 * time.Minute
)

// requestTimeout bounds every engine call but answers.
const requestTimeout = 30 * time.Second

// heartbeat is how often a stream that is waiting for the answer sends a
// comment line, so that proxies and clients keep the connection open.
var heartbeat = 15 * time.Second

// Config configures a [Server].
type Config struct {
	Engine *oraculo.Engine
	// Tokens are the accepted bearer tokens. Nil: no authentication, every
	// request is the local user's (LocalRole) and only loopback clients,
	// with a loopback Host and Origin, are served.
	Tokens *Tokens
	// LocalRole is every request's role when Tokens is nil (default
	// oraculo.RoleDM).
	LocalRole string
	// Logger receives the access log and errors (default: discarded).
	Logger *slog.Logger
	// MaxBodyBytes limits request bodies (default 1 MiB); larger is 413.
	MaxBodyBytes int64
	// AskTimeout bounds one answer (default 3 minutes).
	AskTimeout time.Duration
	// IngestTimeout bounds one background ingest (POST /api/ingest):
	// past it the ingest is cancelled (default 30 minutes).
	IngestTimeout time.Duration
	// Web, when set, serves every path outside /api/, /v1/ and /mcp,
	// without authentication (it is the page that asks for a token).
	Web http.Handler
	// MCP, when set, is mounted at /mcp behind authentication, each
	// request's context holding the base of the links made in it
	// (link.WithBase).
	MCP http.Handler
	// Version is reported by /api/health.
	Version string
	// LinkKey signs the links to passages (/c/{id}) that citations leaving
	// the server carry; empty: a key drawn at start (links then last as
	// long as the process).
	LinkKey []byte
	// LinkKeys, when set, holds the link key instead of LinkKey: one that
	// may be replaced while the server runs (oraculo token rotate-links),
	// after which the links signed with the old key are refused.
	LinkKeys *link.Keyring
	// PublicURL is where those links point (default: the host each
	// request came to).
	PublicURL string
	// ObsidianVault, when set, names the Obsidian vault that holds the
	// notes: each source also links to its note there (obsidian://).
	ObsidianVault string
	// CORSOrigins are the origins whose pages may call the API from a
	// browser (serve --cors); "*" is any. None by default.
	CORSOrigins []string
	// Limits bound the searches and answers running at once (default
	// DefaultLimits); past them requests are answered 503.
	Limits Limits
	// FollowLinksOutside makes the ingests the server runs (POST
	// /api/ingest, the watcher's) follow symlinks outside the index's
	// folders (serve --follow-links-outside); PrivateFiles are more files
	// they never read as notes (the tokens file, say): see
	// [oraculo.IngestOptions].
	FollowLinksOutside bool
	PrivateFiles       []string
	// IncludeTemplates and IncludeExcluded make those ingests index an
	// Obsidian vault's templates folder and "Excluded files" too (serve
	// --include-templates, --include-excluded).
	IncludeTemplates, IncludeExcluded bool
}

// Server is the HTTP face of an engine. It is an http.Handler; Close stops
// the background work it started.
type Server struct {
	cfg     Config
	eng     *oraculo.Engine
	log     *slog.Logger
	mux     *http.ServeMux
	handler http.Handler
	started time.Time
	links   *link.Maker

	// ctx lives as long as the server: background ingests run in it.
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	ingest ingestState
	watch  watchState
	// ingestFunc, when set, stands in for the engine's Ingest (tests).
	ingestFunc func(context.Context, []string, oraculo.IngestOptions) (*oraculo.IngestReport, error)
	// limits and gates bound each route class (shed.go); probe is
	// /healthz's last look at the index.
	limits Limits
	gates  [numClasses]*gate
	probe  healthState
	// kept are the recent responses of /v1/responses.
	kept responseMemory
}

// New returns a server for cfg, with its routes and middleware. Callers
// must Close it once the http.Server that used it has shut down.
func New(cfg Config) *Server {
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if cfg.AskTimeout <= 0 {
		cfg.AskTimeout = DefaultAskTimeout
	}
	if cfg.IngestTimeout <= 0 {
		cfg.IngestTimeout = DefaultIngestTimeout
	}
	if cfg.LocalRole != oraculo.RolePlayer {
		cfg.LocalRole = oraculo.RoleDM
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	s := &Server{cfg: cfg, eng: cfg.Engine, log: cfg.Logger, mux: http.NewServeMux(), started: time.Now(), links: &link.Maker{Key: newLinkKey(cfg.LinkKey), Keys: cfg.LinkKeys, Base: cfg.PublicURL, ObsidianVault: cfg.ObsidianVault}}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.limits = cfg.Limits.withDefaults()
	for c, n := range map[routeClass]int{classSearch: s.limits.Search, classAsk: s.limits.Ask, classModel: s.limits.Model} {
		s.gates[c] = newGate(n, s.limits.Queue, s.limits.QueueWait)
	}
	s.routes()
	var h http.Handler = s.mux
	h = s.limitBody(h)
	h = s.identify(h)
	if cfg.Tokens == nil {
		h = localOnly(h, s.corsAllowed)
	}
	h = s.cors(h)
	s.handler = s.observe(h)
	return s
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.handler.ServeHTTP(w, r)
}

// Close cancels a background ingest, if one runs, and waits for it to
// return, ingestStopGrace at most: after Close the engine may be closed.
// An ingest that ignored its cancellation for that long is left behind,
// and the error says so.
func (s *Server) Close() error {
	s.ingest.mu.Lock()
	s.ingest.closed = true
	s.ingest.mu.Unlock()
	s.cancel()
	s.wg.Wait()
	s.ingest.mu.Lock()
	defer s.ingest.mu.Unlock()
	if s.ingest.abandoned {
		return errors.New("closing the server: " + s.ingest.err)
	}
	return nil
}

func (s *Server) routes() {
	m := s.mux
	m.HandleFunc("GET /api/health", s.health)
	m.HandleFunc("GET /healthz", s.healthz)
	m.Handle("GET /api/stats", s.auth(s.dmOnly(s.stats)))
	m.Handle("GET /api/overview", s.auth(s.overview))
	m.Handle("POST /api/search", s.auth(s.shed(searchClass, s.search)))
	m.Handle("POST /api/ask", s.auth(s.shed(s.askClass, s.ask)))
	m.Handle("GET /api/chunks/{id}", s.auth(s.chunk))
	m.Handle("GET /api/note", s.auth(s.note))
	m.Handle("GET /api/compendium", s.auth(s.compendium))
	m.Handle("GET /api/compendium/{name...}", s.auth(s.entity))
	m.Handle("GET /api/timeline", s.auth(s.timeline))
	m.Handle("GET /api/recap", s.auth(s.recap))
	m.Handle("GET /api/threads", s.auth(s.threads))
	m.Handle("GET /api/check", s.auth(s.check))
	m.Handle("GET /api/memory", s.auth(s.memories))
	m.Handle("POST /api/memory", s.auth(s.addMemory))
	m.Handle("POST /api/memory/intent", s.auth(s.memoryIntent))
	m.Handle("GET /api/memory/{id}", s.auth(s.memoryChain))
	m.Handle("DELETE /api/memory/{id}", s.auth(s.forgetMemory))
	m.Handle("POST /api/memory/{id}/verify", s.auth(s.verifyMemory))
	m.Handle("POST /api/memory/{id}/supersede", s.auth(s.supersedeMemory))
	m.Handle("POST /api/ingest", s.auth(s.dmOnly(s.startIngest)))
	m.Handle("GET /api/ingest", s.auth(s.dmOnly(s.ingestStatus)))
	m.Handle("POST /v1/chat/completions", s.auth(s.shed(s.openAIClass, s.chatCompletions)))
	m.Handle("POST /v1/responses", s.auth(s.shed(s.openAIClass, s.responses)))
	m.Handle("GET /v1/models", s.auth(s.models))
	m.Handle("GET /v1/models/{id}", s.auth(s.model))
	m.HandleFunc("GET /c/{id}", s.passagePage)
	m.HandleFunc("GET /n", s.notePage)
	m.HandleFunc("/api/", s.notFound)
	m.HandleFunc("/v1/", s.notFound)
	if s.cfg.MCP != nil {
		// The tools' links point where this request came (link.WithBase).
		mcpHandler := s.shed(s.mcpClass, func(w http.ResponseWriter, r *http.Request) { s.cfg.MCP.ServeHTTP(w, r.WithContext(s.linkCtx(r))) })
		m.Handle("/mcp", s.auth(mcpHandler))
		m.Handle("/mcp/", s.auth(mcpHandler))
	}
	if s.cfg.Web != nil {
		m.Handle("/", s.cfg.Web)
	} else {
		m.HandleFunc("/", s.notFound)
	}
}

// catchAll are the patterns that only say "nothing here".
var catchAll = map[string]bool{"/api/": true, "/v1/": true, "/": true}

// notFound answers 404, or 405 with Allow when the path exists for other
// methods (the catch-all patterns hide the mux's own 405s).
func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	var allow []string
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		if m == r.Method || (m == http.MethodGet && r.Method == http.MethodHead) {
			continue
		}
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, p := s.mux.Handler(probe); p != "" && !catchAll[p] {
			allow = append(allow, m)
		}
	}
	if len(allow) > 0 {
		w.Header().Set("Allow", strings.Join(allow, ", "))
		writeError(w, r, http.StatusMethodNotAllowed, "method not allowed")
		return
	}
	writeError(w, r, http.StatusNotFound, "not found")
}

// engineError answers an engine failure with [Server.failure]'s status and
// message.
func (s *Server) engineError(w http.ResponseWriter, r *http.Request, err error) {
	status, msg := s.failure(r, err)
	if status == statusClientClosed {
		return
	}
	writeError(w, r, status, msg)
}

// failure maps an engine error to a status and a message. Nothing an
// engine error says reaches a player: a missing or hidden chunk or note is
// a plain "not found", and anything unexpected is logged and answered with
// the request id only. A client that went away is statusClientClosed.
func (s *Server) failure(r *http.Request, err error) (int, string) {
	info := infoFrom(r.Context())
	switch {
	case errors.Is(err, oraculo.ErrNoChunk), errors.Is(err, oraculo.ErrNoNote):
		return http.StatusNotFound, "not found"
	case errors.Is(err, oraculo.ErrUnknownPath), errors.Is(err, oraculo.ErrPathUnavailable):
		// Names retrieval paths and models, never notes.
		return http.StatusBadRequest, err.Error()
	case errors.Is(err, oraculo.ErrReadOnly):
		// The DM learns which file and why; a player only that it is so.
		if oraculo.RoleFrom(r.Context()) == oraculo.RoleDM {
			return http.StatusConflict, err.Error()
		}
		return http.StatusConflict, "the index is read-only"
	case errors.Is(err, oraculo.ErrNotIndexed):
		return http.StatusConflict, "the index has no notes yet: run `oraculo ingest` first"
	case r.Context().Err() != nil:
		info.status = statusClientClosed
		return statusClientClosed, "canceled"
	case errors.Is(err, context.DeadlineExceeded):
		return http.StatusGatewayTimeout, "the request took too long"
	}
	s.log.Error("engine error", "request_id", info.id, "path", r.URL.Path, "err", err)
	if oraculo.RoleFrom(r.Context()) == oraculo.RoleDM {
		return http.StatusInternalServerError, err.Error()
	}
	return http.StatusInternalServerError, "internal error (request " + info.id + ")"
}

// withTimeout returns the request's context bounded by d.
func withTimeout(r *http.Request, d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(r.Context(), d)
}
