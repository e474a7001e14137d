package answer

import (
	"strings"

	txt "github.com/oraculo/oraculo/text"
)

// Roles of a [Message].
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// Message is one message of a prompt: what the chat model is sent, in the
// roles every chat API shares. The caller converts it to its client's type.
type Message struct {
	// Role is RoleSystem, RoleUser or RoleAssistant.
	Role    string
	Content string
}

// AnnotationPromptVersion identifies the wording of [AnnotationPrompt]; it
// is part of the annotation cache key, so change it whenever the wording
// changes.
const AnnotationPromptVersion = "a1"

// AnnotationKey is the version key of annotations made in lang (the notes'
// language): the prompt's version and the language.
func AnnotationKey(lang string) string { return AnnotationPromptVersion + "-" + lang }

// promptText is the fixed wording of the prompts in one language. None of
// it holds a digit, an example label or a square bracket: a model copies a
// concrete example ("Session 119") into answers that do not come from it
// (seed 000), and a weak one copies a placeholder in brackets
// ("[etiqueta]") as if it were a label, which verification then removes.
type promptText struct {
	system      string
	fullHeader  string
	noFull      string
	summaryHead string
	memoryHead  string
	unconfHead  string
	staleMark   string
	question    string
	annotation  string
	headings    string
	chunk       string
}

var promptES = promptText{
	system: `Eres el Oráculo: respondes preguntas sobre las notas de una persona (por ejemplo, las de una campaña de rol) usando solo las pruebas que acompañan a cada pregunta.

Reglas:
- Usa solo las pruebas de este mensaje. No añadas nada que no digan: ni de memoria, ni por suposición, ni de turnos anteriores que no estén respaldados por ellas.
- Cita siempre. Detrás de cada afirmación copia la etiqueta de la prueba de la que sale: la etiqueta es lo que aparece entre corchetes al comienzo de esa prueba, y se copia entera, con sus corchetes, tal cual, sin cambiar ni añadir nada.
- Si una afirmación sale de varias pruebas, pon cada etiqueta en sus propios corchetes, una detrás de otra.
- Cita solo etiquetas que aparezcan en las pruebas de este mensaje. Nunca inventes una etiqueta ni reutilices una de un turno anterior. No uses corchetes para nada más.
- Las pruebas completas traen el texto entero de cada fragmento. El bloque de resúmenes trae solo titulares de otros fragmentos: cítalos únicamente para lo que dice su línea, nunca para detalles que no estén en ella.
- Responde en el idioma de la pregunta, de forma directa y sin preámbulos.
- Si las pruebas no responden a la pregunta, dilo claramente, empezando por «Las notas no dicen», y di qué falta; no rellenes con suposiciones. Si responden solo en parte, responde esa parte con sus citas y di qué falta.`,
	fullHeader:  "Pruebas completas (cada una bajo su etiqueta):",
	noFull:      "Pruebas completas: ninguna.",
	summaryHead: "Resúmenes de otros fragmentos (solo titulares: cítalos únicamente por lo que dice su línea):",
	memoryHead:  "Memoria de la mesa (acuerdos que el DM verificó; son pruebas como las demás: cítalos con su etiqueta):",
	unconfHead:  "Hipótesis sin confirmar (no son pruebas: no las cites ni las des por ciertas; si vienen al caso, di que están sin confirmar):",
	staleMark:   " (posiblemente caducada: su nota cambió)",
	question:    "Pregunta:",
	annotation:  "Describe fragmentos de unas notas personales (por ejemplo, las de una campaña de rol). Escribe una o dos frases, en español, que digan qué pasa o qué cubre el fragmento: quién aparece, con sus nombres tal cual, qué hechos ocurren y qué lugares u objetos importan. Solo lo que dice el texto. Texto plano: sin preámbulo, sin listas, sin comillas y sin Markdown.",
	headings:    "Encabezados:",
	chunk:       "Fragmento:",
}

var promptEN = promptText{
	system: `You are the Oracle: you answer questions about a person's notes (for example, those of a role-playing campaign) using only the evidence that comes with each question.

Rules:
- Use only the evidence in this message. Add nothing it does not say: not from memory, not by guessing, not from earlier turns unless the evidence backs it.
- Always cite. After every claim copy the label of the evidence it comes from: the label is what stands between square brackets at the start of that evidence, and it is copied whole, with its square brackets, as it is, changing and adding nothing.
- When a claim comes from several pieces of evidence, put each label in its own brackets, one after the other.
- Cite only labels that appear in the evidence of this message. Never make up a label or reuse one from an earlier turn. Use square brackets for nothing else.
- The full evidence holds the whole text of each excerpt. The summaries block holds only headlines of other excerpts: cite them only for what their line says, never for details that are not in it.
- Answer in the language of the question, directly and without preamble.
- When the evidence does not answer the question, say so plainly, starting with "The notes don't say", and say what is missing; do not fill in with guesses. When it answers only in part, answer that part with its citations and say what is missing.`,
	fullHeader:  "Full evidence (each under its label):",
	noFull:      "Full evidence: none.",
	summaryHead: "Summaries of other excerpts (headlines only: cite them only for what their line says):",
	memoryHead:  "The table's memory (what the DM verified; evidence like the rest: cite it by its label):",
	unconfHead:  "Unconfirmed hypotheses (not evidence: do not cite them or state them as fact; if they matter, say they are unconfirmed):",
	staleMark:   " (possibly stale: its note changed)",
	question:    "Question:",
	annotation:  "You describe excerpts of a person's notes (for example, those of a role-playing campaign). Write one or two sentences, in English, that say what happens in the excerpt or what it covers: who appears, with their names as written, what events take place and which places or objects matter. Only what the text says. Plain text: no preamble, no lists, no quotes and no Markdown.",
	headings:    "Headings:",
	chunk:       "Excerpt:",
}

// texts returns the wording for lang: Spanish for "es", English otherwise.
func texts(lang string) promptText {
	if strings.EqualFold(strings.TrimSpace(lang), "es") {
		return promptES
	}
	return promptEN
}

// Prompt writes the messages that ask the chat model to answer question
// from ctx: a system message with the rules (in Spanish when lang is "es",
// in English otherwise), the user and assistant turns of history in order
// (other roles and empty turns are dropped), and a user message with the
// evidence and then the question.
//
// The evidence lists each full item as "### [" + label + "]" followed by its
// text, then a separate block, titled as summaries, with one line per
// summary: "- [" + label + "] " + summary. Between them, verified memory
// has a block of its own, each entry as "### [" + label + "]" and its
// value, and unconfirmed entries another, "- key: value" with no label,
// said not to be evidence. Those texts are shown as their reader sees
// them ([txt.Render]: "[[Ser Morcant the Gloomy|Ser Morcant]]" is "Ser
// Morcant", no highlight or footnote marks), and the square brackets left
// become parentheses (a Markdown link, its text), so that only labels are
// in brackets. The rules demand the exact label in square brackets after
// every claim and describe that format in words, without an example or a
// placeholder, so the only digits and square brackets in the messages are
// those of the labels, the evidence, the history and the question.
func Prompt(lang, question string, ctx Context, history []Message) []Message {
	t := texts(lang)
	msgs := []Message{{Role: RoleSystem, Content: t.system}}
	for _, m := range history {
		if (m.Role == RoleUser || m.Role == RoleAssistant) && strings.TrimSpace(m.Content) != "" {
			msgs = append(msgs, Message{Role: m.Role, Content: m.Content})
		}
	}
	var b strings.Builder
	if len(ctx.Full) == 0 {
		b.WriteString(t.noFull + "\n")
	} else {
		b.WriteString(t.fullHeader + "\n")
		for _, it := range ctx.Full {
			b.WriteString("\n### [" + it.Label + "]\n")
			b.WriteString(strings.TrimSpace(shown(it.Text)) + "\n")
		}
	}
	if len(ctx.Memory) > 0 {
		b.WriteString("\n" + t.memoryHead + "\n")
		for _, it := range ctx.Memory {
			b.WriteString("\n### [" + it.Label + "]\n")
			b.WriteString(txt.Collapse(shown(it.Text)) + "\n")
		}
	}
	if len(ctx.Unconfirmed) > 0 {
		b.WriteString("\n" + t.unconfHead + "\n")
		for _, u := range ctx.Unconfirmed {
			line := "- " + txt.Collapse(shown(u.Key)) + ": " + txt.Collapse(shown(u.Value))
			if u.Stale {
				line += t.staleMark
			}
			b.WriteString(line + "\n")
		}
	}
	if len(ctx.Summaries) > 0 {
		b.WriteString("\n" + t.summaryHead + "\n")
		for _, it := range ctx.Summaries {
			b.WriteString("- [" + it.Label + "] " + txt.Collapse(shown(it.Text)) + "\n")
		}
	}
	b.WriteString("\n" + t.question + " " + strings.TrimSpace(question))
	return append(msgs, Message{Role: RoleUser, Content: b.String()})
}

// AnnotationPrompt writes the messages that ask the chat model for a one or
// two sentence description of a chunk (what happens or what it covers:
// names, events), in plain text without preamble, in Spanish when lang is
// "es" and in English otherwise. headings are the chunk's headings,
// outermost first. The chunk is shown as its reader sees it
// ([txt.Render]).
func AnnotationPrompt(lang string, headings []string, text string) []Message {
	t := texts(lang)
	var b strings.Builder
	var hs []string
	for _, h := range headings {
		if h = txt.Collapse(txt.Render(h)); h != "" {
			hs = append(hs, h)
		}
	}
	if len(hs) > 0 {
		b.WriteString(t.headings + " " + strings.Join(hs, " › ") + "\n\n")
	}
	b.WriteString(t.chunk + "\n" + strings.TrimSpace(txt.Render(text)))
	return []Message{
		{Role: RoleSystem, Content: t.annotation},
		{Role: RoleUser, Content: b.String()},
	}
}

// shown is evidence text as the model is shown it: as its reader sees it,
// with no square brackets left to pass for a label.
func shown(s string) string { return unbracket(txt.Render(s)) }
