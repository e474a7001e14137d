// Command synthvault writes a synthetic campaign vault for benchmarks:
//
//	go run ./internal/synth/synthvault DIR SESSIONS [WORDS]
//
// SESSIONS sessions of WORDS words (default 120), ten to a file, each one
// chunk at the default settings (see package synth).
package main

import (
	"fmt"
	"os"
	"strconv"

	"github.com/oraculo/oraculo/internal/synth"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: synthvault DIR SESSIONS [WORDS]")
		os.Exit(2)
	}
	sessions, err := strconv.Atoi(os.Args[2])
	words := 120
	if err == nil && len(os.Args) > 3 {
		words, err = strconv.Atoi(os.Args[3])
	}
	if err != nil || sessions < 1 || words < 1 {
		fmt.Fprintln(os.Stderr, "synthvault: SESSIONS and WORDS must be positive numbers")
		os.Exit(2)
	}
	size, err := synth.Write(os.Args[1], sessions, 10, words)
	if err != nil {
		fmt.Fprintln(os.Stderr, "synthvault:", err)
		os.Exit(1)
	}
	fmt.Printf("%s: %d sessions, %d bytes\n", os.Args[1], sessions, size)
}
