package answer

import "strings"

// Turn is one earlier exchange of a conversation. Its JSON shape is
// public (the engine's Turn).
type Turn struct {
	Question string `json:"question"`
	// Answer is what was answered; it may be empty.
	Answer string `json:"answer,omitempty"`
	// Query is what that turn searched (its answer's Query), or "": a
	// follow-up of a follow-up then keeps the conversation's subject.
	Query string `json:"query,omitempty"`
	// Sessions are the sessions its answer cited (see
	// [Answer.CitedSessions]), or none: a continuation ("¿y después?")
	// searches the sessions after the last of them.
	Sessions []int `json:"sessions,omitempty"`
}

// Conversation is a question read in the light of the turns before it.
type Conversation struct {
	// Query is what to search: the question, or the previous turn's query
	// and the question when it does not stand alone (see [FollowUp]).
	Query string
	// FollowUp reports that Query was expanded.
	FollowUp bool
	// Continues reports a question that asks what happened next (see
	// [Continues]): Query is then the previous turn's subject alone, to
	// search in the sessions after those Previous cited.
	Continues bool
	// Previous is the turn the question follows, when there is one.
	Previous Turn
	// History holds the earlier turns as the model sees them, oldest
	// first: each question as a RoleUser message, followed by its answer
	// as a RoleAssistant message when there was one.
	History []Message
}

// Converse expands question with the turns before it, oldest first, for
// retrieval only: the question the model answers is still question. Turns
// whose question is blank are ignored. The last remaining turn is the
// previous one: its Query, or else its Question, is what [FollowUp] joins
// to question when question does not stand alone. A question that asks
// only what happened next ([Continues]) searches that previous query
// alone, in the sessions after those the previous turn cited (see
// [Conversation.After]). names is as for [FollowUp].
func Converse(question string, turns []Turn, names func(string) bool) Conversation {
	var c Conversation
	previous := ""
	for _, t := range turns {
		if strings.TrimSpace(t.Question) == "" {
			continue
		}
		c.Previous, previous = t, t.Question
		if t.Query != "" {
			previous = t.Query
		}
		c.History = append(c.History, Message{Role: RoleUser, Content: t.Question})
		if t.Answer != "" {
			c.History = append(c.History, Message{Role: RoleAssistant, Content: t.Answer})
		}
	}
	c.Query, c.FollowUp = FollowUp(question, previous, names)
	if c.FollowUp && Continues(question) {
		// The time word is no subject: "después" would find "años
		// después de la erupción" rather than what came next.
		c.Query, c.Continues = strings.TrimSpace(previous), true
	}
	return c
}
