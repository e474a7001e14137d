// Package web serves Oráculo's chat page: plain HTML, CSS and JavaScript
// modules embedded in the binary, with no build step and nothing loaded
// from elsewhere (no CDN, no web fonts).
//
// The page talks to the JSON API of package server on the same origin:
// it asks with POST /api/ask and reads the answer as server-sent events,
// opens cited passages with GET /api/chunks/{id}?claim= (the sentence to
// mark comes with them) and whole notes with GET /api/note, shows GET
// /api/overview and example questions from GET /api/compendium before the
// first question, an entity's timeline (GET /api/timeline) from its name
// in an answer or from the compendium, the last session's recap (GET
// /api/recap) from the empty state, lets the DM re-ingest with POST and
// GET /api/ingest,
// and asks for a token when GET /api/health says the server has them.
// Conversations are kept in the browser's localStorage, one list per role.
package web

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"net/http"
	"path"
	"time"
)

//go:embed static
var static embed.FS

// contentTypes names the media type of every kind of file the page ships,
// so that responses do not depend on the host's MIME database.
var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".svg":  "image/svg+xml",
}

// contentSecurityPolicy lets the page load only its own files and talk
// only to its own server.
const contentSecurityPolicy = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; " +
	"connect-src 'self'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'; object-src 'none'"

// asset is one embedded file, ready to serve.
type asset struct {
	data        []byte
	contentType string
	etag        string
}

// Handler serves the chat page at "/" and its files under "/static/";
// anything else is 404, so that it can be mounted at "/" beside an API.
// Responses carry an ETag and "Cache-Control: no-cache": browsers keep
// the files but check them on every load (a conditional request answered
// 304), so a new binary's page is never mixed with an old script.
func Handler() http.Handler {
	assets := loadAssets()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		serve(w, r, assets["index.html"])
	})
	mux.HandleFunc("GET /static/{file...}", func(w http.ResponseWriter, r *http.Request) {
		a, ok := assets[r.PathValue("file")]
		if !ok || r.PathValue("file") == "index.html" {
			http.NotFound(w, r)
			return
		}
		serve(w, r, a)
	})
	return mux
}

// loadAssets reads every embedded file of a known type, keyed by its path
// under static/.
func loadAssets() map[string]*asset {
	assets := map[string]*asset{}
	// Walking and reading an embedded tree cannot fail.
	_ = fs.WalkDir(static, "static", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		ct, ok := contentTypes[path.Ext(name)]
		if !ok {
			return nil
		}
		data, err := fs.ReadFile(static, name)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		assets[name[len("static/"):]] = &asset{data: data, contentType: ct, etag: `"` + hex.EncodeToString(sum[:12]) + `"`}
		return nil
	})
	return assets
}

// serve writes an asset with its headers; http.ServeContent answers
// If-None-Match, HEAD and ranges.
func serve(w http.ResponseWriter, r *http.Request, a *asset) {
	if a == nil {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", a.contentType)
	h.Set("Cache-Control", "no-cache")
	h.Set("ETag", a.etag)
	h.Set("X-Content-Type-Options", "nosniff")
	if a.contentType == contentTypes[".html"] {
		h.Set("Content-Security-Policy", contentSecurityPolicy)
		h.Set("Referrer-Policy", "no-referrer")
	}
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(a.data))
}
