//go:build unix

package weaviatetest

import (
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a process group of its own, so that stopping it
// reaches anything it starts.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// signalGroup sends SIGTERM (SIGKILL when kill) to cmd's process group.
func signalGroup(cmd *exec.Cmd, kill bool) {
	sig := syscall.SIGTERM
	if kill {
		sig = syscall.SIGKILL
	}
	if err := syscall.Kill(-cmd.Process.Pid, sig); err != nil {
		cmd.Process.Signal(sig)
	}
}
