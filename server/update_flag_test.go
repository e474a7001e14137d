package server

// Imported for its -update flag, so that "go test ./... -update" runs here too.
import _ "github.com/oraculo/oraculo/internal/golden"
