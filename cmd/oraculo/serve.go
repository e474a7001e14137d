package main

import (
	"context"
	"crypto/rand"
	"errors"
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

// cmdServe serves the index over HTTP until ctx ends, then shuts down
// gracefully.
func cmdServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, ix := newIndexFlags("serve", stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
	tokensFlag := fs.String("tokens", "", "tokens file (default $ORACULO_TOKENS, else tokens.yaml beside the index when it exists); without one only the local user is served, on loopback")
	askTimeout := fs.Duration("ask-timeout", server.DefaultAskTimeout, "longest time one answer may take")
	ingestTimeout := fs.Duration("ingest-timeout", server.DefaultIngestTimeout, "longest time a background ingest (POST /api/ingest) may take before it is cancelled")
	publicURL := fs.String("public-url", "", "where the links to cited passages point (default: the host each request came to), e.g. https://oraculo.example.org")
	obsidianVault := fs.String("obsidian-vault", "", "the name of the Obsidian vault that holds the notes: each cited source also links to its note there (obsidian://open)")
	corsFlag := fs.String("cors", "", "origins whose pages may call the API from a browser, comma-separated (e.g. app://obsidian.md,https://chat.example.org; * for any); tokens are still required")
	models := newModelFlags(fs)
	limitsFlag := limitFlags(fs)
	watching := watchFlags(fs, "watch the index's folders and update it after each change: the next question sees it")
	followOutside := followLinksFlag(fs)
	rest, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usageError{errors.New(msg("serve-args", strings.Join(rest, " ")))}
	}
	if err := watching.validate(); err != nil {
		return err
	}
	limits, err := limitsFlag()
	if err != nil {
		return err
	}

	var tokens *server.Tokens
	path, explicit := tokensPath(*tokensFlag, *ix.db)
	if _, statErr := os.Stat(path); explicit || statErr == nil {
		if tokens, err = server.LoadTokens(path); err != nil {
			return err
		}
	}
	if tokens == nil && !loopbackAddr(*addr) {
		return usageError{errors.New(msg("serve-needs-tokens", *addr))}
	}
	logger := slog.New(slog.NewJSONHandler(stderr, nil))
	eng, err := models.open(ctx, ix, func(s string) { logger.Warn(s) })
	if err != nil {
		return err
	}
	defer eng.Close()
	linkKey, err := ix.linkKey(ctx)
	if err != nil && eng.ReadOnly() != nil {
		// A read-only index cannot keep a key beside it: this run signs
		// with one of its own.
		logger.Warn(msg("link-key-ephemeral", err))
		linkKey, err = make([]byte, 32), nil
		rand.Read(linkKey)
	}
	if err != nil {
		return err
	}
	linkKeys := link.NewKeyring(linkKey)

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	h := server.New(server.Config{
		Engine:        eng,
		Tokens:        tokens,
		LocalRole:     oraculo.RoleFrom(ctx), // --as player previews the players' view
		Logger:        logger,
		AskTimeout:    *askTimeout,
		IngestTimeout: *ingestTimeout,
		Web:           web.Handler(),
		MCP:           mcpserver.HTTPHandler(eng, version, mcpserver.WithLinks(&link.Maker{Keys: linkKeys, Base: *publicURL, ObsidianVault: *obsidianVault})),
		Version:       version,
		CORSOrigins:   splitList(*corsFlag),
		LinkKeys:      linkKeys,
		PublicURL:     *publicURL,
		ObsidianVault: *obsidianVault,
		Limits:        limits,
		// The ingests the server runs (POST /api/ingest, --watch).
		FollowLinksOutside: *followOutside,
		PrivateFiles:       privateFiles(*tokensFlag, *ix.db),
	})
	defer h.Close()
	if *watching.on {
		if err := serveWatch(ctx, h, eng, watching, stdout, logger); err != nil {
			return err
		}
	}
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
		ErrorLog:       slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}

	url := "http://" + ln.Addr().String() + "/"
	fmt.Fprintln(stdout, msg("serve-url", eng.DBPath(), url))
	if tokens == nil {
		fmt.Fprintln(stdout, msg("serve-local", oraculo.RoleFrom(ctx)))
	} else {
		fmt.Fprintln(stdout, msg("serve-auth", len(tokens.List()), tokens.Path()))
		go watchTokens(reqCtx, tokens, logger)
	}
	stopKeys := watchLinkKey(reqCtx, ix, linkKeys, linkKeyPollEvery, logger)
	defer stopKeys()
	logger.Info("serving", "addr", ln.Addr().String(), "db", eng.DBPath(), "auth", tokens != nil, "version", version)

	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	fmt.Fprintln(stdout, msg("serve-stopping", shutdownGrace))
	logger.Info("shutting down", "grace_seconds", shutdownGrace.Seconds())
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		logger.Warn("requests still running after the grace period: cancelling them", "err", err)
		cancelRequests()
		srv.Close()
	}
	if err := h.Close(); err != nil {
		logger.Error("a background ingest is left behind", "err", err)
	}
	fmt.Fprintln(stdout, msg("serve-stopped"))
	return nil
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
