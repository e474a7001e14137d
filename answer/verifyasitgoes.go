package answer

import "strings"

// verifyEveryBytes is how long a streamed answer may grow before its
// verified text is shown a batch of sentences at a time (see
// [VerifyAsItGoes]).
const verifyEveryBytes = 4096

// VerifyAsItGoes returns the onDelta of a streamed answer that passes
// each delta on to onDelta and, once a sentence is complete ([Settled]),
// the text so far verified against ev and marked in lang
// ([CheckSettled]) to onVerified, in its public shape: each call's text
// starts with the previous call's. It does not call onVerified before a
// citation is valid (an answer with none is replaced by an abstention).
func VerifyAsItGoes(onDelta func(string), onVerified func([]PublicSegment), ev *Delivery, lang string) func(string) {
	var raw strings.Builder
	done, valid := 0, false
	return func(delta string) {
		if onDelta != nil {
			onDelta(delta)
		}
		raw.WriteString(delta)
		text := raw.String()
		n := Settled(text)
		// Each check reads the whole text so far: past a few pages it waits
		// for the text to grow by a quarter, so that a long answer costs a
		// few checks of its length, not one per sentence.
		if n <= done || (done > verifyEveryBytes && n-done < done/4) {
			return
		}
		v := CheckSettled(text, ev.Context, lang)
		for _, c := range v.Citations {
			valid = valid || c.Valid
		}
		if !valid {
			return
		}
		done = n
		onVerified(ev.Segments(v.Segments))
	}
}
