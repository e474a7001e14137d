package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/link"
)

// Search's result size: the default and the most a call may ask for.
const (
	DefaultK = 8
	MaxK     = 50
)

// excerptWords is the most words a hit's excerpt has.
const excerptWords = 80

const searchDescription = `Search the notes for a question or keywords and return the best-ranked chunks (BM25, dense vectors and named entities, fused). Each hit has an id (read it whole with read_chunk), the label to cite it by, its file and heading path, a score, the rank each retrieval path gave it, and an excerpt. Prefer "ask" for an answer; use "search" to explore or to check what the notes hold.`

// SearchInput is the search tool's input.
type SearchInput struct {
	Question string   `json:"question" jsonschema:"the question or keywords to search for, in the notes' language when possible"`
	K        int      `json:"k,omitempty" jsonschema:"how many chunks to return (default 8, at most 50)"`
	Filters  *Filters `json:"filters,omitempty" jsonschema:"restrict the search to some sessions, folders or tags before ranking"`
}

// Filters restrict a search or an answer before anything is ranked. Each
// given field must hold; within a field any value may.
type Filters struct {
	Sessions []int    `json:"sessions,omitempty" jsonschema:"only these session numbers"`
	Folders  []string `json:"folders,omitempty" jsonschema:"only notes under these folders (relative paths, any case), e.g. NPCs"`
	Tags     []string `json:"tags,omitempty" jsonschema:"only notes whose front matter has one of these tags"`
	// UntilSession keeps the sessions up to it: the campaign as it stood then.
	UntilSession int `json:"until_session,omitempty" jsonschema:"only the sessions up to this one (the campaign as it stood then; notes of no session left out)"`
}

// filter is f as the engine's filter (none for nil).
func (f *Filters) filter() oraculo.Filter {
	if f == nil {
		return oraculo.Filter{}
	}
	return oraculo.Filter{Sessions: f.Sessions, Folders: f.Folders, Tags: f.Tags, UntilSession: max(f.UntilSession, 0)}
}

// SearchOutput is the search tool's result.
type SearchOutput struct {
	Question string      `json:"question" jsonschema:"the question searched"`
	Hits     []SearchHit `json:"hits" jsonschema:"the chunks found, best first"`
}

// SearchHit is one chunk found by the search tool.
type SearchHit struct {
	Rank     int            `json:"rank" jsonschema:"1 for the best hit"`
	ID       string         `json:"id" jsonschema:"the chunk's id, for read_chunk"`
	Label    string         `json:"label" jsonschema:"what to cite the chunk by, e.g. Sesión 17"`
	File     string         `json:"file" jsonschema:"the note's path, relative to the ingested folder (for read_note)"`
	Headings []string       `json:"headings" jsonschema:"the chunk's heading path, outermost first"`
	Session  *int           `json:"session,omitempty" jsonschema:"the session number, when the chunk belongs to one"`
	Score    float64        `json:"score" jsonschema:"the fused score; higher is better"`
	Paths    map[string]int `json:"paths" jsonschema:"each retrieval path that found the chunk (bm25, dense, entity) and its rank there"`
	Excerpt  string         `json:"excerpt" jsonschema:"the paragraph that matched best, or else the chunk's opening, on one line and clipped; read_chunk gives the whole text"`
}

// searchInputSchema is SearchInput's schema with k's range and default,
// which struct tags cannot say.
func searchInputSchema() *jsonschema.Schema {
	s := mustSchema[SearchInput]()
	minK, maxK := 1.0, float64(MaxK)
	k := s.Properties["k"]
	k.Minimum, k.Maximum = &minK, &maxK
	k.Default = json.RawMessage(fmt.Sprint(DefaultK))
	return s
}

// mustSchema infers T's input schema and requires its string field
// "question", when it has one, not to be empty. Only a programming error
// (a type the inference rejects) makes it fail, so it panics then.
func mustSchema[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(fmt.Sprintf("mcpserver: inferring an input schema: %v", err))
	}
	if q, ok := s.Properties["question"]; ok {
		one := 1
		q.MinLength = &one
	}
	return s
}

func (t *tools) search(ctx context.Context, _ *mcp.CallToolRequest, in SearchInput) (*mcp.CallToolResult, SearchOutput, error) {
	q := strings.TrimSpace(in.Question)
	if q == "" {
		return nil, SearchOutput{}, errors.New("the question is empty")
	}
	k := in.K
	switch {
	case k <= 0:
		k = DefaultK
	case k > MaxK:
		k = MaxK
	}
	hits, err := t.eng.Search(ctx, q, oraculo.SearchOptions{K: k, Filter: in.Filters.filter()})
	if err != nil {
		return nil, SearchOutput{}, t.failure(ctx, "search", err)
	}
	out := SearchOutput{Question: q, Hits: make([]SearchHit, len(hits))}
	for i, h := range hits {
		out.Hits[i] = SearchHit{
			Rank: h.Rank, ID: h.ID, Label: h.Label, File: h.File, Headings: nonNil(h.Headings), Session: h.Session,
			Score: h.Score, Paths: h.Paths, Excerpt: excerpt(h),
		}
		if out.Hits[i].Paths == nil {
			out.Hits[i].Paths = map[string]int{}
		}
	}
	return textResult(searchText(out)), out, nil
}

// searchText is a search result as a reader would want it.
func searchText(out SearchOutput) string {
	if len(out.Hits) == 0 {
		return fmt.Sprintf("Nothing in the notes matches %q.", out.Question)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d chunks for %q, best first:\n", len(out.Hits), out.Question)
	for _, h := range out.Hits {
		fmt.Fprintf(&b, "\n%d. [%s] %s", h.Rank, h.Label, h.File)
		if len(h.Headings) > 0 {
			fmt.Fprintf(&b, " › %s", link.Render(strings.Join(h.Headings, " › ")))
		}
		fmt.Fprintf(&b, "\n   id %s · score %.4g\n   %s\n", h.ID, h.Score, h.Excerpt)
	}
	return b.String()
}

// excerpt is a hit's best paragraph, or else the opening of its text, on
// one line and clipped to excerptWords words.
func excerpt(h oraculo.Hit) string {
	if strings.TrimSpace(h.Passage) != "" {
		return clipWords(link.Render(h.Passage), excerptWords)
	}
	return clipWords(link.Render(h.Text), excerptWords)
}

// clipWords returns text's first n words on one line, marked with an
// ellipsis when it had more.
func clipWords(text string, n int) string {
	words := strings.Fields(text)
	if len(words) <= n {
		return strings.Join(words, " ")
	}
	return strings.Join(words[:n], " ") + " …"
}

// textResult is a tool result whose text content is s; the SDK adds the
// structured content.
func textResult(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

// nonNil returns s, or an empty slice for nil, so that JSON says [] and
// not null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
