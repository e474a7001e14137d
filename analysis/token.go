package analysis

// Token is one unit of text flowing through an analyzer.
type Token struct {
	// Term is the token's current text; filters rewrite it.
	Term string
	// Start and End are the byte offsets of the token in the analysed text:
	// text[Start:End] is what the tokenizer cut out.
	Start, End int
	// Position is the token's ordinal among the tokenizer's output,
	// starting at 0.
	Position int
}

// TokenStream is a sequence of tokens in text order.
type TokenStream []Token

// Tokenizer splits text into a token stream.
type Tokenizer interface {
	Tokenize(text string) TokenStream
}

// TokenFilter transforms a token stream. A filter may rewrite, drop or keep
// tokens, and may reuse the input's backing array for its output.
type TokenFilter interface {
	Filter(TokenStream) TokenStream
}
