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
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
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

// compressible names the kinds of file worth sending gzipped: text.
var compressible = map[string]bool{".html": true, ".css": true, ".js": true, ".svg": true, ".json": true}

// asset is one embedded file, ready to serve: as it is and, when that is
// smaller, gzipped once when the assets are first loaded.
type asset struct {
	data        []byte
	contentType string
	etag        string
	gz          []byte // nil: not worth compressing
	gzETag      string // the gzipped representation's own ETag
}

// loaded returns the embedded files, read and compressed once per process.
var loaded = sync.OnceValue(loadAssets)

// Handler serves the chat page at "/" and its files under "/static/";
// anything else is 404, so that it can be mounted at "/" beside an API.
// Responses carry an ETag and "Cache-Control: no-cache": browsers keep
// the files but check them on every load (a conditional request answered
// 304), so a new binary's page is never mixed with an old script. Text
// files go gzipped to a client that accepts it ("Vary: Accept-Encoding"),
// compressed once, not per request; a range request gets the file as it
// is.
func Handler() http.Handler {
	assets := loaded()
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
		tag := hex.EncodeToString(sum[:12])
		a := &asset{data: data, contentType: ct, etag: `"` + tag + `"`}
		if compressible[path.Ext(name)] {
			if gz := gzipped(data); len(gz) < len(data) {
				a.gz, a.gzETag = gz, `"`+tag+`-gzip"`
			}
		}
		assets[name[len("static/"):]] = a
		return nil
	})
	return assets
}

// gzipped returns data compressed with gzip at the best compression.
func gzipped(data []byte) []byte {
	var b bytes.Buffer
	// Writing to a bytes.Buffer cannot fail, nor can a known level.
	w, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	_, _ = w.Write(data)
	_ = w.Close()
	return b.Bytes()
}

// acceptsGzip reports whether an Accept-Encoding header (RFC 9110,
// section 12.5.3) accepts gzip: named, or covered by "*", with a quality
// above zero.
func acceptsGzip(header string) bool {
	named, star := -1.0, -1.0
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(part, ";")
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					q = f
				} else {
					q = 0
				}
			}
		}
		switch strings.ToLower(strings.TrimSpace(coding)) {
		case "gzip", "x-gzip":
			named = max(named, q)
		case "*":
			star = max(star, q)
		}
	}
	if named >= 0 {
		return named > 0
	}
	return star > 0
}

// serve writes an asset with its headers; http.ServeContent answers
// If-None-Match, HEAD and ranges. The gzipped bytes have their own ETag,
// so a conditional request matches the representation it was given; a
// range is served from the file as it is, whose offsets a client knows.
func serve(w http.ResponseWriter, r *http.Request, a *asset) {
	if a == nil {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", a.contentType)
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Content-Type-Options", "nosniff")
	if a.contentType == contentTypes[".html"] {
		h.Set("Content-Security-Policy", contentSecurityPolicy)
		h.Set("Referrer-Policy", "no-referrer")
	}
	data, etag := a.data, a.etag
	if a.gz != nil {
		h.Add("Vary", "Accept-Encoding")
		if r.Header.Get("Range") == "" && acceptsGzip(strings.Join(r.Header.Values("Accept-Encoding"), ",")) {
			data, etag = a.gz, a.gzETag
			h.Set("Content-Encoding", "gzip")
		}
	}
	h.Set("ETag", etag)
	if h.Get("Content-Encoding") != "" {
		// ServeContent leaves the length of an encoded body unsaid.
		w = sizedWriter{w, len(data)}
	}
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(data))
}

// sizedWriter sends a Content-Length of size with a 200: the whole of a
// gzipped file, which http.ServeContent would send chunked.
type sizedWriter struct {
	http.ResponseWriter
	size int
}

func (w sizedWriter) WriteHeader(code int) {
	if code == http.StatusOK {
		w.Header().Set("Content-Length", strconv.Itoa(w.size))
	}
	w.ResponseWriter.WriteHeader(code)
}

// Unwrap lets an http.ResponseController reach the server's writer.
func (w sizedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
