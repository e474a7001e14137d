package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/oraculo/oraculo/link"
)

// linkKeyPollEvery is how often serve reads the link key again.
var linkKeyPollEvery = 2 * time.Second

// followLinksFlag registers --follow-links-outside on the commands that
// ingest (ingest, serve).
func followLinksFlag(fs *flag.FlagSet) *bool {
	return fs.Bool("follow-links-outside", false, "follow symlinks among the notes to files outside the notes folders too (by default they are skipped, as link-outside-notes); the index's own files (the index, its link key, the tokens, the chat history) are never read")
}

// privateFiles are the files a program keeps that an ingest must never
// read as notes, besides those the engine knows beside the index: the
// tokens file and the chat history wherever they are kept.
func privateFiles(tokensFlag, db string) []string {
	tokens, _ := tokensPath(tokensFlag, db)
	files := []string{tokens}
	if h := os.Getenv("ORACULO_CHAT_HISTORY"); h != "" && !strings.EqualFold(h, "off") {
		files = append(files, h)
	}
	return files
}

// cmdRotateLinks replaces the key that signs the links to passages
// (oraculo token rotate-links): every link given so far stops working.
func cmdRotateLinks(ctx context.Context, ix *indexFlags, rest []string, s stdio) error {
	if len(rest) > 0 {
		return usageError{errors.New(msg("token-usage"))}
	}
	l, err := ix.location()
	if err != nil {
		return err
	}
	if l.cluster() {
		ws, err := ix.connect(ctx, l, true)
		if err != nil {
			return err
		}
		if err := link.RotateStoredKey(ctx, ws); err != nil {
			return err
		}
		fmt.Fprintln(s.out, msg("links-rotated", fmt.Sprintf("%s @ %s", l.collection, l.url), linkKeyPollEvery))
		return nil
	}
	path, err := link.RotateKey(l.db)
	if err != nil {
		return err
	}
	fmt.Fprintln(s.out, msg("links-rotated", path, linkKeyPollEvery))
	return nil
}

// watchLinkKey reads the index's link key again every period, until
// stop is called, so that a key rotated (or a key file deleted) while the
// server runs takes effect at once: the links signed with the old key
// stop working. stop returns once the watching has ended.
func watchLinkKey(ctx context.Context, ix *indexFlags, keys *link.Keyring, period time.Duration, logger *slog.Logger) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(period)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			if ctx.Err() != nil {
				return
			}
			key, err := ix.linkKey(ctx)
			if err != nil {
				if ctx.Err() == nil {
					logger.Warn("reading the link key again: the one in force is kept", "err", err.Error())
				}
				continue
			}
			if keys.Set(key) {
				logger.Info("the link key changed: links signed with the old one no longer open")
			}
		}
	}()
	return func() {
		cancel()
		<-done
	}
}

func init() {
	// A config file may set it too (TestConfigKnownFlags checks it).
	knownFlags["follow-links-outside"] = true
	// The flag's Spanish lives here, with it (TestCommandHelp checks it).
	flagUsageES["follow-links-outside"] = "seguir también los enlaces simbólicos de las notas a archivos fuera de las carpetas de notas (por defecto se omiten, como link-outside-notes); los archivos del propio índice (el índice, su clave de enlaces, los tokens, el historial del chat) no se leen nunca"
	for id, texts := range map[string][2]string{
		"reason:link-outside-notes": {"a symlink to a file outside the notes folders (--follow-links-outside to read it)", "un enlace simbólico a un archivo fuera de las carpetas de notas (--follow-links-outside para leerlo)"},
		"reason:index-file":         {"one of the index's own files (never read as a note)", "uno de los archivos del propio índice (nunca se lee como nota)"},
		"links-outside-followed":    {"Symlinks to files outside the notes folders were followed (--follow-links-outside): whoever can write in the notes folders can make any file this user reads searchable.", "Se siguieron enlaces simbólicos a archivos fuera de las carpetas de notas (--follow-links-outside): quien pueda escribir en las carpetas de notas puede hacer buscable cualquier archivo que este usuario lea."},
		"links-rotated":             {"New link key for %s: every link to a passage or note given so far (answers copied, chat front ends, MCP) stops working; a running oraculo serve takes the new key within %s. Links made from now on carry the new key.", "Nueva clave de enlaces para %s: todo enlace a un pasaje o nota dado hasta ahora (respuestas copiadas, clientes de chat, MCP) deja de funcionar; un oraculo serve en marcha toma la clave nueva en menos de %s. Los enlaces hechos desde ahora llevan la clave nueva."},
	} {
		catalog[id] = texts
	}
}
