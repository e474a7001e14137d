package dense

import (
	"context"

	"github.com/oraculo/oraculo/retrieve"
)

// SearchAs makes the dense path among paths, when there is one, find
// neighbours as a search asked rather than as the index's size decides:
// scanning every vector when exact ([Index.Exact]), else walking a graph
// ([Index.Approx]). index returns the dense index the path searches (nil:
// none, and paths are left as they are); it is read only when there is a
// dense path. restricted returns the DM-only chunks.
func SearchAs(ctx context.Context, paths []retrieve.Path, exact bool, index func() (*Index, error), restricted func() (map[int64]bool, error)) error {
	for i, p := range paths {
		d, ok := p.(retrieve.Dense)
		if !ok {
			continue
		}
		ix, err := index()
		if err != nil || ix == nil {
			return err
		}
		if exact {
			paths[i], err = ix.Exact(ctx, d, restricted)
		} else {
			paths[i], err = ix.Approx(ctx, d)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
