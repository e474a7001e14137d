package store

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
