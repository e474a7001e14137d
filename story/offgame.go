package story

import (
	"regexp"
	"strings"

	"github.com/oraculo/oraculo/text"
)

// offGameStarts are the folded openings of sentences that are about the
// table rather than the story: attendance lists, labelled asides, the
// note-taker's own remarks and notes to self.
var offGameStarts = []string{
	// attendance
	"jugadores:", "jugadoras:", "asistencia:", "asistentes:", "presentes:", "ausentes:",
	"players:", "attendance:", "present:", "absent:", "absentees:", "missing:",
	// labelled asides
	"apunte:", "ooc:", "ooc ", "ooc,", "(ooc", "[ooc", "fuera de juego", "fuera de personaje", "out of character",
	"meta:", "off-topic", "table talk",
	// the note-taker
	"notas del master", "notas del dm", "nota para mi", "nota para la mesa",
	"note to self", "notes by ", "my notes", "gm note", "dm note",
	// notes to self
	"repetir ", "recordar:", "no olvidar", "remember to ",
}

// offGameWords are folded phrases that mark a sentence as table talk
// wherever they are.
var offGameWords = []string{
	"pizza", "whatsapp", "discord", "telegram", "perdonad las faltas", "perdonad la letra",
	"lo apunto todo", "las escribo la misma noche", "para la mesa:", "para que conste que mi",
	"proxima sesion", "siguiente sesion", "despues de la sesion",
	"paron de verano", "nos fuimos a las", "acabamos a las", "terminamos a las", "empezamos a las",
	"no pudo venir", "no pudieron venir", "subimos a nivel", "suben a nivel", "subis a nivel",
	"next session", "ordered pizza", "ordered food", "snacks", "we wrapped up", "we stopped at",
	"we finished at", "we ended at", "couldn't make it", "could not make it", "was absent today",
	"sorry for the typos", "leveled up", "level up", "cliffhanger", "continuara", "to be continued",
}

// offGameRaw catch, in the sentence as written, a list of players with
// their characters ("Marta (Lyra), Javi (Dorn)") and who was missing
// ("Faltó Lucía", "no vinieron Dani y Álex"), not "Faltó poco para...".
var offGameRaw = []*regexp.Regexp{
	regexp.MustCompile(`\p{Lu}\p{L}+ \(\p{Lu}\p{L}+\), \p{Lu}\p{L}+ \(\p{Lu}\p{L}+\)`),
	regexp.MustCompile(`^(?i:falt[oó]|faltaron|no vino|no vinieron)\s+\p{Lu}\p{L}+(?:(?:,\s*|\s+y\s+)\p{Lu}\p{L}+)*(?:\s*$|\s*[.(]|,\s*que\b|\s+(?:por|porque|otra)\b)`),
}

// offGamePatterns catch, in the folded sentence, what a fixed phrase
// cannot: the note-taker signing ("Notas de Sergio.", "Notas del máster
// (Sergio)"), a session's length ("sesión de seis horas", "casi cinco
// horas)"), a remark on the session itself ("sesión corta pero muy dura"),
// when the table meets again.
var offGamePatterns = []*regexp.Regexp{
	regexp.MustCompile(`^notas? (?:de|del) \S+(?: \S+)?(?:[.]|$| otra vez| \()`),
	regexp.MustCompile(`\bsesion (?:de (?:\S+ )?horas|corta|larga|larguisima|muy larga|muy corta)\b`),
	regexp.MustCompile(`\((?:casi |mas de |unas )?\S+ horas\)`),
	regexp.MustCompile(`\bsession (?:lasted|ran)\b`),
	regexp.MustCompile(`\b(?:jugamos|quedamos|nos vemos|we play|we meet)\b.*\b(?:lunes|martes|miercoles|jueves|viernes|sabado|domingo|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b`),
}

// OutOfGame reports whether a sentence of the notes is about the table
// rather than the story: an attendance list ("Jugadores: Marta (Lyra),
// Javi (Dorn)…", "Faltó Lucía", "Attendance: …"), the note-taker's remarks
// ("Notas de Sergio otra vez", "perdonad las faltas"), asides and table
// talk ("Apunte: a Marta le encantó Odalric", "Repetir el bigote", "pedimos
// pizza", "próxima sesión el jueves", "OOC: …", "next session on…"). Such a
// sentence never stands for what happened in a session. Sentences of the
// story, dialogue or events naming characters, are not flagged.
func OutOfGame(sentence string) bool {
	s := strings.TrimSpace(sentence)
	for {
		rest, ok := text.CutListMarker(s)
		if !ok {
			break
		}
		s = strings.TrimSpace(rest)
	}
	raw := strings.TrimLeft(s, "*_> ")
	f := text.Fold(raw)
	for _, p := range offGameStarts {
		if strings.HasPrefix(f, p) {
			return true
		}
	}
	for _, w := range offGameWords {
		if strings.Contains(f, w) {
			return true
		}
	}
	for _, re := range offGameRaw {
		if re.MatchString(raw) {
			return true
		}
	}
	for _, re := range offGamePatterns {
		if re.MatchString(f) {
			return true
		}
	}
	return false
}
