package chat

import "context"

// Probe asks m for a reply of a few words to prompt.
func Probe(ctx context.Context, m Model, prompt string) (string, error) {
	return m.Chat(ctx, Request{Messages: []Message{{Role: RoleUser, Content: prompt}}, MaxTokens: 16}, nil)
}
