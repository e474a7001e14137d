package chat

import "strings"

// reasoningTags are the inline reasoning blocks a reply may hold, opening
// tag and its closing tag: DeepSeek-R1, Qwen3, QwQ and their kin write
// <think>; others <thinking> or <reasoning>. Tags match without regard to
// ASCII case.
var reasoningTags = [...]struct{ open, close string }{
	{"<think>", "</think>"},
	{"<thinking>", "</thinking>"},
	{"<reasoning>", "</reasoning>"},
}

// reasoningFilter takes the model's reasoning out of a reply as it
// streams, so that only the answer reaches the caller. Text goes in by
// write, piece by piece, cut anywhere; what is not reasoning comes out by
// show, in order, as soon as it cannot be part of a tag: only a possible
// partial tag at the end of a piece, and white space at the start of the
// reply, are held back. The output is the same however the input is cut.
//
// The rules:
//   - An opening tag starts a block and its own closing tag ends it; the
//     block, tags included, is removed. A block never closed runs to the
//     end of the reply (the model ran out of tokens while thinking).
//   - A closing tag that closes nothing is removed; the text before it is
//     kept. Some chat templates open the block in the prompt, so that the
//     reply starts inside it, but text is shown as soon as it comes and
//     shown text is never taken back; only when nothing but white space
//     came before is there nothing to keep. (Servers can separate such
//     reasoning themselves: llama-server --reasoning-format deepseek,
//     vLLM --reasoning-parser; it then arrives by reasoning.)
//   - White space right after a closing tag is removed when the text
//     shown so far is empty or ends in white space, so that a block
//     leaves no blank lines behind; white space before a block at the
//     start of the reply is removed with it.
//
// onThinking, when not nil, is called when the model starts reasoning (an
// inline block opens, or reasoning comes in a separate field: see
// reasoning) at the start of the reply or after answer text was shown:
// once per stretch of reasoning, however many blocks it has.
type reasoningFilter struct {
	show       func(string)
	onThinking func()

	buf       string // unread input: a possible partial tag, or inside a block what may end it
	closer    string // inside a block: the closing tag that ends it; else ""
	thinking  bool   // onThinking was called and no text was shown since
	visible   bool   // something other than white space has been shown
	lastSpace bool   // the last byte shown is white space
	lead      string // white space at the start of the reply, held back
	trim      bool   // drop the white space that comes next
}

func newReasoningFilter(show func(string), onThinking func()) *reasoningFilter {
	return &reasoningFilter{show: show, onThinking: onThinking}
}

// write takes the next piece of the reply's text.
func (f *reasoningFilter) write(s string) {
	if s == "" {
		return
	}
	f.buf += s
	for f.buf != "" {
		if f.closer != "" {
			i := indexFold(f.buf, f.closer)
			if i < 0 {
				// Keep only what may be the start of the closing tag: it
				// begins at the last '<', the tag's only one.
				f.buf = f.buf[partialStart(f.buf, f.closer):]
				return
			}
			f.buf = f.buf[i+len(f.closer):]
			f.closer = ""
			f.trim = !f.visible || f.lastSpace
			continue
		}
		if f.trim {
			f.buf = strings.TrimLeft(f.buf, spaces)
			if f.buf == "" {
				return
			}
			f.trim = false
		}
		i := strings.IndexByte(f.buf, '<')
		if i < 0 {
			f.text(f.buf)
			f.buf = ""
			return
		}
		f.text(f.buf[:i])
		f.buf = f.buf[i:]
		tag, partial := f.tagAt()
		switch {
		case partial:
			return // wait for the next piece to tell
		case tag < 0:
			f.text("<")
			f.buf = f.buf[1:]
		case tag%2 == 0: // an opening tag
			t := reasoningTags[tag/2]
			f.buf = f.buf[len(t.open):]
			f.closer, f.lead = t.close, ""
			f.startThinking()
		default: // a closing tag that closes nothing
			f.buf = f.buf[len(reasoningTags[tag/2].close):]
			f.lead = ""
			f.trim = !f.visible || f.lastSpace
		}
	}
}

// reasoning says that a piece of reasoning came in a field of its own
// (Ollama's "thinking", OpenAI-compatible servers' "reasoning_content").
func (f *reasoningFilter) reasoning() { f.startThinking() }

// close ends the reply: text held back that turned out not to be a tag is
// shown; an unclosed block is dropped.
func (f *reasoningFilter) close() {
	if f.closer == "" {
		f.text(f.buf) // a partial tag: never trimmed, since it starts with '<'
	}
	if !f.visible && f.lead != "" {
		f.emit(f.lead) // a reply of white space only, shown as it came
	}
	f.buf, f.lead = "", ""
}

func (f *reasoningFilter) startThinking() {
	if !f.thinking && f.onThinking != nil {
		f.onThinking()
	}
	f.thinking = true
}

// text shows answer text, holding back white space at the reply's start.
func (f *reasoningFilter) text(s string) {
	if s == "" {
		return
	}
	if !f.visible {
		if strings.TrimLeft(s, spaces) == "" {
			f.lead += s
			return
		}
		s, f.lead = f.lead+s, ""
		f.visible = true
	}
	f.emit(s)
}

func (f *reasoningFilter) emit(s string) {
	f.thinking = false
	f.lastSpace = strings.IndexByte(spaces, s[len(s)-1]) >= 0
	f.show(s)
}

// tagAt tells what f.buf, which starts with '<', starts with: tag 2k is
// reasoningTags[k]'s opening tag, 2k+1 its closing tag, -1 none; partial
// says that f.buf is too short to tell.
func (f *reasoningFilter) tagAt() (tag int, partial bool) {
	for k, t := range reasoningTags {
		for j, name := range [2]string{t.open, t.close} {
			if hasPrefixFold(f.buf, name) {
				return 2*k + j, false
			}
			if len(f.buf) < len(name) && hasPrefixFold(name, f.buf) {
				partial = true
			}
		}
	}
	return -1, partial
}

// spaces is what counts as white space around tags.
const spaces = " \t\r\n"

// hasPrefixFold reports whether s starts with prefix, ignoring ASCII case
// (only: a Unicode fold such as the Kelvin sign's would change lengths).
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		if lower(s[i]) != lower(prefix[i]) {
			return false
		}
	}
	return true
}

// indexFold returns the index of the first tag in s, ignoring ASCII case,
// or -1; tag starts with '<' and has no other.
func indexFold(s, tag string) int {
	for i := 0; i < len(s); i++ {
		j := strings.IndexByte(s[i:], '<')
		if j < 0 {
			return -1
		}
		i += j
		if hasPrefixFold(s[i:], tag) {
			return i
		}
	}
	return -1
}

// partialStart returns where in s (which does not contain tag) a proper
// prefix of tag begins that runs to the end of s, or len(s).
func partialStart(s, tag string) int {
	i := strings.LastIndexByte(s, '<')
	if i >= 0 && len(s)-i < len(tag) && hasPrefixFold(tag, s[i:]) {
		return i
	}
	return len(s)
}

func lower(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}
