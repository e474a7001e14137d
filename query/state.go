package query

import "math"

// lastingPhrases are the phrases, folded, of a question about a lasting
// state: whether someone is still alive, still somewhere, who leads
// something. Named with a session ("en la sesión 20, ¿seguía vivo?"),
// such a question asks about the campaign as it stood then.
var lastingPhrases = parsePhrases(
	// Spanish
	"sigue", "siguen", "seguia", "seguian", "todavia", "aun",
	"vivo", "viva", "vivos", "vivas", "muerto", "muerta", "muertos", "muertas", "con vida",
	"quien lidera", "quien lideraba", "quien dirige", "quien dirigia", "quien gobierna", "quien gobernaba",
	"quien manda", "quien mandaba", "quien controla", "quien controlaba", "quien encabeza", "quien encabezaba",
	"al mando", "lider de", "lider del", "lideres de", "jefe de", "jefe del", "jefa de", "jefa del",
	"actualmente", "a dia de hoy", "hoy en dia", "en este momento", "ahora mismo",
	// English
	"still", "alive", "dead", "anymore", "currently", "right now", "these days",
	"who leads", "who led", "who rules", "who ruled", "who runs", "who ran", "who controls", "who controlled",
	"who commands", "who commanded", "who heads", "who headed", "in charge", "leader of",
)

// wherePhrases are the phrases of a question about where something is
// now: a state question, but one whose session names the moment itself
// ("¿dónde estaba Harbin en la sesión 12?" is about session 12).
var wherePhrases = parsePhrases(
	"donde esta", "donde estan", "donde se encuentra", "donde se encuentran", "donde vive", "donde viven",
	"donde * ahora", "where is", "where are", "where * now", "where does * live", "where do * live",
)

// IsState reports whether question asks for the current state of
// something, by the phrases that make [Analyze] set State: whether it is
// still alive or somewhere ("¿sigue vivo Harbin?", "is Kael still
// alive?"), where it is now ("¿dónde está ahora la espada?", "where is
// Kael now?"), who leads something ("¿quién lidera la Mano Gris?", "who
// leads the guild?"). The answer is its latest account.
func IsState(question string) bool { return isState(tokenize(question)) }

func isState(toks []token) bool {
	return anyPhrase(toks, lastingPhrases) || anyPhrase(toks, wherePhrases)
}

// lasting reports whether toks ask about a lasting state (lastingPhrases).
func lasting(toks []token) bool { return anyPhrase(toks, lastingPhrases) }

// anyPhrase reports whether one of ps matches somewhere in toks.
func anyPhrase(toks []token, ps [][]string) bool {
	for _, p := range ps {
		for i := range toks {
			if matchAt(toks, i, p) {
				return true
			}
		}
	}
	return false
}

// asOf turns "la sesión 20" into "hasta la sesión 20": a mention of one
// numbered session becomes the sessions up to it. Any other mention is
// returned as it is.
func (m mention) asOf() mention {
	if m.rel != noRelation || len(m.ranges) > 0 || len(m.nums) != 1 || m.nums[0] < 1 {
		return m
	}
	m.ranges, m.until = [][2]int{{math.MinInt, m.nums[0]}}, m.nums[0]
	m.nums = nil
	return m
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
