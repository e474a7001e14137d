// Package embed turns texts into dense vectors for Oráculo's dense
// retrieval path.
//
// Three providers implement Embedder:
//
//   - Ollama speaks Ollama's native POST /api/embed.
//   - OpenAI speaks the OpenAI embeddings API (POST {base}/embeddings), also
//     served by llama.cpp's llama-server, vLLM, Hugging Face TEI and LocalAI.
//   - Hashing is a deterministic, model-free feature-hashing embedder for
//     tests, benchmarks and the evaluation harness. It is not semantic.
//
// Providers send one request per Embed call; Batch splits large inputs,
// runs a few requests at once, retries what is worth retrying and hands
// each finished batch to the caller so that an ingest can store vectors as
// they come and resume after an interruption.
//
// Vectors are returned as the server sent them (Ollama's are unit length,
// OpenAI's usually are, others may not be); use Normalize before comparing
// them by dot product. Vectors of different Embedder IDs must never be
// compared or stored together.
package embed

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/oraculo/oraculo/internal/httpx"
)

// Kind says what a text is, for models that want different prefixes.
type Kind int

const (
	// Query is a question.
	Query Kind = iota
	// Passage is a chunk of the notes.
	Passage
)

// String returns "query" or "passage".
func (k Kind) String() string {
	switch k {
	case Query:
		return "query"
	case Passage:
		return "passage"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Embedder turns texts into vectors.
type Embedder interface {
	// ID names the model and everything that changes its vectors, e.g.
	// "ollama/bge-m3" or "openai/text-embedding-3-small@256" or
	// "hashing/v1.1-384". Vectors of different IDs never mix.
	ID() string
	// Embed returns one vector per text, in order. Implementations send one
	// request per call (callers batch); vectors are returned as the server
	// sent them (not normalised).
	Embed(ctx context.Context, kind Kind, texts []string) ([][]float32, error)
}

// Errors callers tell apart. Providers wrap them (see Error), naming the
// provider, the server's URL and the model; test with errors.Is.
var (
	// ErrUnreachable means the server is not there: connection refused,
	// DNS failure, connection dropped, or no answer within the timeout.
	// Retrying later may help.
	ErrUnreachable = errors.New("server unreachable")
	// ErrModel means the server answered that the model does not exist,
	// is not loaded or cannot embed. Retrying will not help; the
	// configuration (or "ollama pull") must change.
	ErrModel = errors.New("model not available")
	// ErrAuth means the server refused the credentials (401 or 403).
	ErrAuth = errors.New("not authorized")
	// ErrResponse means the server answered 2xx with something unusable:
	// malformed JSON, the wrong number of vectors, an empty, zero or
	// non-finite vector, or vectors of different dimensions.
	ErrResponse = errors.New("invalid response")
	// ErrEmptyText means a text to embed was empty or only white space (or,
	// for Hashing, had no words). Nothing is sent for it: skip such texts.
	ErrEmptyText = errors.New("empty text")
)

// Error is a failed provider request. Its message names the provider, the
// server's URL and the model, says what happened (with the server's own
// message when there was one) and, where known, how to fix it:
//
//	ollama at "http://127.0.0.1:11434": model "bge-m3": model "bge-m3" not found, try pulling it first (HTTP 404; run "ollama pull bge-m3"): model not available
//
// Its Kind is ErrUnreachable, ErrModel, ErrAuth, ErrResponse or nil;
// errors.Is matches Kind and Err (the underlying cause, such as a
// *url.Error or context.DeadlineExceeded).
type Error = httpx.Error

// Retryable reports whether err is worth retrying later: the server was
// unreachable or timed out, or answered 408, 429 or a 5xx other than 501
// (not implemented). ErrModel, ErrAuth, ErrResponse, ErrEmptyText and
// cancellations are never retryable.
func Retryable(err error) bool {
	switch {
	case err == nil,
		errors.Is(err, context.Canceled),
		errors.Is(err, ErrModel), errors.Is(err, ErrAuth),
		errors.Is(err, ErrResponse), errors.Is(err, ErrEmptyText):
		return false
	case errors.Is(err, ErrUnreachable):
		return true
	}
	var e *Error
	if errors.As(err, &e) {
		return retryableStatus(e.Status)
	}
	return false
}

// retryableStatus reports whether an HTTP status says "try again later".
func retryableStatus(status int) bool {
	switch {
	case status == 408, status == 429:
		return true
	case status == 501, status == 505:
		return false
	}
	return status >= 500 && status <= 599
}

// checkVectors verifies that vecs holds n usable vectors of one length:
// dims when dims > 0, else the length of the first. It returns that length.
// The error describes the first problem found; callers wrap ErrResponse.
func checkVectors(vecs [][]float32, n, dims int) (int, error) {
	if len(vecs) != n {
		return 0, fmt.Errorf("got %d vectors for %d texts", len(vecs), n)
	}
	for i, v := range vecs {
		if len(v) == 0 {
			return 0, fmt.Errorf("vector %d is empty", i)
		}
		if dims <= 0 {
			dims = len(v)
		}
		if len(v) != dims {
			if i == 0 {
				return 0, fmt.Errorf("vector 0 has %d dimensions, want %d", len(v), dims)
			}
			return 0, fmt.Errorf("vector %d has %d dimensions, vector 0 has %d", i, len(v), dims)
		}
		var sum float64
		for j, x := range v {
			f := float64(x)
			if math.IsNaN(f) || math.IsInf(f, 0) {
				return 0, fmt.Errorf("vector %d has a non-finite value (%v) at %d", i, x, j)
			}
			sum += f * f
		}
		if sum == 0 {
			return 0, fmt.Errorf("vector %d is all zeros", i)
		}
	}
	return dims, nil
}

// prepare checks that no text is blank and applies the prefix for kind.
func prepare(kind Kind, texts []string, query, passage string) ([]string, error) {
	prefix := passage
	if kind == Query {
		prefix = query
	}
	out := make([]string, len(texts))
	for i, t := range texts {
		if strings.TrimSpace(t) == "" {
			return nil, fmt.Errorf("text %d: %w", i, ErrEmptyText)
		}
		out[i] = prefix + t
	}
	return out, nil
}
