package query

import "strconv"

// maxSession bounds the numbers read as session numbers, so that a long
// run of digits is not a session and never overflows.
const maxSession = 99999

// parseNumber reads a number starting at toks[i]: digits ("12", "12º",
// "12th") or number words in lang ("doce", "ciento cinco", "treinta y
// cuatro", "twenty three", "one hundred and five"). It returns the value
// and the index of the first token after it; ok is false when toks[i]
// starts no number.
func parseNumber(toks []token, i int, lang string) (n, next int, ok bool) {
	if i >= len(toks) {
		return 0, i, false
	}
	if n, ok := digits(toks[i].w); ok {
		return n, i + 1, true
	}
	if lang == "en" {
		return parseEnglish(toks, i)
	}
	return parseSpanish(toks, i)
}

// digits reads a token made of ASCII digits, optionally followed by an
// ordinal suffix ("12º" folds to "12o", "12ª" to "12a", "3rd", "1er").
func digits(w string) (int, bool) {
	end := 0
	for end < len(w) && w[end] >= '0' && w[end] <= '9' {
		end++
	}
	if end == 0 || end > 5 {
		return 0, false
	}
	switch w[end:] {
	case "", "o", "a", "er", "st", "nd", "rd", "th":
	default:
		return 0, false
	}
	n, err := strconv.Atoi(w[:end])
	if err != nil || n > maxSession {
		return 0, false
	}
	return n, true
}

func parseSpanish(toks []token, i int) (int, int, bool) {
	start, n := i, 0
	if h, ok := esHundreds[word(toks, i)]; ok {
		n += h
		i++
		if h == 100 && word(toks, i-1) == "cien" {
			return n, i, true
		}
	}
	if t, ok := esTens[word(toks, i)]; ok {
		n += t
		i++
		if word(toks, i) == "y" {
			if u, ok := esSmall[word(toks, i+1)]; ok && u < 10 {
				n += u
				i += 2
			}
		}
	} else if s, ok := esSmall[word(toks, i)]; ok {
		n += s
		i++
		if s == 20 && word(toks, i) == "y" {
			// The older spelling "veinte y tres".
			if u, ok := esSmall[word(toks, i+1)]; ok && u < 10 {
				n += u
				i += 2
			}
		}
	}
	return n, i, i > start
}

func parseEnglish(toks []token, i int) (int, int, bool) {
	start, n := i, 0
	if word(toks, i) == "hundred" {
		n, i = 100, i+1
	} else if u, ok := enSmall[word(toks, i)]; ok && u < 10 && word(toks, i+1) == "hundred" {
		n, i = u*100, i+2
	}
	if n > 0 && word(toks, i) == "and" {
		if _, ok := enSmall[word(toks, i+1)]; ok {
			i++
		} else if _, ok := enTens[word(toks, i+1)]; ok {
			i++
		}
	}
	if t, ok := enTens[word(toks, i)]; ok {
		n += t
		i++
		if u, ok := enSmall[word(toks, i)]; ok && u < 10 {
			n += u
			i++
		}
	} else if s, ok := enSmall[word(toks, i)]; ok {
		n += s
		i++
	}
	return n, i, i > start
}

// word returns the folded word at toks[i], or "" past the end.
func word(toks []token, i int) string {
	if i < 0 || i >= len(toks) {
		return ""
	}
	return toks[i].w
}

// esSmall leaves out "un" and "una", which are far more often articles
// ("la sesión una criatura...") than numbers.
var esSmall = map[string]int{
	"uno": 1, "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "seis": 6, "siete": 7, "ocho": 8, "nueve": 9,
	"diez": 10, "once": 11, "doce": 12, "trece": 13, "catorce": 14, "quince": 15, "dieciseis": 16,
	"diecisiete": 17, "dieciocho": 18, "diecinueve": 19, "veinte": 20, "veintiuno": 21, "veintiun": 21,
	"veintiuna": 21, "veintidos": 22, "veintitres": 23, "veinticuatro": 24, "veinticinco": 25,
	"veintiseis": 26, "veintisiete": 27, "veintiocho": 28, "veintinueve": 29,
}

var esTens = map[string]int{
	"treinta": 30, "cuarenta": 40, "cincuenta": 50, "sesenta": 60, "setenta": 70, "ochenta": 80, "noventa": 90,
}

var esHundreds = map[string]int{
	"cien": 100, "ciento": 100, "doscientos": 200, "doscientas": 200, "trescientos": 300, "trescientas": 300,
	"cuatrocientos": 400, "cuatrocientas": 400, "quinientos": 500, "quinientas": 500, "seiscientos": 600,
	"seiscientas": 600, "setecientos": 700, "setecientas": 700, "ochocientos": 800, "ochocientas": 800,
	"novecientos": 900, "novecientas": 900,
}

var enSmall = map[string]int{
	"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
	"ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
	"seventeen": 17, "eighteen": 18, "nineteen": 19,
}

var enTens = map[string]int{
	"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
}
