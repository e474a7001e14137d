package server

import (
	"crypto/rand"
	"encoding/hex"
	"sync"
)

// responseMemoryBytes bounds the text a server keeps of its recent
// responses (see responseMemory): past it, the oldest are forgotten.
const responseMemoryBytes = 16 << 20

// responseMemory keeps the conversations of recent responses, in memory
// only (a restart forgets them), so that a client may go on with one by
// previous_response_id or refer to an earlier answer by item_reference,
// as OpenAI's stored responses allow (the AI SDK's OpenAI provider refers
// to its earlier answers so by default). Each is found only by the
// caller that got it: the same token name and role.
type responseMemory struct {
	mu      sync.Mutex
	entries map[string]*keptResponse // by response id and by message id
	order   []*keptResponse          // oldest first
	size    int
}

// keptResponse is one response's conversation: the messages it was given
// (after the previous response's, if any) and its answer, the last.
type keptResponse struct {
	respID, msgID string
	owner         string
	msgs          []chatMessage
	size          int
}

// newResponseIDs returns a new response's id and its message's: random,
// so that nobody can guess another's.
func newResponseIDs() (respID, msgID string) {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	id := hex.EncodeToString(b)
	return "resp_" + id, "msg_" + id
}

// keep remembers the conversation msgs (its last message the answer)
// under both ids, for owner; the user and assistant messages only.
func (m *responseMemory) keep(owner, respID, msgID string, msgs []chatMessage) {
	k := &keptResponse{respID: respID, msgID: msgID, owner: owner}
	for _, msg := range msgs {
		if msg.Role == "user" || msg.Role == "assistant" {
			k.msgs = append(k.msgs, msg)
			k.size += len(msg.Content)
		}
	}
	if k.size > responseMemoryBytes/4 {
		return // one conversation may not push out all the others
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.entries == nil {
		m.entries = map[string]*keptResponse{}
	}
	m.entries[respID], m.entries[msgID] = k, k
	m.order = append(m.order, k)
	m.size += k.size
	for m.size > responseMemoryBytes {
		old := m.order[0]
		m.order[0] = nil
		m.order = m.order[1:]
		delete(m.entries, old.respID)
		delete(m.entries, old.msgID)
		m.size -= old.size
	}
}

// conversation is the conversation of the response respID, as its owner
// gave it and got its answer; false if there is none for owner.
func (m *responseMemory) conversation(owner, respID string) ([]chatMessage, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	k, ok := m.entries[respID]
	if !ok || k.owner != owner || k.respID != respID {
		return nil, false
	}
	return append([]chatMessage(nil), k.msgs...), true
}

// answer is the answer whose message id is msgID, for its owner.
func (m *responseMemory) answer(owner, msgID string) (chatMessage, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	k, ok := m.entries[msgID]
	if !ok || k.owner != owner || k.msgID != msgID {
		return chatMessage{}, false
	}
	return k.msgs[len(k.msgs)-1], true
}
