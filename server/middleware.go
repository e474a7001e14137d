package server

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"runtime/debug"
	"strings"
	"time"

	"github.com/oraculo/oraculo"
)

// statusClientClosed is logged for requests whose client went away before
// the answer (nginx's 499); nothing is written.
const statusClientClosed = 499

// requestInfo is what the middleware learns about a request, shared down
// the chain through its context and read back by the access log.
type requestInfo struct {
	id     string
	user   string // the token's name, "" when none or no authentication
	role   string // "" until the caller is identified
	authed bool
	status int // set by handlers that write nothing (statusClientClosed)
}

type infoKey struct{}

func infoFrom(ctx context.Context) *requestInfo {
	if i, ok := ctx.Value(infoKey{}).(*requestInfo); ok {
		return i
	}
	return &requestInfo{}
}

// recorder remembers what a handler wrote, for the access log and to know
// whether a 500 can still be sent after a panic.
type recorder struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (w *recorder) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *recorder) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

// Flush lets streams through (http.ResponseController finds it).
func (w *recorder) Flush() {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	_ = http.NewResponseController(w.ResponseWriter).Flush()
}

// Unwrap gives http.ResponseController the underlying writer.
func (w *recorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// observe gives every request an id (X-Request-Id), recovers panics as a
// 500, and writes one access-log line: never the token, never the
// question.
func (s *Server) observe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		info := &requestInfo{id: requestID(r.Header.Get("X-Request-Id"))}
		w.Header().Set("X-Request-Id", info.id)
		rec := &recorder{ResponseWriter: w}
		r = r.WithContext(context.WithValue(r.Context(), infoKey{}, info))
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.log.Error("panic", "request_id", info.id, "path", r.URL.Path, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
				if rec.status == 0 {
					writeError(rec, r, http.StatusInternalServerError, "internal error (request "+info.id+")")
				}
			}
			status := rec.status
			if info.status != 0 {
				status = info.status
			}
			if status == 0 {
				status = http.StatusOK
			}
			s.log.Info("request", "request_id", info.id, "method", r.Method, "path", r.URL.Path,
				"status", status, "duration_ms", float64(time.Since(start).Microseconds())/1000,
				"bytes", rec.bytes, "role", info.role, "user", info.user, "remote", r.RemoteAddr)
		}()
		next.ServeHTTP(rec, r)
	})
}

// requestID keeps a client's id when it is short and plain, else makes one.
func requestID(given string) string {
	if given != "" && len(given) <= 64 && strings.Trim(given, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") == "" {
		return given
	}
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// localOnly serves loopback clients only, and only under a loopback Host
// and Origin: without tokens, that is all that keeps other machines, DNS
// rebinding and other sites' pages away from the notes.
// Origins that cors allows are accepted too: the user listed them.
func localOnly(next http.Handler, allowed func(origin string) bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, err := net.SplitHostPort(r.RemoteAddr)
		if err != nil {
			host = r.RemoteAddr
		}
		ip, err := netip.ParseAddr(host)
		ok := err == nil && ip.Unmap().IsLoopback() && loopbackHost(r.Host)
		if origin := r.Header.Get("Origin"); ok && origin != "" && !allowed(origin) {
			u, err := url.Parse(origin)
			ok = err == nil && loopbackHost(u.Host)
		}
		if !ok {
			writeError(w, r, http.StatusForbidden, "this server has no tokens: it serves the local user only")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// loopbackHost reports whether a Host header (or URL host) names this
// machine: localhost or a loopback address, with any port.
func loopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.Trim(host, "[]"), ".")
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}

// identify works out who is calling and puts the role in the context: the
// local role without tokens; with tokens, the bearer token's role, or the
// player's (the least) when there is no valid token, so that nothing
// reaches the engine as the DM by default. auth rejects the latter. A
// player's token also names the player ([oraculo.WithPlayer]): its name,
// whose memory scope is player:NAME.
func (s *Server) identify(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		info := infoFrom(r.Context())
		ctx := oraculo.WithRole(r.Context(), oraculo.RolePlayer)
		if s.cfg.Tokens == nil {
			info.role, info.authed = s.cfg.LocalRole, true
			ctx = oraculo.WithRole(r.Context(), s.cfg.LocalRole)
		} else if tok, ok := bearer(r); ok {
			if name, rl, ok := s.cfg.Tokens.Role(tok); ok {
				info.user, info.role, info.authed = name, rl, true
				ctx = oraculo.WithRole(r.Context(), rl)
				if rl == oraculo.RolePlayer {
					// The token's holder is the player: the owner of
					// the memory scope player:NAME.
					ctx = oraculo.WithPlayer(r.Context(), name)
				}
			}
		}
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// bearer returns the token of an "Authorization: Bearer" header.
func bearer(r *http.Request) (string, bool) {
	h := r.Header.Get("Authorization")
	scheme, tok, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	tok = strings.TrimSpace(tok)
	return tok, tok != ""
}

// auth answers 401 unless the caller presented a valid token (or there is
// no authentication).
func (s *Server) auth(h http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !infoFrom(r.Context()).authed {
			w.Header().Set("WWW-Authenticate", `Bearer realm="oraculo"`)
			msg := "a valid bearer token is required (Authorization: Bearer orc_...)"
			if _, sent := bearer(r); sent {
				msg = "invalid token"
			}
			writeError(w, r, http.StatusUnauthorized, msg)
			return
		}
		h(w, r)
	})
}

// dmOnly answers 403 to players.
func (s *Server) dmOnly(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if oraculo.RoleFrom(r.Context()) != oraculo.RoleDM {
			writeError(w, r, http.StatusForbidden, "only the DM may do this")
			return
		}
		h(w, r)
	}
}

// marshal encodes v as JSON without HTML escaping (as the CLI prints it)
// and without the trailing newline.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// writeJSON answers status with v as JSON.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":"encoding the response failed"}`)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

// writeError answers status with {"error": msg}; under /v1/ with the
// OpenAI shape, {"error": {"message", "type", "param", "code"}}, which
// OpenAI clients read.
func writeError(w http.ResponseWriter, r *http.Request, status int, msg string) {
	if isOpenAI(r) {
		writeJSON(w, status, openAIError(status, msg))
		return
	}
	writeJSON(w, status, map[string]string{"error": msg})
}

func isOpenAI(r *http.Request) bool { return strings.HasPrefix(r.URL.Path, "/v1/") }

// corsAllowed reports whether pages from origin may call the API
// (Config.CORSOrigins; "*" allows every origin).
func (s *Server) corsAllowed(origin string) bool {
	for _, o := range s.cfg.CORSOrigins {
		if o == "*" || strings.EqualFold(strings.TrimSuffix(o, "/"), origin) {
			return true
		}
	}
	return false
}

// cors lets the pages of the allowed origins (a browser-side client, an
// Obsidian plugin: app://obsidian.md) call the API: it answers their
// preflight requests and marks the responses they may read. Tokens are
// still required as for any client; other origins get no CORS headers,
// so browsers keep their pages from reading the answers.
func (s *Server) cors(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if origin == "" || !s.corsAllowed(origin) {
			next.ServeHTTP(w, r)
			return
		}
		h := w.Header()
		h.Set("Access-Control-Allow-Origin", origin)
		h.Add("Vary", "Origin")
		h.Set("Access-Control-Expose-Headers", "X-Request-Id, Retry-After")
		if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
			h.Set("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS")
			h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, X-Oraculo-Detail, Mcp-Session-Id, Mcp-Protocol-Version")
			h.Set("Access-Control-Max-Age", "600")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		next.ServeHTTP(w, r)
	})
}
