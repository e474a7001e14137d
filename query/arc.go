package query

import "strings"

// arcPhrases are the phrases, folded, that make a question an arc
// question. A "*" stands for one to four words (usually the entity).
var arcPhrases = parsePhrases(
	// Spanish
	"que papel", "que rol", "papel ha", "papel han", "papel tiene", "papel tuvo",
	"que fue de", "que ha sido de", "que es de", "que se hizo de",
	"cada vez que", "todas las veces", "en que ocasiones", "en cuantas ocasiones", "que ocasiones",
	"cuantas veces",
	"a lo largo de", "toda la campana", "durante la campana", "desde el principio",
	"como ha * evolucionado", "como han * evolucionado", "ha evolucionado", "han evolucionado",
	"evolucion de", "evolucion del",
	"como ha * cambiado", "como han * cambiado", "como ha cambiado", "como han cambiado",
	"en que sesiones", "en cuales sesiones", "en cuantas sesiones", "que sesiones",
	"historia de", "historia con", "trayectoria",
	// English
	"what role", "which role", "role * played", "role * play", "part * played",
	"what became of", "what has become of", "whatever happened to",
	"each time", "every time", "whenever", "all the times", "on what occasions", "on which occasions",
	"how many times",
	"over the campaign", "throughout the campaign", "across the campaign", "over the course of",
	"whole campaign", "entire campaign",
	"how has * changed", "how have * changed", "how did * change", "how has * evolved", "how have * evolved",
	"evolved", "evolution of",
	"which sessions", "what sessions", "in how many sessions",
	"history of", "history with", "story of", "whole story", "story with",
)

// IsArc reports whether question asks about an entity's role or history
// over the campaign, by the phrases that make [Analyze] say [KindArc]
// ("¿qué papel ha jugado X?", "what became of X"). The answer stage reads
// a timeline into the same phrases (see answer.AsksForTimeline).
func IsArc(question string) bool { return isArc(tokenize(question)) }

// isArc reports whether the question asks about an entity's role or
// history over the campaign.
func isArc(toks []token) bool {
	for _, p := range arcPhrases {
		for i := range toks {
			if matchAt(toks, i, p) {
				return true
			}
		}
	}
	return false
}

// matchAt reports whether phrase p matches the tokens from toks[i].
func matchAt(toks []token, i int, p []string) bool {
	if len(p) == 0 {
		return true
	}
	if p[0] == "*" {
		for skip := 1; skip <= 4 && i+skip <= len(toks); skip++ {
			if matchAt(toks, i+skip, p[1:]) {
				return true
			}
		}
		return false
	}
	return i < len(toks) && toks[i].w == p[0] && matchAt(toks, i+1, p[1:])
}

func parsePhrases(ps ...string) [][]string {
	out := make([][]string, len(ps))
	for i, p := range ps {
		out[i] = strings.Fields(p)
	}
	return out
}
