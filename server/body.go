package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"strings"
	"time"
)

// Bounds on reading what is left of a refused body. Reading it lets a
// client that sends its whole body before it reads the answer (most
// simple clients) see the 413 instead of a reset connection; the bounds
// keep a client that never stops sending from holding the server.
var (
	drainMaxBytes int64 = 32 << 20
	drainTimeout        = 10 * time.Second
)

// limitBody refuses bodies over MaxBodyBytes with a 413: before reading
// when the length is declared, as soon as the limit is passed otherwise
// (decode answers). A refused request's connection is closed after the
// answer, once what is left of the body has been read within the drain
// bounds.
func (s *Server) limitBody(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody {
			next.ServeHTTP(w, r)
			return
		}
		raw := r.Body
		if r.ContentLength > s.cfg.MaxBodyBytes {
			refuseBody(w)
			writeError(w, r, http.StatusRequestEntityTooLarge, tooLargeMessage(s.cfg.MaxBodyBytes))
			drain(w, r, raw)
			return
		}
		body := &limitedBody{body: raw, w: w, limit: s.cfg.MaxBodyBytes, left: s.cfg.MaxBodyBytes}
		r.Body = body
		next.ServeHTTP(w, r)
		if body.passed {
			drain(w, r, raw)
		}
	})
}

func tooLargeMessage(limit int64) string {
	return fmt.Sprintf("the body is larger than %d bytes", limit)
}

// refuseBody prepares the answer to a refused body: the connection closes
// after it, and the body may still be read once the answer is written.
// Without Connection: close the server would read (or give up on) the
// rest of the body itself before answering.
func refuseBody(w http.ResponseWriter) {
	w.Header().Set("Connection", "close")
	_ = http.NewResponseController(w).EnableFullDuplex()
}

// drain sends the answer written so far, then reads and drops what is left
// of a refused body, within drainMaxBytes and drainTimeout. A body
// declared larger than that is not read at all, nor one whose client
// waits for "100 Continue", which it never gets.
func drain(w http.ResponseWriter, r *http.Request, body io.Reader) {
	rc := http.NewResponseController(w)
	_ = rc.Flush()
	if r.ContentLength > drainMaxBytes || strings.EqualFold(r.Header.Get("Expect"), "100-continue") {
		return
	}
	_ = rc.SetReadDeadline(time.Now().Add(drainTimeout))
	_, _ = io.CopyN(io.Discard, body, drainMaxBytes)
}

// limitedBody is a request body cut at limit bytes, like
// http.MaxBytesReader (its error is an *http.MaxBytesError), except that
// passing the limit prepares a 413 that the client can read (refuseBody)
// and leaves the rest of the body to limitBody.
type limitedBody struct {
	body   io.ReadCloser
	w      http.ResponseWriter
	limit  int64
	left   int64
	passed bool
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.passed {
		return 0, &http.MaxBytesError{Limit: b.limit}
	}
	if len(p) == 0 {
		return 0, nil
	}
	// One byte more than is left tells whether the limit is passed.
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.body.Read(p)
	if int64(n) <= b.left {
		b.left -= int64(n)
		return n, err
	}
	n, b.left, b.passed = int(b.left), 0, true
	refuseBody(b.w)
	return n, &http.MaxBytesError{Limit: b.limit}
}

func (b *limitedBody) Close() error { return b.body.Close() }

// jsonType reports whether a Content-Type names JSON: application/json or
// application/*+json, with any parameters. No Content-Type counts as
// JSON, for curl scripts that do not say.
func jsonType(contentType string) bool {
	if strings.TrimSpace(contentType) == "" {
		return true
	}
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return false
	}
	sub, ok := strings.CutPrefix(mt, "application/")
	return ok && (sub == "json" || strings.HasSuffix(sub, "+json"))
}

// decode reads a JSON body into v; on failure it answers 415 (not JSON),
// 400, 408 or 413 and returns false. strict refuses unknown fields (our own
// API, where a typo should not pass silently; not the OpenAI one, whose
// clients send many).
func decode(w http.ResponseWriter, r *http.Request, v any, strict bool) bool {
	if ct := r.Header.Get("Content-Type"); !jsonType(ct) {
		// Read (within the limit) and drop the body, so that the
		// connection stays usable.
		_, _ = io.Copy(io.Discard, r.Body)
		writeError(w, r, http.StatusUnsupportedMediaType, fmt.Sprintf("the body must be JSON (Content-Type: application/json), not %q", ct))
		return false
	}
	dec := json.NewDecoder(r.Body)
	if strict {
		dec.DisallowUnknownFields()
	}
	err := dec.Decode(v)
	if err == nil && dec.More() {
		err = errors.New("more than one JSON value")
	}
	var tooLarge *http.MaxBytesError
	switch {
	case err == nil:
		return true
	case errors.As(err, &tooLarge):
		writeError(w, r, http.StatusRequestEntityTooLarge, tooLargeMessage(tooLarge.Limit))
	case errors.Is(err, os.ErrDeadlineExceeded):
		// The server's read timeout passed while the body came in.
		writeError(w, r, http.StatusRequestTimeout, "the body took too long to arrive")
	default:
		writeError(w, r, http.StatusBadRequest, "invalid JSON body: "+err.Error())
	}
	return false
}
