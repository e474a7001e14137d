package main

import (
	"context"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/link"
	"github.com/oraculo/oraculo/mcpserver"
	"github.com/oraculo/oraculo/server"
	"github.com/oraculo/oraculo/server/web"
)

// shutdownGrace is how long a stopping server lets requests in flight
// finish before it cancels them.
const shutdownGrace = 10 * time.Second

// tokensPollEvery is how often serve looks for a changed tokens file.
var tokensPollEvery = 2 * time.Second

// tokensPath resolves the tokens file: the flag, else $ORACULO_TOKENS,
// else tokens.yaml beside the index.
func tokensPath(flagValue, db string) (path string, explicit bool) {
	if flagValue != "" {
		return flagValue, true
	}
	if v := os.Getenv("ORACULO_TOKENS"); v != "" {
		return v, true
	}
	return filepath.Join(filepath.Dir(oraculo.DBPath(db)), "tokens.yaml"), false
}

// serveFlags are serve's flags.
type serveFlags struct {
	index         *indexFlags
	addr          *string
	tokens        *string
	askTimeout    *time.Duration
	ingestTimeout *time.Duration
	publicURL     *string
	obsidianVault *string
	cors          *string
	models        *modelFlags
	limits        func() (server.Limits, error)
	watching      *watchOptions
	followOutside *bool
	vault         *vaultFlags
}

func newServeFlags(name string, stderr io.Writer) (*flag.FlagSet, *serveFlags) {
	fs, ix := newIndexFlags(name, stderr)
	f := &serveFlags{index: ix}
	f.addr = fs.String("addr", defaultAddr(), "address to listen on ($ORACULO_ADDR sets the default: a container's image listens on 0.0.0.0:8080)")
	f.tokens = fs.String("tokens", "", "tokens file (default $ORACULO_TOKENS, else tokens.yaml beside the index when it exists); without one only the local user is served, on loopback")
	f.askTimeout = fs.Duration("ask-timeout", server.DefaultAskTimeout, "longest time one answer may take")
	f.ingestTimeout = fs.Duration("ingest-timeout", server.DefaultIngestTimeout, "longest time a background ingest (POST /api/ingest) may take before it is cancelled")
	f.publicURL = fs.String("public-url", "", "where the links to cited passages point (default: the host each request came to), e.g. https://oraculo.example.org")
	f.obsidianVault = fs.String("obsidian-vault", "", "the name of the Obsidian vault that holds the notes: each cited source also links to its note there (obsidian://open)")
	f.cors = fs.String("cors", "", "origins whose pages may call the API from a browser, comma-separated (e.g. app://obsidian.md,https://chat.example.org; * for any); tokens are still required")
	f.models = newModelFlags(fs)
	f.limits = limitFlags(fs)
	f.watching = watchFlags(fs, "watch the index's folders and update it after each change: the next question sees it")
	f.followOutside = followLinksFlag(fs)
	f.vault = newVaultFlags(fs)
	return fs, f
}

// cmdServe serves the index over HTTP until ctx ends, then shuts down
// gracefully.
func cmdServe(ctx context.Context, f *serveFlags, rest []string, s stdio) error {
	if len(rest) > 0 {
		return usageError{errors.New(msg("serve-args", strings.Join(rest, " ")))}
	}
	if err := f.watching.validate(); err != nil {
		return err
	}
	limits, err := f.limits()
	if err != nil {
		return err
	}
	sv := &serving{f: f, stdout: s.out, logger: slog.New(slog.NewJSONHandler(s.err, nil))}
	if sv.tokens, err = f.loadTokens(); err != nil {
		return err
	}
	eng, err := f.models.open(ctx, f.index, func(s string) { sv.logger.Warn(s) })
	if err != nil {
		return err
	}
	defer eng.Close()
	sv.eng = eng
	if sv.linkKeys, err = sv.loadLinkKeys(ctx); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *f.addr)
	if err != nil {
		return err
	}
	h := server.New(sv.config(ctx, limits))
	defer h.Close()
	if *f.watching.on {
		if err := serveWatch(ctx, h, eng, f.watching, s.out, sv.logger); err != nil {
			return err
		}
	}
	return sv.serve(ctx, ln, h)
}

// loadTokens loads the tokens file, if one is named or beside the index;
// without one, only a loopback address may be served.
func (f *serveFlags) loadTokens() (*server.Tokens, error) {
	var tokens *server.Tokens
	path, explicit := tokensPath(*f.tokens, *f.index.db)
	if _, statErr := os.Stat(path); explicit || statErr == nil {
		var err error
		if tokens, err = server.LoadTokens(path); err != nil {
			return nil, err
		}
	}
	if tokens == nil && !loopbackAddr(*f.addr) {
		return nil, usageError{errors.New(msg("serve-needs-tokens", *f.addr))}
	}
	return tokens, nil
}

// serving is a server being started and run: what its steps share.
type serving struct {
	f        *serveFlags
	eng      *oraculo.Engine
	tokens   *server.Tokens
	linkKeys *link.Keyring
	logger   *slog.Logger
	stdout   io.Writer
}

// loadLinkKeys loads the key that signs the links to passages.
func (sv *serving) loadLinkKeys(ctx context.Context) (*link.Keyring, error) {
	linkKey, err := sv.f.index.linkKey(ctx)
	if err != nil && sv.eng.ReadOnly() != nil {
		// A read-only index cannot keep a key beside it: this run signs
		// with one of its own.
		sv.logger.Warn(msg("link-key-ephemeral", err))
		linkKey, err = make([]byte, 32), nil
		rand.Read(linkKey)
	}
	if err != nil {
		return nil, err
	}
	return link.NewKeyring(linkKey), nil
}

// config is the server's configuration from the flags.
func (sv *serving) config(ctx context.Context, limits server.Limits) server.Config {
	f := sv.f
	return server.Config{
		Engine:        sv.eng,
		Tokens:        sv.tokens,
		LocalRole:     oraculo.RoleFrom(ctx), // --as player previews the players' view
		Logger:        sv.logger,
		AskTimeout:    *f.askTimeout,
		IngestTimeout: *f.ingestTimeout,
		Web:           web.Handler(),
		MCP:           mcpserver.HTTPHandler(sv.eng, version, mcpserver.WithLinks(&link.Maker{Keys: sv.linkKeys, Base: *f.publicURL, ObsidianVault: *f.obsidianVault})),
		Version:       version,
		CORSOrigins:   splitList(*f.cors),
		LinkKeys:      sv.linkKeys,
		PublicURL:     *f.publicURL,
		ObsidianVault: *f.obsidianVault,
		Limits:        limits,
		// The ingests the server runs (POST /api/ingest, --watch).
		FollowLinksOutside: *f.followOutside,
		PrivateFiles:       privateFiles(*f.tokens, *f.index.db),
		IncludeTemplates:   *f.vault.templates,
		IncludeExcluded:    *f.vault.excluded,
	}
}

// serve serves h on ln until ctx ends, then shuts down gracefully.
func (sv *serving) serve(ctx context.Context, ln net.Listener, h *server.Server) error {
	// Requests live in their own context: a signal starts a graceful
	// shutdown instead of cancelling them; cancelRequests ends the grace.
	reqCtx, cancelRequests := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelRequests()
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       time.Minute,
		// No WriteTimeout: answers stream for up to --ask-timeout, which the
		// handlers enforce themselves.
		IdleTimeout:    2 * time.Minute,
		MaxHeaderBytes: 64 << 10,
		BaseContext:    func(net.Listener) context.Context { return reqCtx },
		ErrorLog:       slog.NewLogLogger(sv.logger.Handler(), slog.LevelWarn),
	}
	stop := sv.announce(reqCtx, ln)
	defer stop()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	sv.shutdown(srv, h, cancelRequests)
	return nil
}

// announce says where the server listens and for whom, and watches the
// tokens file and the link key while reqCtx lasts (stop ends the latter).
func (sv *serving) announce(reqCtx context.Context, ln net.Listener) (stop func()) {
	url := "http://" + ln.Addr().String() + "/"
	fmt.Fprintln(sv.stdout, msg("serve-url", sv.eng.DBPath(), url))
	if sv.tokens == nil {
		fmt.Fprintln(sv.stdout, msg("serve-local", oraculo.RoleFrom(reqCtx)))
	} else {
		fmt.Fprintln(sv.stdout, msg("serve-auth", len(sv.tokens.List()), sv.tokens.Path()))
		go watchTokens(reqCtx, sv.tokens, sv.logger)
	}
	stop = watchLinkKey(reqCtx, sv.f.index, sv.linkKeys, linkKeyPollEvery, sv.logger)
	sv.logger.Info("serving", "addr", ln.Addr().String(), "db", sv.eng.DBPath(), "auth", sv.tokens != nil, "version", version)
	return stop
}

// shutdown lets the requests in flight finish for shutdownGrace, then
// cancels them, and waits for a background ingest.
func (sv *serving) shutdown(srv *http.Server, h *server.Server, cancelRequests func()) {
	fmt.Fprintln(sv.stdout, msg("serve-stopping", shutdownGrace))
	sv.logger.Info("shutting down", "grace_seconds", shutdownGrace.Seconds())
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		sv.logger.Warn("requests still running after the grace period: cancelling them", "err", err)
		cancelRequests()
		srv.Close()
	}
	if err := h.Close(); err != nil {
		sv.logger.Error("a background ingest is left behind", "err", err)
	}
	fmt.Fprintln(sv.stdout, msg("serve-stopped"))
}

// loopbackAddr reports whether a listen address is on loopback only:
// localhost or a loopback IP; an empty host (every interface) is not.
func loopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}

// watchTokens reloads the tokens file when it changes, so that tokens
// added or removed with `oraculo token` take effect without a restart. A
// file that does not load keeps the tokens in force, with an error logged.
func watchTokens(ctx context.Context, tokens *server.Tokens, logger *slog.Logger) {
	stamp := func() string {
		fi, err := os.Stat(tokens.Path())
		if err != nil {
			return err.Error()
		}
		return fmt.Sprint(fi.ModTime().UnixNano(), fi.Size())
	}
	last := stamp()
	t := time.NewTicker(tokensPollEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		now := stamp()
		if now == last {
			continue
		}
		last = now
		if err := tokens.Reload(); err != nil {
			logger.Error("tokens file not reloaded; the previous tokens stay in force", "err", err)
			continue
		}
		logger.Info("tokens file reloaded", "path", tokens.Path(), "tokens", len(tokens.List()))
	}
}
