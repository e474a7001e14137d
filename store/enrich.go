package store

import "strings"

// EmbedJob is a text the dense path still has to embed for a model.
type EmbedJob struct {
	Hash string
	Text string
}

// Vectors are the stored vectors of one model, joined to their chunks.
type Vectors struct {
	Model string
	Dims  int
	// IDs[i] is the chunk of Data[i*Dims:(i+1)*Dims].
	IDs  []int64
	Data []float32
}

// AnnotateJob is a chunk text a chat model still has to annotate.
type AnnotateJob struct {
	Hash     string
	Headings []string
	Text     string
}

// EmbedText is what the dense path embeds for a chunk: its heading path
// (title first) above its text, so that the vector knows what the text is
// about (seed 001).
func EmbedText(headings []string, text string) string {
	if len(headings) == 0 {
		return text
	}
	return strings.Join(headings, " › ") + "\n\n" + text
}
