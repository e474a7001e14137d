package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/ingest"
	"github.com/oraculo/oraculo/internal/termrender"
	"github.com/oraculo/oraculo/server"
	fswatch "github.com/oraculo/oraculo/watch"
)

// watchOptions are the flags of ingest --watch and serve --watch.
type watchOptions struct {
	on       *bool
	debounce *time.Duration
	poll     *bool
	// vault says which of an Obsidian vault's exclusions the watcher
	// overrides, as the ingests it runs do.
	vault ingest.VaultOptions
}

// watchFlags registers the watching flags on fs; what is the command's
// part of the --watch text.
func watchFlags(fs *flag.FlagSet, what string) *watchOptions {
	return &watchOptions{
		on:       fs.Bool("watch", false, what),
		debounce: fs.Duration("watch-debounce", fswatch.DefaultDebounce, "with --watch: how long changes must be quiet before the index is updated (an editor's burst of writes is one update)"),
		poll:     fs.Bool("watch-poll", false, fmt.Sprintf("with --watch: rescan the folders every %s instead of being told of changes (for network shares)", fswatch.DefaultPollEvery)),
	}
}

func init() {
	// A config file may set them too (TestConfigKnownFlags checks it).
	for _, f := range []string{"watch", "watch-debounce", "watch-poll"} {
		knownFlags[f] = true
	}
	// The flags' Spanish lives here, with them (TestCommandHelp checks it).
	flagUsageES["ingest/watch"] = "tras leer las carpetas, seguir vigilándolas y poner el índice al día con cada cambio, hasta Ctrl-C"
	flagUsageES["serve/watch"] = "vigilar las carpetas del índice y ponerlo al día con cada cambio: la siguiente pregunta ya lo ve"
	flagUsageES["watch-debounce"] = "con --watch: cuánto deben calmarse los cambios antes de poner el índice al día (una ráfaga de escrituras de un editor es una sola actualización)"
	flagUsageES["watch-poll"] = fmt.Sprintf("con --watch: releer las carpetas cada %s en vez de recibir aviso de los cambios (para carpetas de red)", fswatch.DefaultPollEvery)
}

// config is the watcher's configuration the flags ask for.
func (o *watchOptions) config(roots []string, eng *oraculo.Engine) fswatch.Config {
	return fswatch.Config{Roots: roots, Debounce: *o.debounce, Poll: *o.poll, Ignore: []string{eng.DBPath()}, Vault: o.vault}
}

// validate refuses a debounce that is not a duration worth waiting.
func (o *watchOptions) validate() error {
	if *o.debounce <= 0 {
		return usageError{errors.New(msg("watch-bad-debounce", *o.debounce))}
	}
	return nil
}

// followIngest keeps the index in step with roots until ctx ends: each
// burst of changes is one incremental ingest with opts, and one line (or,
// asJSON, one JSON report) on stdout when it changed the index.
func followIngest(ctx context.Context, eng *oraculo.Engine, roots []string, opts oraculo.IngestOptions, wo *watchOptions, asJSON bool, stdout, stderr io.Writer) error {
	opts.Progress = nil // one line per update instead
	var out sync.Mutex  // the update and the fallback's warning both print
	wo.vault = opts.Vault()
	cfg := wo.config(roots, eng)
	cfg.OnPolling = func(reason error) {
		out.Lock()
		defer out.Unlock()
		fmt.Fprintln(stderr, msg("watch-polling", reason, fswatch.DefaultPollEvery))
	}
	cfg.Update = func(ctx context.Context, b fswatch.Batch) error {
		rep, err := eng.Ingest(ctx, roots, opts)
		out.Lock()
		defer out.Unlock()
		now := time.Now().Format("15:04:05")
		if err != nil {
			if ctx.Err() == nil {
				fmt.Fprintln(stderr, msg("watch-update-failed", now, engineText(err.Error())))
			}
			return err
		}
		if rep.Indexed == 0 && rep.Deleted == 0 {
			return nil
		}
		if asJSON {
			return writeJSONLine(stdout, rep)
		}
		fmt.Fprintln(stdout, msg("watch-updated", now, rep.Indexed, rep.Deleted, rep.Stats.Documents, time.Duration(rep.Elapsed).Round(time.Millisecond)))
		for _, p := range rep.Skipped {
			fmt.Fprintln(stderr, "  "+msg("watch-skipped", termrender.Escape(p.Path), p.Reason))
		}
		return nil
	}
	if !asJSON {
		// Said once the folders are watched, so that a change made after
		// the message is not missed.
		cfg.OnStarted = func() { fmt.Fprintln(stdout, msg("watch-watching", strings.Join(roots, ", "))) }
	}
	w, err := fswatch.New(cfg)
	if err != nil {
		return err
	}
	if err := w.Run(ctx); err != nil {
		return err
	}
	if !asJSON {
		fmt.Fprintln(stdout, msg("watch-stopped"))
	}
	return nil
}

// serveWatch makes a server keep its index in step with the folders the
// index remembers.
func serveWatch(ctx context.Context, h *server.Server, eng *oraculo.Engine, wo *watchOptions, stdout io.Writer, logger *slog.Logger) error {
	roots, err := eng.Roots(ctx)
	if err != nil {
		return err
	}
	if len(roots) == 0 {
		return usageError{errors.New(msg("watch-no-roots"))}
	}
	cfg := wo.config(roots, eng)
	cfg.OnPolling = func(reason error) {
		logger.Warn("watching: the system's limit on watched folders was reached; rescanning instead", "err", reason.Error(), "every_seconds", fswatch.DefaultPollEvery.Seconds())
		fmt.Fprintln(stdout, msg("watch-polling", reason, fswatch.DefaultPollEvery))
	}
	if err := h.Watch(ctx, cfg); err != nil {
		return err
	}
	fmt.Fprintln(stdout, msg("watch-serving", strings.Join(roots, ", ")))
	return nil
}
