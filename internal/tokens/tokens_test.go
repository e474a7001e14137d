package tokens

import (
	"os"
	"strings"
	"sync"
	"testing"
)

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		text string
		want int
	}{
		{"", 0},
		{"hello world", 2}, // cl100k_base: [15339, 1917]
		{"hello world hello world", 4},
	} {
		if got := Count(tc.text); got != tc.want {
			t.Errorf("Count(%q) = %d, want %d", tc.text, got, tc.want)
		}
	}
	// Any bytes are read, invalid UTF-8 included, a token per byte at most.
	if got := Count("\xff\xfe"); got < 1 || got > 2 {
		t.Errorf("Count of two invalid bytes = %d, want 1 or 2", got)
	}
	// Spanish prose: fewer tokens than characters, more than words.
	es := "¿Qué le pasó al archiduque cuando los aventureros llegaron a la ciudad?"
	if got, words := Count(es), len(strings.Fields(es)); got <= words || got >= len(es)/2 {
		t.Errorf("Count(%q) = %d: want between %d words and %d bytes/2", es, got, words, len(es))
	}
}

func TestMessages(t *testing.T) {
	if got := Messages(nil); got != 0 {
		t.Errorf("Messages(nil) = %d, want 0", got)
	}
	contents := []string{"You answer from the notes.", "hello world"}
	want := PerReply + 2*PerMessage + Count(contents[0]) + Count(contents[1])
	if got := Messages(contents); got != want {
		t.Errorf("Messages = %d, want %d", got, want)
	}
}

func TestCountConcurrent(t *testing.T) {
	want := Count("la sesión ciento diecinueve")
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if got := Count("la sesión ciento diecinueve"); got != want {
				t.Errorf("concurrent Count = %d, want %d", got, want)
			}
		})
	}
	wg.Wait()
}

// BenchmarkCount counts a session log of the sample campaign (about
// 7,000 words, the size of an answer's evidence).
func BenchmarkCount(b *testing.B) {
	text, err := os.ReadFile("../../examples/campaign/Sesiones/Sesiones 01-12.md")
	if err != nil {
		b.Fatal(err)
	}
	Warm()
	b.SetBytes(int64(len(text)))
	var n int
	for b.Loop() {
		n = Count(string(text))
	}
	b.ReportMetric(float64(n), "tokens")
}
