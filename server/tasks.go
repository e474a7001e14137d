package server

import (
	"encoding/json"
	"regexp"
	"strings"
)

// Chat front ends send their own chores to the chat's model as if they
// were questions: Open WebUI asks for a title, tags and follow-up
// questions after each exchange with prompts that start "### Task:" and
// ask for a JSON object. Searching the notes for them would give every
// chat a nonsense title and cost a search each; they are answered here,
// briefly: a title made of the first question's words, and empty tags,
// follow-ups and queries.

// taskReply returns the reply to a front end's task prompt, and whether
// question is one.
func taskReply(question string) (string, bool) {
	q := strings.TrimSpace(question)
	if !strings.HasPrefix(q, "### Task:") {
		return "", false
	}
	task := strings.ToLower(q[:min(len(q), 400)])
	var reply any
	switch {
	case strings.Contains(task, "title"):
		reply = map[string]string{"title": taskTitle(q)}
	case strings.Contains(task, "tags"):
		reply = map[string][]string{"tags": {}}
	case strings.Contains(task, "follow-up") || strings.Contains(task, "follow_ups") || strings.Contains(task, "follow up"):
		reply = map[string][]string{"follow_ups": {}}
	case strings.Contains(task, "queries") || strings.Contains(task, "search quer"):
		reply = map[string][]string{"queries": {}}
	default:
		return "", true
	}
	b, _ := json.Marshal(reply)
	return string(b), true
}

// userLine finds the user's turns in the chat history a task prompt
// quotes ("USER: …").
var userLine = regexp.MustCompile(`(?m)^\s*USER:\s*(.+)$`)

// taskTitle makes a title of at most five words from the first question
// of the chat the task prompt quotes.
func taskTitle(prompt string) string {
	m := userLine.FindStringSubmatch(prompt)
	if m == nil {
		return "Oráculo"
	}
	words := strings.Fields(strings.Trim(strings.TrimSpace(m[1]), "¿?¡!.,;:"))
	if len(words) > 5 {
		words = words[:5]
	}
	if len(words) == 0 {
		return "Oráculo"
	}
	t := strings.Trim(strings.Join(words, " "), "¿?¡!.,;:")
	r := []rune(t)
	return strings.ToUpper(string(r[:1])) + string(r[1:])
}
