package answer

import (
	"testing"

	"github.com/oraculo/oraculo/compendium"
)

// TestNamesSomeone: with a compendium, a question names someone when its
// matcher finds an entity; without one, the follow-up rule's own
// fallback applies (nil).
func TestNamesSomeone(t *testing.T) {
	if NamesSomeone(nil, 0) != nil || NamesSomeone(compendium.NewMatcher(nil), 0) != nil {
		t.Error("an empty compendium names someone")
	}
	ents := []compendium.Entity{{Name: "Garrik", Kind: compendium.KindNPC, Source: compendium.SourceFile}}
	names := NamesSomeone(compendium.NewMatcher(ents), len(ents))
	if names == nil || !names("¿y Garrik?") || names("¿y después?") {
		t.Error("the compendium's names are not found")
	}
}
