package chunk

import "strings"

// FirstLine returns the first non-blank line of a text, trimmed.
func FirstLine(text string) string {
	for _, line := range strings.Split(text, "\n") {
		if t := strings.TrimSpace(line); t != "" {
			return t
		}
	}
	return ""
}

// Snippet is the first line of a chunk's text that says something: not a
// heading, not a line that only marks a session ("## Sesión 12"); else its
// first line ([FirstLine]).
func Snippet(text string) string {
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		if _, _, marker := DetectSession(t); t != "" && !strings.HasPrefix(t, "#") && !marker {
			return t
		}
	}
	return FirstLine(text)
}
