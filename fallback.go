package oraculo

import "github.com/oraculo/oraculo/answer"

// Why an answer is extractive although a chat model was asked to write
// it (see [Answer.Fallback]).
const (
	// FallbackTimeout: the model did not answer in time: its reply did
	// not start, went silent, or never finished, or the answer's own
	// deadline came first.
	FallbackTimeout = answer.FallbackTimeout
	// FallbackError: the model failed otherwise (an error answer, a
	// malformed reply, a lost connection).
	FallbackError = answer.FallbackError
)

// FallbackNotice is an answer's Notice when it fell back (why is
// FallbackTimeout or FallbackError), in lang ("es" or "en"): that the
// chat model did not write the answer, and that the notes' own sentences
// are shown instead.
func FallbackNotice(lang, why string) string { return answer.FallbackNotice(lang, why) }
