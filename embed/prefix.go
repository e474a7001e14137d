package embed

import (
	"regexp"
	"strings"
)

// e5Instruction is what the instruction-tuned E5 models
// (multilingual-e5-large-instruct, e5-mistral-7b-instruct) put before a
// retrieval query; their passages take no prefix.
const e5Instruction = "Instruct: Given a web search query, retrieve relevant passages that answer the query\nQuery: "

// e5Name matches "e5" as a name part: "multilingual-e5-small",
// "intfloat/e5-base-v2", "me5-base", but not "e5" inside other words.
var e5Name = regexp.MustCompile(`(^|[^a-z0-9])m?e5([^a-z0-9]|$)`)

// Prefixes returns the query and passage prefixes a model family needs:
//
//   - e5 ("multilingual-e5-small", "intfloat/e5-base-v2"...): "query: " and
//     "passage: "; the instruction-tuned e5 models ("...e5...instruct")
//     want "Instruct: <task>\nQuery: " before queries and nothing before
//     passages.
//   - nomic-embed-text: "search_query: " and "search_document: ".
//   - mxbai-embed-large: "Represent this sentence for searching relevant
//     passages: " before queries, nothing before passages.
//   - bge-m3 and every other model: none.
//
// Matching is by model name, case-insensitive, wherever the family name
// appears in it ("nomic-embed-text:v1.5", "hf.co/intfloat/multilingual-e5-large").
// Providers apply the prefixes; callers pass bare texts.
func Prefixes(model string) (query, passage string) {
	m := strings.ToLower(model)
	switch {
	case e5Name.MatchString(m) && strings.Contains(m, "instruct"):
		return e5Instruction, ""
	case e5Name.MatchString(m):
		return "query: ", "passage: "
	case strings.Contains(m, "nomic-embed-text"):
		return "search_query: ", "search_document: "
	case strings.Contains(m, "mxbai-embed-large"):
		return "Represent this sentence for searching relevant passages: ", ""
	}
	return "", ""
}
