package embed

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/oraculo/oraculo/internal/httpx"
	"github.com/oraculo/oraculo/internal/openaicompat"
)

// OpenAIConfig is the one configuration of OpenAI-compatible clients;
// embeddings ignore the streaming timeouts (FirstTokenTimeout,
// IdleTimeout), and Timeout bounds each request (default 60s).
type OpenAIConfig = openaicompat.Config

// OpenAI embeds texts with POST {BaseURL}/embeddings. All texts of one
// Embed call go in one request, with encoding_format "float" and the model
// family's prefixes applied. It is safe for concurrent use.
type OpenAI struct {
	ep      endpoint
	model   string
	dims    int
	id      string
	query   string // prefixes
	passage string
	cfgErr  error
}

// NewOpenAI returns an OpenAI API client. A configuration error (no
// BaseURL or Model, an unparsable BaseURL) is returned by every Embed call.
func NewOpenAI(cfg OpenAIConfig) *OpenAI {
	base, model, cfgErr := cfg.Check()
	c := &OpenAI{model: model, dims: max(cfg.Dimensions, 0), cfgErr: cfgErr}
	c.query, c.passage = Prefixes(c.model)
	c.id = "openai/" + c.model
	if c.dims > 0 {
		c.id += "@" + strconv.Itoa(c.dims)
	}
	timeout, client := httpDefaults(cfg.Timeout, cfg.Client)
	c.ep = endpoint{
		provider:        "openai",
		base:            httpx.Redact(base),
		url:             base.JoinPath("embeddings").String(),
		model:           c.model,
		apiKey:          strings.TrimSpace(cfg.APIKey),
		timeout:         timeout,
		client:          client,
		classify:        c.classify,
		unreachableHint: "is the embedding server running at that URL?",
	}
	return c
}

// ID returns "openai/<model>", with "@<dims>" when Dimensions is set.
func (c *OpenAI) ID() string { return c.id }

// openAIRequest is the body of POST /embeddings.
type openAIRequest struct {
	Model          string   `json:"model"`
	Input          []string `json:"input"`
	EncodingFormat string   `json:"encoding_format"`
	Dimensions     int      `json:"dimensions,omitempty"`
}

// openAIResponse is the answer of POST /embeddings.
type openAIResponse struct {
	Object string `json:"object"`
	Data   []struct {
		Object    string          `json:"object"`
		Index     *int            `json:"index"`
		Embedding json.RawMessage `json:"embedding"`
	} `json:"data"`
	Model string          `json:"model"`
	Error json.RawMessage `json:"error"`
}

// Embed returns one vector per text, in order, from one request.
func (c *OpenAI) Embed(ctx context.Context, kind Kind, texts []string) ([][]float32, error) {
	if c.cfgErr != nil {
		return nil, c.cfgErr
	}
	if len(texts) == 0 {
		return [][]float32{}, nil
	}
	input, err := prepare(kind, texts, c.query, c.passage)
	if err != nil {
		return nil, fmt.Errorf("openai: %w", err)
	}
	body, err := c.ep.post(ctx, openAIRequest{Model: c.model, Input: input, EncodingFormat: "float", Dimensions: c.dims})
	if err != nil {
		return nil, err
	}
	var resp openAIResponse
	if err := json.Unmarshal(body, &resp); err != nil {
		return nil, c.ep.badResponse("%s", httpx.JSONProblem(body, err))
	}
	if len(resp.Data) == 0 && len(resp.Error) > 0 && string(resp.Error) != "null" {
		return nil, c.ep.badResponse("error in a 2xx answer: %s", httpx.ParseAPIError(body).Message)
	}
	vecs, err := c.decode(resp, len(texts))
	if err != nil {
		return nil, err
	}
	if _, err := checkVectors(vecs, len(texts), c.dims); err != nil {
		hint := ""
		if c.dims > 0 && strings.Contains(err.Error(), "dimensions") {
			hint = fmt.Sprintf("the server may not support %q: leave Dimensions at 0 for it", "dimensions")
		}
		e := c.ep.badResponse("%v", err)
		e.Hint = hint
		return nil, e
	}
	return vecs, nil
}

// decode puts the answer's vectors in input order: by their index when
// the server sent indexes (in any order), as sent when it sent none.
func (c *OpenAI) decode(resp openAIResponse, n int) ([][]float32, error) {
	if len(resp.Data) != n {
		return nil, c.ep.badResponse("got %d vectors for %d texts", len(resp.Data), n)
	}
	vecs := make([][]float32, n)
	indexed := 0
	for _, d := range resp.Data {
		if d.Index != nil {
			indexed++
		}
	}
	if indexed != 0 && indexed != n {
		return nil, c.ep.badResponse("%d of %d vectors have no index", n-indexed, n)
	}
	for i, d := range resp.Data {
		at := i
		if d.Index != nil {
			at = *d.Index
			if at < 0 || at >= n {
				return nil, c.ep.badResponse("vector index %d out of range for %d texts", at, n)
			}
			if vecs[at] != nil {
				return nil, c.ep.badResponse("vector index %d sent twice", at)
			}
		}
		v, err := decodeEmbedding(d.Embedding)
		if err != nil {
			return nil, c.ep.badResponse("vector %d: %v", at, err)
		}
		if v == nil {
			v = []float32{} // an empty vector, reported by checkVectors
		}
		vecs[at] = v
	}
	return vecs, nil
}

// decodeEmbedding reads a JSON array of numbers, or the base64 string of
// little-endian float32s that encoding_format "base64" gives (some servers
// send it whatever was asked).
func decodeEmbedding(raw json.RawMessage) ([]float32, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, err
		}
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return nil, fmt.Errorf("base64: %w", err)
		}
		if len(b)%4 != 0 {
			return nil, errors.New("base64 vector is not a whole number of float32s")
		}
		v := make([]float32, len(b)/4)
		for i := range v {
			v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		}
		return v, nil
	}
	var v []float32
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	return v, nil
}

// classify maps OpenAI-style error answers to sentinels and hints.
func (c *OpenAI) classify(status int, ae httpx.APIError) (hint string, kind error) {
	if hint, kind, ok := openaicompat.Classify(status, ae, c.ep.base, c.ep.apiKey != "", ErrAuth, ErrModel); ok {
		return hint, kind
	}
	switch {
	case cannotEmbed(ae):
		return "llama-server needs --embeddings (and a pooling model); other servers need an embedding model", ErrModel
	case status == http.StatusNotFound:
		return openaicompat.NotFoundHint(c.ep.base, "embeddings"), nil
	}
	return "", nil
}
