package index

import "github.com/oraculo/oraculo/store"

// The Index is the embedded implementation of [store.Store].
var (
	_ store.Store       = (*Index)(nil)
	_ store.TermCounter = (*Index)(nil)
	_ store.GraphStore  = (*Index)(nil)
	_ store.GraphMapper = (*Index)(nil)
)
