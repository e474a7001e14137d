package rerank

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
)

// Shapes of rerank endpoints.
const (
	// ShapeJina is POST {base}/v1/rerank with {"model", "query",
	// "documents", "top_n"}, answered with {"results": [{"index",
	// "relevance_score"}, ...]}: Jina, Cohere, llama.cpp's llama-server
	// (started with --rerank), vLLM and LiteLLM.
	ShapeJina = "jina"
	// ShapeTEI is POST {base}/rerank with {"query", "texts", "truncate"},
	// answered with [{"index", "score"}, ...]: Hugging Face
	// text-embeddings-inference (also understood by llama-server).
	ShapeTEI = "tei"
)

const (
	// DefaultBudget is a cross-encoder's latency budget by default.
	DefaultBudget = 2 * time.Second
	// MaxDepth is the most candidates a cross-encoder scores in one call,
	// as many as fusion hands on.
	MaxDepth = 40
	// maxDocWords is where a candidate's text is clipped before scoring:
	// cross-encoders read 512 tokens or so, a full session is ~1200 words.
	maxDocWords = 400
	// teiMaxBatch is TEI's default --max-client-batch-size: it refuses
	// requests with more texts, so longer lists go in several requests.
	teiMaxBatch = 32
	// maxReplyBytes bounds the answer read from a rerank server.
	maxReplyBytes = 4 << 20
)

// CrossEncoder reranks with a cross-encoder behind a rerank endpoint,
// which scores each (question, candidate) pair; the text it sends for a
// candidate is its label and its text clipped to about 400 words.
//
// How many of the top candidates it sends (the depth) follows the latency
// budget: it keeps a moving estimate of the time the server takes per
// candidate and sends as many as fit in Budget, at least the n asked for
// and at most all of them (40 at most; the first call sends all). The
// candidates it does not send keep their fused order after the reranked
// ones.
//
// It keeps the fused order (see [Result.Fallback]) when the server errs,
// does not answer within twice the budget, answers something that does not
// parse, or refers to a candidate it was not sent.
//
// Use it by pointer; it is safe for concurrent use and must not be copied
// after its first use.
type CrossEncoder struct {
	// BaseURL is the server's root, e.g. "http://127.0.0.1:8080"; for
	// ShapeJina a root ending in a version ("https://api.jina.ai/v1") gets
	// "/rerank" rather than "/v1/rerank", and a URL that already ends in
	// "/rerank" is used as is.
	BaseURL string
	// Model is sent as "model" (ShapeJina only; llama-server ignores it,
	// Jina and Cohere require it).
	Model string
	// APIKey, when set, is sent as "Authorization: Bearer <key>".
	APIKey string
	// Shape is ShapeJina (the default) or ShapeTEI.
	Shape string
	// Budget is the latency the depth is chosen for; the call is abandoned
	// after twice that. Default DefaultBudget.
	Budget time.Duration
	// Client sends the requests; default http.DefaultClient.
	Client *http.Client

	mu sync.Mutex
	// perDoc is the moving estimate of the server's time per candidate;
	// 0 before the first measured call.
	perDoc time.Duration
}

var _ Reranker = (*CrossEncoder)(nil)

// Name implements [Reranker]: "cross-encoder/" and the model, or the shape
// when no model is set.
func (c *CrossEncoder) Name() string {
	if c.Model != "" {
		return "cross-encoder/" + c.Model
	}
	return "cross-encoder/" + c.shape()
}

// Rerank implements [Reranker]. The server's best n of the candidates sent
// come first, by descending score (an index it repeats counts once); when
// it scores fewer than n, the rest follow in fused order. With fewer than
// two candidates the server is not called.
func (c *CrossEncoder) Rerank(ctx context.Context, question string, cands []Candidate, n int) Result {
	start := time.Now()
	if len(cands) < 2 {
		return fallback(cands, "", start)
	}
	shape := c.shape()
	if shape != ShapeJina && shape != ShapeTEI {
		return fallback(cands, fmt.Sprintf("unknown shape %q", c.Shape), start)
	}
	endpoint, err := rerankURL(c.BaseURL, shape)
	if err != nil {
		return fallback(cands, err.Error(), start)
	}
	k := wanted(n, len(cands))
	budget := c.budget()
	depth := c.depth(k, len(cands), budget)
	docs := make([]string, depth)
	for i, cand := range cands[:depth] {
		docs[i] = document(cand)
	}

	callCtx, cancel := context.WithTimeout(ctx, 2*budget)
	defer cancel()
	sent := time.Now()
	var scores []score
	var reason string
	if shape == ShapeTEI {
		scores, reason = c.scoreTEI(callCtx, endpoint, question, docs)
	} else {
		scores, reason = c.scoreJina(callCtx, endpoint, question, docs, k)
	}
	switch reason {
	case "":
		c.observe(depth, time.Since(sent), false)
	case "timeout":
		c.observe(depth, time.Since(sent), true)
	}
	if reason != "" {
		return fallback(cands, reason, start)
	}
	best, reason := pickBest(scores, depth, k)
	if reason != "" {
		return fallback(cands, reason, start)
	}
	return Result{Order: promote(cands, best), Reranked: true, Took: time.Since(start)}
}

// shape is c.Shape normalised, ShapeJina when unset.
func (c *CrossEncoder) shape() string {
	s := strings.ToLower(strings.TrimSpace(c.Shape))
	if s == "" {
		return ShapeJina
	}
	return s
}

// budget is c.Budget or its default.
func (c *CrossEncoder) budget() time.Duration {
	if c.Budget <= 0 {
		return DefaultBudget
	}
	return c.Budget
}

// depth is how many of total candidates to send when k are wanted.
func (c *CrossEncoder) depth(k, total int, budget time.Duration) int {
	c.mu.Lock()
	perDoc := c.perDoc
	c.mu.Unlock()
	return depthFor(k, total, budget, perDoc)
}

// depthFor is how many of total candidates fit in budget at perDoc each
// (all, up to MaxDepth, when perDoc is unknown), but never fewer than k.
func depthFor(k, total int, budget, perDoc time.Duration) int {
	d := min(total, MaxDepth)
	if perDoc > 0 {
		d = min(d, int(min(budget/perDoc, MaxDepth)))
	}
	return min(max(d, k), total)
}

// observe updates the estimate of the time per candidate with a call that
// sent docs candidates and took elapsed.
func (c *CrossEncoder) observe(docs int, elapsed time.Duration, timedOut bool) {
	if docs <= 0 {
		return
	}
	per := elapsed / time.Duration(docs)
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case timedOut:
		// elapsed is only a lower bound: at least halve the next depth.
		c.perDoc = max(c.perDoc, 2*per)
	case c.perDoc == 0:
		c.perDoc = per
	default:
		// An exponential moving average that gives the last call 30%.
		c.perDoc = (7*c.perDoc + 3*per) / 10
	}
}

// versionSegment matches an API version path segment such as "v1".
var versionSegment = regexp.MustCompile(`^v[0-9]+$`)

// rerankURL is the endpoint a shape's requests go to under base.
func rerankURL(base, shape string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(base))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("bad base URL %q", base)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	last := u.Path[strings.LastIndexByte(u.Path, '/')+1:]
	switch {
	case last == "rerank":
	case shape == ShapeJina && !versionSegment.MatchString(last):
		u = u.JoinPath("v1", "rerank")
	default:
		u = u.JoinPath("rerank")
	}
	return u.String(), nil
}

// document is the text a cross-encoder scores for a candidate.
func document(c Candidate) string {
	text := clipWords(strings.TrimSpace(c.Text), maxDocWords)
	if c.Label == "" {
		return text
	}
	return c.Label + "\n" + text
}

// clipWords returns s up to the end of its limit-th word.
func clipWords(s string, limit int) string {
	words := 0
	inWord := false
	for i, r := range s {
		if !unicode.IsSpace(r) {
			inWord = true
			continue
		}
		if inWord {
			words++
			if words == limit {
				return s[:i]
			}
		}
		inWord = false
	}
	return s
}

// score is the server's score of the candidate at Index among those sent.
type score struct {
	Index int
	Score float64
}

// scoreJina asks a ShapeJina server for the top k of docs.
func (c *CrossEncoder) scoreJina(ctx context.Context, endpoint, question string, docs []string, k int) ([]score, string) {
	req := struct {
		Model     string   `json:"model,omitempty"`
		Query     string   `json:"query"`
		Documents []string `json:"documents"`
		TopN      int      `json:"top_n"`
	}{c.Model, question, docs, min(k, len(docs))}
	var reply struct {
		Results *[]struct {
			Index          *int     `json:"index"`
			RelevanceScore *float64 `json:"relevance_score"`
		} `json:"results"`
	}
	if reason := c.post(ctx, endpoint, req, &reply); reason != "" {
		return nil, reason
	}
	if reply.Results == nil {
		return nil, "unparseable reply"
	}
	scores := make([]score, 0, len(*reply.Results))
	for _, r := range *reply.Results {
		if r.Index == nil || r.RelevanceScore == nil {
			return nil, "unparseable reply"
		}
		scores = append(scores, score{*r.Index, *r.RelevanceScore})
	}
	return scores, ""
}

// scoreTEI asks a ShapeTEI server to score docs, in requests of at most
// teiMaxBatch texts.
func (c *CrossEncoder) scoreTEI(ctx context.Context, endpoint, question string, docs []string) ([]score, string) {
	scores := make([]score, 0, len(docs))
	for from := 0; from < len(docs); from += teiMaxBatch {
		batch := docs[from:min(from+teiMaxBatch, len(docs))]
		req := struct {
			Query string   `json:"query"`
			Texts []string `json:"texts"`
			// Cut texts longer than the model reads instead of refusing them.
			Truncate bool `json:"truncate"`
		}{question, batch, true}
		var reply []struct {
			Index *int     `json:"index"`
			Score *float64 `json:"score"`
		}
		if reason := c.post(ctx, endpoint, req, &reply); reason != "" {
			return nil, reason
		}
		if reply == nil {
			return nil, "unparseable reply"
		}
		for _, r := range reply {
			if r.Index == nil || r.Score == nil {
				return nil, "unparseable reply"
			}
			if *r.Index < 0 || *r.Index >= len(batch) {
				return nil, fmt.Sprintf("index %d out of range", *r.Index)
			}
			scores = append(scores, score{from + *r.Index, *r.Score})
		}
	}
	return scores, ""
}

// pickBest returns the positions of the best k of the scored candidates,
// by descending score, or a fallback reason when an index is not among the
// sent ones or nothing was scored.
func pickBest(scores []score, sent, k int) ([]int, string) {
	for _, s := range scores {
		if s.Index < 0 || s.Index >= sent {
			return nil, fmt.Sprintf("index %d out of range", s.Index)
		}
	}
	if len(scores) == 0 {
		return nil, "no results in reply"
	}
	scores = slices.Clone(scores)
	slices.SortStableFunc(scores, func(a, b score) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.Index, b.Index))
	})
	seen := make([]bool, sent)
	best := make([]int, 0, k)
	for _, s := range scores {
		if len(best) == k {
			break
		}
		if !seen[s.Index] {
			seen[s.Index] = true
			best = append(best, s.Index)
		}
	}
	return best, ""
}

// post sends payload as JSON to endpoint and decodes a 2xx answer into
// reply. It returns a fallback reason, or "".
func (c *CrossEncoder) post(ctx context.Context, endpoint string, payload, reply any) string {
	body, err := json.Marshal(payload)
	if err != nil {
		return "encoding the request: " + err.Error()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return "building the request: " + err.Error()
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if c.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.APIKey)
	}
	client := c.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return transportFailure(ctx, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxReplyBytes+1))
	if err != nil {
		return transportFailure(ctx, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Sprintf("status %d: %s", resp.StatusCode, errorMessage(data))
	}
	if len(data) > maxReplyBytes || json.Unmarshal(data, reply) != nil {
		return "unparseable reply"
	}
	return ""
}

// transportFailure is the fallback reason for a request under ctx that got
// no complete answer.
func transportFailure(ctx context.Context, err error) string {
	var ue *url.Error
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded), errors.As(err, &ue) && ue.Timeout():
		return "timeout"
	case ctx.Err() != nil:
		return "canceled"
	}
	if ue != nil {
		err = ue.Err
	}
	return "request failed: " + err.Error()
}

// errorMessage is what an error answer says, in any of the usual dialects
// ({"error": "..."}, {"error": {"message": "..."}}, {"detail": "..."},
// {"message": "..."}), or its text, clipped.
func errorMessage(body []byte) string {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Detail  json.RawMessage `json:"detail"`
		Message string          `json:"message"`
	}
	msg := ""
	if json.Unmarshal(body, &v) == nil {
		var s string
		var obj struct {
			Message string `json:"message"`
		}
		switch {
		case json.Unmarshal(v.Error, &s) == nil && s != "":
			msg = s
		case json.Unmarshal(v.Error, &obj) == nil && obj.Message != "":
			msg = obj.Message
		case json.Unmarshal(v.Detail, &s) == nil && s != "":
			msg = s
		default:
			msg = v.Message
		}
	}
	if msg == "" {
		msg = string(body)
	}
	msg = strings.Join(strings.Fields(msg), " ")
	if len(msg) > 200 {
		cut := 200
		for cut > 0 && !utf8.RuneStart(msg[cut]) {
			cut--
		}
		msg = msg[:cut] + "…"
	}
	return msg
}
