package oraculo_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/oraculo/oraculo"
)

// BenchmarkAskMemory measures what long-term memory costs an extractive
// answer over the sample campaign: none, and 100 and 1000 entries (a
// tenth verified, a tenth from a note), for the DM and for a player, whose
// entries are each checked against what players may see. The ratio to
// "none" is the cost.
func BenchmarkAskMemory(b *testing.B) {
	ctx := context.Background()
	for _, n := range []int{0, 100, 1000} {
		eng, err := oraculo.Open(ctx, filepath.Join(b.TempDir(), "m.db"))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := eng.Ingest(ctx, []string{"examples/campaign"}, oraculo.IngestOptions{}); err != nil {
			b.Fatal(err)
		}
		for i := range n {
			in := oraculo.MemoryInput{Scope: "campaign", Key: fmt.Sprintf("regla %d", i), Value: fmt.Sprintf("La regla número %d de la mesa dice que los dados de daño se tiran dos veces.", i), Verified: i%10 == 0}
			if i%10 == 5 {
				in.Note = "Mundo/Reglas de la casa.docx"
			}
			if i == n/2 {
				in.Key, in.Value = "archiduque", "El archiduque Leoric murió en la sesión 12 (lo confirmó el DM)."
				in.Verified = true
			}
			if _, err := eng.AddMemory(ctx, in); err != nil {
				b.Fatal(err)
			}
		}
		for _, who := range []struct {
			name string
			ctx  context.Context
		}{{"dm", ctx}, {"player", oraculo.WithPlayer(ctx, "ana")}} {
			b.Run(fmt.Sprintf("entries=%d/%s", n, who.name), func(b *testing.B) {
				for b.Loop() {
					if _, err := eng.Ask(who.ctx, "¿Qué pasó con el archiduque?", oraculo.AskOptions{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		eng.Close()
	}
}
