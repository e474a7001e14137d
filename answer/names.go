package answer

import "github.com/oraculo/oraculo/compendium"

// NamesSomeone is the names of the follow-up rule (see [FollowUp]) by a
// compendium: whether a question names one of its entities, as m, the
// matcher of its entities (how many), finds them. nil when the
// compendium has no entity, so that the rule's own fallback (a
// capitalised word) applies.
func NamesSomeone(m *compendium.Matcher, entities int) func(string) bool {
	if m == nil || entities == 0 {
		return nil
	}
	return func(q string) bool { return len(m.Find(q)) > 0 }
}
