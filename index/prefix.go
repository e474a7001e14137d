package index

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// TermPrefixUsed reports whether some analysed term starting with prefix
// occurs in any paragraph (of a note players may see, when public): the
// question's word and its inflections ("destruyera", "destruyó") share
// the start of their stem, so an answer that says no note uses a word
// asks this, not [Index.TermUsed] alone. An empty prefix, or one with
// characters FTS5 would read as syntax, is reported unused.
func (ix *Index) TermPrefixUsed(ctx context.Context, prefix string, public bool) (bool, error) {
	if prefix == "" || strings.ContainsAny(prefix, "\"*^:(){}+-. ") {
		return false, nil
	}
	filter := ""
	if public {
		filter = notHidden
	}
	var one int
	err := ix.db.QueryRowContext(ctx, `SELECT 1 FROM children_fts WHERE children_fts MATCH ?`+filter+` LIMIT 1`, `"`+prefix+`"*`).Scan(&one)
	if err == sql.ErrNoRows {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("looking up terms starting with %q: %w", prefix, err)
	}
	return true, nil
}
