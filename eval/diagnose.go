package eval

import (
	"fmt"
	"strings"
)

// Problems a diagnosis can name (seed 002's table).
const (
	ProblemRetrieval  = "retrieval"
	ProblemRanking    = "ranking"
	ProblemChunking   = "chunking"
	ProblemLexical    = "lexical"
	ProblemVocabulary = "vocabulary"
	ProblemMulti      = "multi-source"
	ProblemPrompt     = "prompt"
	ProblemANN        = "ann"
	ProblemNone       = "none"
)

// Thresholds of the diagnosis, in shares of answerable questions.
const (
	// Below this Recall@50 the sources are not even among the candidates.
	retrievalFloor = 0.85
	// A gap this large between Recall@50 and Recall@8 is a ranking problem.
	rankingGap = 0.10
	// Recall@1 this far below Recall@8: the source reaches the context but
	// is seldom first.
	topGap = 0.30
	// Recall@8 at or above this leaves ranking nothing big to win.
	contextGood = 0.90
	// Share of questions whose right note reached the context while no
	// relevant chunk of it did.
	chunkingShare = 0.05
	// Paraphrase questions this much worse than single ones (Recall@8).
	vocabularyGap = 0.15
	// Multi-source coverage at 8 below this, with room at 50.
	multiCoverage = 0.80
	// Approximate vector search keeping less than this of exact recall.
	annFloor = 0.95
)

// Finding is one diagnosed failure, with the figures behind it.
type Finding struct {
	Problem  string `json:"problem"`
	Evidence string `json:"evidence"`
	Advice   string `json:"advice"`
}

// Diagnose reads a report's figures the way seed 002's table does and says
// which failure the system has, and why. lang is "es" or "en".
func Diagnose(r *Report, lang string) []Finding {
	t := diagnosisText["en"]
	if lang == "es" {
		t = diagnosisText["es"]
	}
	f := r.Final()
	if f == nil {
		return nil
	}
	c := f.Chunk
	r1, r5, r8, r50 := c.Recall[1], c.Recall[5], c.Recall[8], c.Recall[50]
	var out []Finding
	add := func(problem string, args ...any) {
		out = append(out, Finding{Problem: problem, Evidence: fmt.Sprintf(t[problem+".evidence"], args...), Advice: t[problem+".advice"]})
	}
	if r50 < retrievalFloor {
		add(ProblemRetrieval, f.Name, r50, 100*(1-r50), examples(f, func(o Outcome) bool { return o.Rank == 0 }))
	}
	switch {
	case r50 >= retrievalFloor && r50-r8 >= rankingGap:
		add(ProblemRanking, f.Name, r50, r8, 100*(r50-r8), examples(f, func(o Outcome) bool { return o.Rank > ContextSize }))
	case r8 >= retrievalFloor && r8-r1 >= topGap:
		add(ProblemRanking+".top", f.Name, r8, r1, examples(f, func(o Outcome) bool { return o.Rank > 1 && o.Rank <= ContextSize }))
	}
	wrongPart := 0
	for _, o := range f.Outcomes {
		if o.FileRank > 0 && o.FileRank <= ContextSize && (o.Rank == 0 || o.Rank > ContextSize) {
			wrongPart++
		}
	}
	if share := float64(wrongPart) / float64(max(1, len(f.Outcomes))); share >= chunkingShare {
		add(ProblemChunking, 100*share, examples(f, func(o Outcome) bool {
			return o.FileRank > 0 && o.FileRank <= ContextSize && (o.Rank == 0 || o.Rank > ContextSize)
		}))
	}
	if !hasPath(f.Paths, "bm25") {
		add(ProblemLexical, f.Name)
	} else if bm, de := r.Config("bm25"), r.Config("dense"); bm != nil && de != nil {
		if s1, s2 := bm.ByKind[KindSingle].Chunk.Recall[8], de.ByKind[KindSingle].Chunk.Recall[8]; s1-s2 >= rankingGap {
			add(ProblemLexical+".kept", s1, s2)
		}
	}
	if para, ok := f.ByKind[KindParaphrase]; ok {
		if single, ok := f.ByKind[KindSingle]; ok && single.Chunk.Recall[8]-para.Chunk.Recall[8] >= vocabularyGap {
			key := ProblemVocabulary
			if hasPath(f.Paths, "dense") {
				key += ".dense"
			}
			add(key, single.Chunk.Recall[8], para.Chunk.Recall[8])
		}
	}
	if multi, ok := f.ByKind[KindMulti]; ok && multi.Chunk.Coverage8 < multiCoverage && multi.Chunk.Coverage50-multi.Chunk.Coverage8 >= rankingGap {
		add(ProblemMulti, 100*multi.Chunk.Coverage8, 100*multi.Chunk.Coverage50)
	}
	if a := r.ANN; a != nil && a.Recall < annFloor {
		add(ProblemANN, a.Index, a.K, a.Recall, a.Queries)
	}
	if r5 >= contextGood {
		add(ProblemPrompt, r5, r1)
	}
	if len(out) == 0 {
		add(ProblemNone, r1, r8, r50)
	}
	for i := range out {
		out[i].Problem, _, _ = strings.Cut(out[i].Problem, ".")
	}
	return out
}

func hasPath(paths []string, name string) bool {
	for _, p := range paths {
		if p == name {
			return true
		}
	}
	return false
}

// examples names up to three questions that show a failure, with ranks.
func examples(r *Result, pick func(Outcome) bool) string {
	var parts []string
	for _, o := range r.Outcomes {
		if len(parts) == 3 {
			break
		}
		if pick(o) {
			rank := "—"
			if o.Rank > 0 {
				rank = fmt.Sprint(o.Rank)
			}
			parts = append(parts, fmt.Sprintf("%s@%s", o.ID, rank))
		}
	}
	return strings.Join(parts, ", ")
}

var diagnosisText = map[string]map[string]string{
	"en": {
		"retrieval.evidence":        "%s: Recall@50 is %.3f: for %.0f%% of the questions the source is not even among the 50 candidates (e.g. %s).",
		"retrieval.advice":          "A retrieval or chunking problem: no reranker can fix it. Check the retrieval paths first (ANN parameters against exact search when the dense path is on), then the chunk boundaries: read the chunks of the missed sources with `oraculo chunks FILE`.",
		"ranking.evidence":          "%s: Recall@50 is %.3f but Recall@8 is %.3f: for %.0f%% of the questions the source is among the candidates and still misses the 8 the model sees (e.g. %s).",
		"ranking.advice":            "A ranking problem: the sources are found and ordered badly. Fuse more paths (entity, dense) and add a reranker; the depth of the reranker is set by the latency budget.",
		"chunking.evidence":         "For %.0f%% of the questions the right note reaches the top 8 but no chunk of it that covers the answer does (e.g. %s).",
		"chunking.advice":           "A chunking problem: the right note, the wrong part. Read those chunks: sections cut in the wrong place, or chunks so large that the answer weighs little in them.",
		"lexical.evidence":          "%s has no keyword (BM25) path.",
		"lexical.advice":            "Missing lexical path: dense vectors blur rare tokens (invented names, codes). Add BM25 to the fusion.",
		"lexical.kept.evidence":     "BM25 alone reaches Recall@8 %.3f on single-source questions; the dense path alone %.3f.",
		"lexical.kept.advice":       "The lexical path carries the names and rare words: keep it in the fusion.",
		"vocabulary.evidence":       "Paraphrased questions do worse than plain ones: Recall@8 %.3f on single-source questions, %.3f on paraphrases.",
		"vocabulary.advice":         "A vocabulary gap: questions worded differently from the notes fail. The dense path (embeddings) covers paraphrase.",
		"vocabulary.dense.evidence": "Paraphrased questions do worse than plain ones even with the dense path: Recall@8 %.3f on single-source questions, %.3f on paraphrases.",
		"vocabulary.dense.advice":   "The embedding model does not bridge the wording: try a stronger multilingual model, or embed the heading path with the text.",
		"ranking.top.evidence":      "%s: Recall@8 is %.3f but Recall@1 only %.3f: the source reaches the context but is seldom first (e.g. %s).",
		"ranking.top.advice":        "A ranking problem at the top: the 8 chunks the model sees usually hold the answer, buried among others. Fusion with the entity and dense paths and a reranker decide the order; context assembly decides what else fits.",
		"multi-source.evidence":     "Multi-source questions: %.0f%% of their sources reach the top 8, %.0f%% the top 50.",
		"multi-source.advice":       "The sources are found but do not fit in 8 chunks: one slot per session, the entity path, and one-line summaries of what did not fit.",
		"ann.evidence":              "The approximate index (%s): its recall@%d against exact vector search is only %.3f over %d questions.",
		"ann.advice":                "Silent loss in the vector index: raise ef (EfSearch) or M, or scan exactly at this size; then measure again.",
		"prompt.evidence":           "Recall@5 is %.3f (Recall@1 %.3f): the source almost always reaches the model.",
		"prompt.advice":             "Not a retrieval problem: if the answers are still wrong, look at the context assembly and the prompt.",
		"none.evidence":             "Recall@1 %.3f, Recall@8 %.3f, Recall@50 %.3f: no failure stands out.",
		"none.advice":               "Measure on more, and harder, questions.",
	},
	"es": {
		"retrieval.evidence":        "%s: Recall@50 es %.3f: en el %.0f%% de las preguntas la fuente ni siquiera está entre los 50 candidatos (p. ej. %s).",
		"retrieval.advice":          "Un problema de recuperación o de troceo: ningún reranker lo arregla. Revisa primero las vías de búsqueda (los parámetros del ANN frente a la búsqueda exacta si la vía densa está activa) y después los límites de los fragmentos: lee los fragmentos de las fuentes perdidas con `oraculo chunks ARCHIVO`.",
		"ranking.evidence":          "%s: Recall@50 es %.3f pero Recall@8 es %.3f: en el %.0f%% de las preguntas la fuente está entre los candidatos y aun así no llega a los 8 que ve el modelo (p. ej. %s).",
		"ranking.advice":            "Un problema de ordenación: las fuentes se encuentran y se ordenan mal. Fusiona más vías (entidades, densa) y añade un reranker; su profundidad la fija el presupuesto de latencia.",
		"chunking.evidence":         "En el %.0f%% de las preguntas la nota correcta llega a los 8 primeros pero ningún fragmento suyo que cubra la respuesta (p. ej. %s).",
		"chunking.advice":           "Un problema de troceo: la nota correcta, la parte equivocada. Lee esos fragmentos: secciones cortadas donde no toca, o fragmentos tan grandes que la respuesta pesa poco en ellos.",
		"lexical.evidence":          "%s no tiene vía de palabras clave (BM25).",
		"lexical.advice":            "Falta la vía léxica: los vectores densos difuminan los tokens raros (nombres inventados, códigos). Añade BM25 a la fusión.",
		"lexical.kept.evidence":     "BM25 sola alcanza Recall@8 %.3f en preguntas de una fuente; la vía densa sola, %.3f.",
		"lexical.kept.advice":       "La vía léxica es la que trae los nombres y las palabras raras: mantenla en la fusión.",
		"vocabulary.evidence":       "Las preguntas parafraseadas salen peor que las directas: Recall@8 %.3f en preguntas de una fuente, %.3f en paráfrasis.",
		"vocabulary.advice":         "Una brecha de vocabulario: fallan las preguntas redactadas con otras palabras que las notas. La vía densa (embeddings) cubre la paráfrasis.",
		"vocabulary.dense.evidence": "Las preguntas parafraseadas salen peor que las directas incluso con la vía densa: Recall@8 %.3f en preguntas de una fuente, %.3f en paráfrasis.",
		"vocabulary.dense.advice":   "El modelo de embeddings no salva la diferencia de redacción: prueba un modelo multilingüe más fuerte, o incluye la ruta de encabezados en el texto que se vectoriza.",
		"ranking.top.evidence":      "%s: Recall@8 es %.3f pero Recall@1 solo %.3f: la fuente llega al contexto pero rara vez en primer lugar (p. ej. %s).",
		"ranking.top.advice":        "Un problema de ordenación en la cabeza: los 8 fragmentos que ve el modelo suelen contener la respuesta, enterrada entre otros. La fusión con las vías de entidades y densa y un reranker deciden el orden; el ensamblado del contexto, qué más cabe.",
		"multi-source.evidence":     "Preguntas de varias fuentes: el %.0f%% de sus fuentes llega a los 8 primeros, el %.0f%% a los 50.",
		"multi-source.advice":       "Las fuentes se encuentran pero no caben en 8 fragmentos: un hueco por sesión, la vía de entidades y resúmenes de una línea de lo que no cupo.",
		"ann.evidence":              "El índice aproximado (%s) conserva solo un recall@%d de %.3f frente a la búsqueda vectorial exacta en %d preguntas.",
		"ann.advice":                "Pérdida silenciosa en el índice vectorial: sube ef (EfSearch) o M, o usa búsqueda exacta a este tamaño; y vuelve a medir.",
		"prompt.evidence":           "Recall@5 es %.3f (Recall@1 %.3f): la fuente casi siempre llega al modelo.",
		"prompt.advice":             "No es un problema de recuperación: si las respuestas siguen mal, mira el ensamblado del contexto y el prompt.",
		"none.evidence":             "Recall@1 %.3f, Recall@8 %.3f, Recall@50 %.3f: no destaca ningún fallo.",
		"none.advice":               "Mide con más preguntas, y más difíciles.",
	},
}
