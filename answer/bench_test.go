package answer

import (
	"fmt"
	"strings"
	"testing"
)

// benchCandidates are 40 candidates of about 1200 words (the chunk cap), 4
// per session.
func benchCandidates() []Candidate {
	para := "La Dama Velada recibió a los PJ en la Torre de Sal. Les pidió que recuperaran el Cáliz de Ezkarra. " +
		"Nix desconfió de ella y se negó a beber el vino. El archiduque Valcárcel huyó hacia el norte con su guardia. "
	text := strings.Repeat(para, 1200/wordCount(para))
	var out []Candidate
	for i := range 40 {
		out = append(out, Candidate{
			ID: int64(i + 1), Label: fmt.Sprintf("Sesión %d › Parte %d", i/4+1, i%4+1), File: "Campaña/Diario.md",
			Session: i/4 + 1, InSession: true, Text: text,
			Annotation: "La Dama Velada encarga a los PJ recuperar el Cáliz de Ezkarra; Nix desconfía de ella.",
		})
	}
	return out
}

func BenchmarkAssemble(b *testing.B) {
	cands := benchCandidates()
	for b.Loop() {
		Assemble(cands, AssembleOptions{})
	}
}

func BenchmarkVerify(b *testing.B) {
	ctx := Assemble(benchCandidates(), AssembleOptions{})
	answer := strings.Repeat("El archiduque huyó hacia el norte [Sesión 1 › Parte 1]. Nix desconfió [sesion 2 > parte 1; Sesión 119]. ", 40)
	for b.Loop() {
		Verify(answer, ctx)
	}
}

func BenchmarkVerifyNested(b *testing.B) {
	ctx := Assemble(benchCandidates(), AssembleOptions{})
	answer := strings.Repeat("[a ", 1000) + "[Sesión 119]" + strings.Repeat(" a]", 1000)
	for b.Loop() {
		Verify(answer, ctx)
	}
}

func BenchmarkExtractive(b *testing.B) {
	ctx := Assemble(benchCandidates(), AssembleOptions{})
	terms := spanishTerms(b)
	for b.Loop() {
		Extractive("¿Qué pasó con el archiduque Valcárcel?", ctx, terms, "es")
	}
}
