//go:build !unix

package weaviatetest

import (
	"os"
	"os/exec"
)

// ownGroup does nothing where there are no process groups.
func ownGroup(*exec.Cmd) {}

// signalGroup ends the process: interrupt, or kill when kill.
func signalGroup(cmd *exec.Cmd, kill bool) {
	if kill {
		cmd.Process.Kill()
		return
	}
	cmd.Process.Signal(os.Interrupt)
}
