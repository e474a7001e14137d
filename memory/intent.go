package memory

import "strings"

// Intents a chat line may carry.
const (
	IntentRemember = "remember"
	IntentForget   = "forget"
)

// intents are the openings of a chat line that asks to remember or to
// forget, longest first within each.
var intents = []struct{ prefix, kind string }{
	{"recuerda que ", IntentRemember}, {"recuerda: ", IntentRemember}, {"recordad que ", IntentRemember},
	{"apunta que ", IntentRemember}, {"remember that ", IntentRemember}, {"remember: ", IntentRemember},
	{"olvida que ", IntentForget}, {"olvida lo de ", IntentForget}, {"olvida ", IntentForget},
	{"forget that ", IntentForget}, {"forget about ", IntentForget}, {"forget ", IntentForget},
}

// Intent reads a chat line that asks to remember something ("recuerda que
// …", "remember that …") or to forget it ("olvida …", "forget …"): the
// intent and what follows, trimmed of final punctuation; "" when the line
// is a question like any other.
func Intent(line string) (intent, rest string) {
	l := strings.TrimLeft(strings.TrimSpace(line), "¡¿")
	low := strings.ToLower(l)
	for _, m := range intents {
		if strings.HasPrefix(low, m.prefix) {
			rest = strings.TrimSpace(strings.TrimRight(l[len(m.prefix):], " .!?¡¿"))
			if rest == "" {
				return "", ""
			}
			return m.kind, rest
		}
	}
	return "", ""
}

// Key proposes a key for a value to remember: the text before a colon
// when it has one early ("críticos: …"), else its first words, at most
// four, lower-cased.
func Key(text string) (key, value string) {
	if k, v, ok := strings.Cut(text, ":"); ok && len(strings.Fields(k)) <= 5 && strings.TrimSpace(v) != "" {
		return strings.ToLower(strings.TrimSpace(k)), strings.TrimSpace(v)
	}
	words := strings.Fields(text)
	if len(words) > 4 {
		words = words[:4]
	}
	return strings.ToLower(strings.Trim(strings.Join(words, " "), " ,.;")), strings.TrimSpace(text)
}
