package story

import (
	"strings"
	"unicode/utf8"

	"github.com/oraculo/oraculo/text"
)

// The continuity check's reading of one sentence: whether it says that an
// entity it names died, left for good or was destroyed ([goneIn]), and
// whether it shows an entity acting ([actsIn]): the entity the subject of
// a verb in the present or the past, not remembered ("la tumba de X",
// "recordamos a X", "como decía X", "X murió" do not act). Both rules
// favour precision: a sentence they are unsure of says nothing.

// sentence is one sentence cut into words: each word's bytes, its folded
// form (lowercase, accents removed) and the text before it since the
// previous word.
type sentence struct {
	text string
	span [][2]int
	fold []string
	gap  []string
}

func newSentence(s string) sentence {
	st := sentence{text: s}
	prev := 0
	for a, b := range text.Words(s) {
		st.span = append(st.span, [2]int{a, b})
		st.fold = append(st.fold, text.Fold(s[a:b]))
		st.gap = append(st.gap, s[prev:a])
		prev = b
	}
	return st
}

// words returns the words a byte range of the sentence covers, [from, to).
func (s sentence) words(start, end int) (from, to int) {
	from, to = -1, -1
	for i, sp := range s.span {
		if from < 0 && sp[0] >= start {
			from = i
		}
		if sp[1] <= end {
			to = i + 1
		}
	}
	return from, to
}

// has reports whether the sentence holds any of the folded words, or any
// of the prefixes ending in "*".
func (s sentence) has(set map[string]bool) bool {
	for _, w := range s.fold {
		if set[w] {
			return true
		}
	}
	for k := range set {
		if p, ok := strings.CutSuffix(k, "*"); ok {
			for _, w := range s.fold {
				if strings.HasPrefix(w, p) {
					return true
				}
			}
		}
	}
	return false
}

// phrase reports whether the folded words of phrase start at word i,
// nothing but spaces between them.
func (s sentence) phrase(i int, phrase []string) bool {
	if i+len(phrase) > len(s.fold) {
		return false
	}
	for k, w := range phrase {
		if s.fold[i+k] != w || k > 0 && strings.TrimSpace(s.gap[i+k]) != "" {
			return false
		}
	}
	return true
}

// gonePattern is one way of saying that something died, left or was
// destroyed. after: the subject may follow the verb ("muere Breto");
// object: the entity is the verb's object ("slew Klarg"); leave: it says
// so only with a sign the departure is for good; with: a participle
// alone, after "with" and the name ("With Tactus slain, …").
type gonePattern struct {
	words                      []string
	after, object, leave, with bool
}

// destroyed reports a pattern saying that something was destroyed.
func (p gonePattern) destroyed() bool {
	last := p.words[len(p.words)-1]
	return strings.HasPrefix(last, "destruid") || last == "destroyed"
}

var gonePatterns = func() []gonePattern {
	var ps []gonePattern
	add := func(flags string, phrases ...string) {
		for _, p := range phrases {
			ps = append(ps, gonePattern{words: strings.Fields(p), after: strings.Contains(flags, "a"),
				object: strings.Contains(flags, "o"), leave: strings.Contains(flags, "l"), with: strings.Contains(flags, "w")})
		}
	}
	add("a", "muere", "murio", "ha muerto", "fallece", "fallecio", "ha fallecido")
	add("", "se muere", "se murio", "habia muerto", "esta muerto", "esta muerta", "cae en combate", "cayo en combate",
		"es asesinado", "es asesinada", "fue asesinado", "fue asesinada", "ha sido asesinado", "ha sido asesinada",
		"es destruido", "es destruida", "fue destruido", "fue destruida", "queda destruido", "queda destruida",
		"quedo destruido", "quedo destruida", "ha sido destruido", "ha sido destruida", "se fue para siempre",
		"died", "dies", "has died", "had died", "was killed", "is killed", "has been killed", "had been killed",
		"was slain", "is slain", "lay slain", "was murdered", "is murdered", "was destroyed", "is destroyed",
		"has been destroyed", "is dead", "was dead", "perished", "has perished", "had perished")
	add("w", "slain", "dead", "killed", "destroyed")
	add("l", "se marcha", "se marcho", "se va", "left", "leaves")
	add("o", "killed", "kills", "slew", "slays")
	return ps
}()

var (
	// fillers may stand between a subject and its verb ("Garrik ya ha
	// muerto", "Klarg finally died").
	fillers = set("ya", "finalmente", "tambien", "entonces", "luego", "al", "final", "then", "finally", "eventually",
		"also", "tragically", "sadly", "ultimately", "soon", "later", "se", "le", "les", "lo", "la", "los", "las",
		"nos", "me", "te", "os", "no", "todavia", "aun", "still", "just", "quickly", "immediately")
	// clauseOpeners may stand before a subject that opens a clause.
	clauseOpeners = set("y", "e", "pero", "and", "but", "then", "luego", "entonces", "cuando", "when", "mientras",
		"while", "aunque", "although", "so", "asi", "que", "that", "after", "since", "once", "until")
	// titles stand before a name and belong to it ("Lady Mencía").
	titles = set("el", "la", "los", "las", "the", "lady", "sir", "don", "dona", "maese", "hermana", "hermano", "madre",
		"padre", "capitana", "capitan", "lord", "senor", "senora", "fray", "sister", "brother", "captain", "master",
		"mistress", "king", "queen", "rey", "reina", "mr", "mrs", "ms", "old", "young", "viejo", "vieja", "joven",
		"mother", "father", "abuela", "abuelo")
	// unsure words make a sentence say nothing certain about a death.
	unsure = set("no", "casi", "nunca", "jamas", "si", "not", "never", "nearly", "almost", "would", "could", "might",
		"will", "may", "if", "didn", "doesn", "wasn", "isn", "won", "creiamos", "creimos", "parecia", "pensabamos",
		"thought", "believed", "seemed", "pretend*", "fing*", "supuestamente", "supposedly", "rumor*", "dicen",
		"quizas", "quiza", "tal", "perhaps", "maybe", "podria", "puede", "deberia", "should", "must", "unless",
		"salvo", "menos")
	// forGood are the signs a departure is for good.
	forGood = set("siempre", "definitivamente", "good", "forever", "grupo", "party", "compania", "company", "jamas",
		"never")
	// remembered words tell a sentence that remembers an entity from one
	// that shows it acting.
	remembered = set("fantasma*", "espiritu*", "tumba*", "cuerpo", "cadaver*", "restos", "funeral*", "entierro",
		"enterr*", "recuerd*", "record*", "memoria*", "decia", "difunt*", "muert*", "murio", "muere", "vida",
		"sueno*", "suena*", "sono", "sonamos", "vision*", "estatua*", "retrato*", "cuadro", "resucit*", "reviv*",
		"zombi*", "ghost*", "spirit*", "grave*", "tomb*", "body", "corpse*", "remains", "buri*", "remember*",
		"recall*", "memor*", "late", "dead", "death", "died", "dies", "killed", "slain", "dream*", "vision*",
		"statue*", "portrait*", "flashback*", "used", "undead", "resurrect*", "reviv*", "raised", "necromanc*",
		"nigroman*", "ahogad*", "apareci*", "aparicion*", "apparition*", "specter*", "spectre*", "shade")
	// prepositions before a name make it no subject ("la tumba de X").
	prepositions = set("de", "del", "a", "al", "con", "por", "para", "sin", "sobre", "contra", "entre", "hacia",
		"segun", "en", "of", "to", "with", "by", "for", "about", "at", "from", "against", "in", "on", "into",
		"onto", "upon", "like", "como", "as", "than", "que", "whom", "hasta", "tras")
)

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// unsureBefore reports an unsure word among the n words before word i.
func (s sentence) unsureBefore(i, n int) bool {
	for k := max(0, i-n); k < i; k++ {
		if unsure[s.fold[k]] {
			return true
		}
	}
	return false
}

// opensClause reports whether the name at word i is where a clause
// starts: the sentence's start or after a comma, a colon, a conjunction,
// with only titles and articles between ("y Lady Mencía").
func (s sentence) opensClause(i int) bool {
	for ; i > 0; i-- {
		if strings.ContainsAny(s.gap[i], ",;:(—–\"«“") {
			return true
		}
		prev := s.fold[i-1]
		switch {
		case titles[prev]:
			continue
		case clauseOpeners[prev]:
			return prev != "que" || i < 2 || !prepositions[s.fold[i-2]] && s.fold[i-2] != "lo"
		}
		return false
	}
	return true
}

// goneIn reports whether the sentence says that the entity named at words
// [from, to) died, was killed or destroyed, or left for good.
func goneIn(s sentence, from, to int, kind string) bool {
	if from < 0 || to <= from || strings.HasSuffix(strings.TrimSpace(s.text), "?") {
		return false
	}
	// A place, a faction or a god is destroyed or not; it does not die
	// nor leave ("la ciudad entera murió" is a figure of speech).
	onlyDestroyed := kind == "place" || kind == "faction" || kind == "god"
	for i := range s.fold {
		for _, p := range gonePatterns {
			if !s.phrase(i, p.words) || p.leave && !s.has(forGood) || onlyDestroyed && !p.destroyed() {
				continue
			}
			end := i + len(p.words)
			switch {
			case p.with:
				if i == to && from > 0 && s.fold[from-1] == "with" && strings.TrimSpace(s.gap[i]) == "" {
					return true
				}
			case p.object:
				if from >= end && from <= end+2 && !strings.ContainsAny(strings.Join(s.gap[end:from+1], ""), ",;:(") &&
					(i == 0 || s.fold[i-1] != "was" && s.fold[i-1] != "is") && !s.unsureBefore(i, 3) {
					return true
				}
			case i >= to:
				if subjectOf(s, from, to, i) && !s.unsureBefore(i, 3) && !s.unsureBefore(from, 2) {
					return true
				}
			case p.after && from == end && strings.TrimSpace(s.gap[from]) == "":
				if !s.unsureBefore(i, 3) {
					return true
				}
			}
		}
	}
	return false
}

// subjectOf reports whether the name at [from, to) is the subject of the
// verb at word v: it opens a clause and the verb follows it, either with
// only fillers between ("Breto ya ha muerto") or as the next verb of the
// same clause, coordinated ("Garrik cae de rodillas … y se muere"), with
// no other clause (que, who) between.
func subjectOf(s sentence, from, to, v int) bool {
	if !s.opensClause(from) {
		return false
	}
	direct := true
	for k := to; k < v; k++ {
		if !fillers[s.fold[k]] || strings.ContainsAny(s.gap[k], ",;:(") {
			direct = false
			break
		}
	}
	if direct && !strings.ContainsAny(s.gap[v], ",;:(") {
		return true
	}
	if v-to > 20 {
		return false
	}
	for k := to; k < v; k++ {
		if w := s.fold[k]; w == "que" || w == "who" || w == "which" || w == "that" || w == "cuando" || w == "when" ||
			w == "si" || w == "if" || w == "donde" || w == "where" || strings.Contains(s.gap[k], ";") {
			return false
		}
	}
	b := v - 1
	if s.fold[b] == "se" && b > to {
		b--
	}
	w := s.fold[b]
	return (w == "y" || w == "e" || w == "and" || w == "pero" || w == "but") && strings.TrimSpace(s.gap[b+1]) == ""
}

// actsIn reports whether the name at words [from, to) is the subject of a
// verb of action in the present or the past, in a sentence that does not
// remember it (nor speak of a death, a ghost, a grave or a dream).
func actsIn(s sentence, from, to int) bool {
	if from < 0 || to <= from || to >= len(s.fold) || s.has(remembered) || s.has(unsure) ||
		strings.ContainsAny(s.text, "?¿") {
		return false
	}
	if !s.opensClause(from) || from > 0 && prepositions[s.fold[from-1]] {
		return false
	}
	k := to
	for k < len(s.fold) && k < to+3 && fillers[s.fold[k]] && strings.TrimSpace(s.gap[k]) == "" {
		k++
	}
	if k >= len(s.fold) || strings.TrimSpace(s.gap[k]) != "" {
		return false
	}
	w := s.text[s.span[k][0]:s.span[k][1]]
	if k+1 < len(s.fold) && (s.fold[k] == "ha" || s.fold[k] == "has" || s.fold[k] == "han") {
		return participle(s.fold[k+1]) && strings.TrimSpace(s.gap[k+1]) == ""
	}
	return actionVerb(w, s.fold[k])
}

var (
	irregularPast = set("dijo", "hizo", "puso", "tuvo", "vino", "trajo", "dio", "vio", "quiso", "supo", "pudo",
		"anduvo", "condujo", "huyo", "leyo", "oyo", "said", "went", "took", "gave", "came", "ran", "saw", "told",
		"got", "made", "found", "knew", "brought", "fought", "held", "stood", "spoke", "drew", "cast", "threw",
		"wrote", "began", "became", "met", "sent", "kept", "led", "struck", "flew", "rode", "sat", "grabbed",
		"won", "shot", "stole", "hid", "swore", "woke", "broke", "bought", "sold", "paid", "sang", "wore", "chose",
		"caught", "taught", "ate", "drank", "rose", "shook", "slipped", "swung", "tore", "gets", "goes", "does")
	// notVerbs are words after a name that look like verbs and are not.
	notVerbs = set("de", "que", "se", "le", "la", "una", "este", "ese", "esta", "esa", "nunca", "siempre",
		"otra", "toda", "nadie", "grande", "madre", "padre", "sola", "misma", "entera", "joven", "triste", "enorme",
		"y", "o", "a", "ante", "entre", "sobre", "donde", "mientras", "como", "hasta", "desde", "tampoco",
		"ahora", "aqui", "alla", "cada", "nada", "cerca", "fuera", "dentro", "delante", "detras", "encima",
		"debajo", "ninguna", "alguna", "cuya", "mia", "tuya", "suya", "nuestra", "vuestra", "bastante",
		"suficiente", "adelante", "tarde", "noche", "manca", "the", "he", "she", "we", "they", "one", "red", "bed",
		"need", "hundred", "indeed", "speed", "seed", "steed", "creed", "feed", "breed", "weed", "deed", "tiene",
		"llama", "apellida", "cara", "vieja", "viejo", "desaparecida", "rescatada", "ambigua", "viva", "vivo", "vivos", "vivas", "antes", "tres",
		"mientras", "despues", "entonces", "pues", "veces", "ademas", "apenas", "quizas", "jamas", "demas",
		"menos", "mas", "todas", "todos", "otras", "otros", "unas", "unos", "sus", "las", "los", "nos", "les",
		"ellas", "ellos", "nosotros", "always", "perhaps", "this", "its", "his", "hers", "theirs", "yours",
		"himself", "herself", "itself", "thus", "whereas", "besides", "towards", "afterwards", "sometimes")
)

// actionVerb reports whether word w (folded f), right after a subject,
// reads as a finite verb of action: a Spanish preterite or present, an
// English past or third person, never a copula, an imperfect (past
// habits, "decía"), a conditional nor an auxiliary alone.
func actionVerb(w, f string) bool {
	if utf8.RuneCountInString(f) < 2 || notVerbs[f] || w != strings.ToLower(w) {
		return false
	}
	switch f {
	case "es", "era", "son", "fue", "esta", "estaba", "is", "was", "were", "are", "had", "has", "have", "would",
		"could", "should", "might", "must", "will", "does", "did", "ha", "habia", "seria", "estuvo", "seems":
		return false
	}
	if irregularPast[f] {
		return true
	}
	switch {
	case strings.HasSuffix(w, "á") || strings.HasSuffix(w, "án"):
		return false // a future ("vendrá"): not done yet
	case strings.HasSuffix(w, "ó") || strings.HasSuffix(f, "aron") || strings.HasSuffix(f, "ieron"):
		return true
	case strings.HasSuffix(f, "aba") || strings.HasSuffix(f, "ia") || strings.HasSuffix(f, "ian"):
		return false
	case strings.HasSuffix(f, "ed") && len(f) > 3:
		return true
	case strings.HasSuffix(f, "s") && len(f) > 3:
		return asciiWord(f) && !strings.HasSuffix(f, "ss") && !strings.HasSuffix(f, "us") &&
			!strings.HasSuffix(f, "is") && !strings.HasSuffix(f, "os") && !notVerbs[f]
	case strings.HasSuffix(f, "a") || strings.HasSuffix(f, "e"):
		return !asciiEnglish(f)
	}
	return false
}

// participle reports a Spanish or English past participle.
func participle(f string) bool {
	return strings.HasSuffix(f, "ado") || strings.HasSuffix(f, "ido") || strings.HasSuffix(f, "ed") ||
		f == "vuelto" || f == "dicho" || f == "hecho" || f == "puesto" || f == "visto" || f == "escrito" ||
		f == "abierto" || f == "gone" || f == "come" || f == "taken" || f == "returned" || f == "spoken" ||
		f == "written" || f == "given" || f == "seen"
}

// asciiWord reports a word of plain letters a-z.
func asciiWord(f string) bool {
	for i := 0; i < len(f); i++ {
		if f[i] < 'a' || f[i] > 'z' {
			return false
		}
	}
	return true
}

// asciiEnglish reports an English word ending in a or e that is no verb
// after a name in Spanish notes' sense (the, she, one, …) and no English
// verb either unless it is in irregularPast: "make", "take" after a name
// in English are bare forms ("let X take"), not finite.
func asciiEnglish(f string) bool {
	return f == "the" || f == "she" || f == "he" || f == "we" || f == "one" || f == "were" || f == "are" ||
		f == "like" || f == "once" || f == "since" || f == "more" || f == "some" || f == "there" || f == "where" ||
		f == "here" || f == "while" || f == "whose" || f == "alone" || f == "made" || f == "gave" || f == "came"
}
