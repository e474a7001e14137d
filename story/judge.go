package story

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/oraculo/oraculo/analysis"
	"github.com/oraculo/oraculo/chat"
	"github.com/oraculo/oraculo/store"
)

// JudgeTimeout bounds one call to the chat model judging a pair.
const JudgeTimeout = 30 * time.Second

// judgePrompt names the prompt's version: a new prompt judges again.
const judgePrompt = "check-v1"

// verdict is what the model said of a pair, as cached.
type verdict struct {
	Verdict string `json:"verdict"`
	Reason  string `json:"reason"`
}

// judgeAll has model judge each pair (one call per pair), or reads the
// verdict cached in settings under the pair's statements and the model;
// without a model every pair stays unjudged. A model that misbehaves
// (an error, a timeout, a reply that is not the JSON asked for) leaves
// its pair unjudged and says so in the warnings returned.
func judgeAll(ctx context.Context, st store.Settings, model chat.Model, cs []Contradiction) []string {
	if model == nil {
		return nil
	}
	var warnings []string
	for i := range cs {
		c := &cs[i]
		key := cacheKey(c, model.ID())
		if raw, err := st.Meta(ctx, key); err == nil && raw != "" {
			var v verdict
			if json.Unmarshal([]byte(raw), &v) == nil && validVerdict(v.Verdict) {
				c.Verdict, c.Reason = v.Verdict, v.Reason
				continue
			}
		}
		v, err := judge(ctx, model, *c)
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("the chat model could not judge %q (%s and %s): %v", c.Entity, c.First.File, c.Second.File, err))
			continue
		}
		c.Verdict, c.Reason = v.Verdict, v.Reason
		if raw, err := json.Marshal(v); err == nil {
			if err := st.SetMeta(ctx, key, string(raw)); err != nil {
				warnings = append(warnings, fmt.Sprintf("keeping the verdict on %q: %v", c.Entity, err))
			}
		}
	}
	return warnings
}

// cacheKey is the setting a pair's verdict is kept under: the pair's
// statements (their chunks' hashes, and for a field the values) and the
// model.
func cacheKey(c *Contradiction, model string) string {
	sum := sha256.Sum256([]byte(judgePrompt + "\x00" + c.Kind + "\x00" + c.key + "\x00" + c.First.Text + "\x00" + c.Second.Text + "\x00" + model))
	return "check/" + hex.EncodeToString(sum[:16])
}

func validVerdict(v string) bool { return v == VerdictContradiction || v == VerdictConsistent }

// judge asks the model about one pair, in the notes' language.
func judge(ctx context.Context, model chat.Model, c Contradiction) (verdict, error) {
	ctx, cancel := context.WithTimeout(ctx, JudgeTimeout)
	defer cancel()
	lang, _ := analysis.NoteLang(c.First.Text + " " + c.Second.Text)
	reply, err := model.Chat(ctx, chat.Request{JSON: true, MaxTokens: 200, Messages: []chat.Message{
		{Role: chat.RoleSystem, Content: judgeSystem[lang == "es"]},
		{Role: chat.RoleUser, Content: judgeQuestion(c, lang == "es")},
	}}, nil)
	if err != nil {
		return verdict{}, err
	}
	return parseVerdict(reply)
}

var judgeSystem = map[bool]string{
	false: `You check a tabletop campaign's notes for continuity errors. You are shown two statements from the notes about the same entity. Say whether they contradict each other (the later one cannot be true if the earlier one is) or are consistent (a resurrection, a return, a flashback, a ghost, a mistake of yours in reading them). Reply only with JSON: {"verdict": "contradiction" or "consistent", "reason": "one short sentence"}.`,
	true:  `Revisas las notas de una campaña de rol en busca de errores de continuidad. Se te muestran dos afirmaciones de las notas sobre la misma entidad. Di si se contradicen (la posterior no puede ser cierta si la anterior lo es) o son coherentes (una resurrección, un regreso, un recuerdo, un fantasma, una lectura equivocada). Responde solo con JSON: {"verdict": "contradiction" o "consistent", "reason": "una frase corta en español"}.`,
}

// judgeQuestion shows the model the pair, each statement with where it
// comes from.
func judgeQuestion(c Contradiction, es bool) string {
	where := func(m Moment) string {
		if m.Session != nil {
			if es {
				return fmt.Sprintf("%s, sesión %d", m.File, *m.Session)
			}
			return fmt.Sprintf("%s, session %d", m.File, *m.Session)
		}
		return m.File
	}
	label := [2]string{"Entity", "First statement"}
	second := "Later statement"
	if es {
		label, second = [2]string{"Entidad", "Primera afirmación"}, "Afirmación posterior"
	}
	return fmt.Sprintf("%s: %s\n%s (%s): %s\n%s (%s): %s", label[0], c.Entity, label[1], where(c.First), c.First.Text, second, where(c.Second), c.Second.Text)
}

// parseVerdict reads the model's reply: a JSON object with a verdict,
// after any reasoning block the server left in.
func parseVerdict(reply string) (verdict, error) {
	if i := strings.LastIndex(strings.ToLower(reply), "</think>"); i >= 0 {
		reply = reply[i+len("</think>"):]
	}
	start, end := strings.Index(reply, "{"), strings.LastIndex(reply, "}")
	if start < 0 || end < start {
		return verdict{}, fmt.Errorf("the reply is not JSON: %q", clip(reply, 80))
	}
	var v verdict
	if err := json.Unmarshal([]byte(reply[start:end+1]), &v); err != nil {
		return verdict{}, fmt.Errorf("the reply is not the JSON asked for: %w", err)
	}
	switch strings.ToLower(strings.TrimSpace(v.Verdict)) {
	case "contradiction", "contradicción", "contradiccion", "contradictory":
		v.Verdict = VerdictContradiction
	case "consistent", "coherente", "coherentes", "consistente", "consistentes":
		v.Verdict = VerdictConsistent
	default:
		return verdict{}, fmt.Errorf("the reply's verdict %q is neither contradiction nor consistent", v.Verdict)
	}
	v.Reason = strings.TrimSpace(v.Reason)
	return v, nil
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
