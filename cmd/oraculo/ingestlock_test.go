package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/oraculo/oraculo/chat/chattest"
)

// Two ingest processes on one index: the second waits for the first,
// saying who runs it (pid, command, since when), and then finds every
// file unchanged; a third with --no-wait fails at once with the same
// words. The first is held in its annotation stage by a fake model that
// answers only when the test lets it.
func TestIngestLockTwoProcesses(t *testing.T) {
	notes := t.TempDir()
	for i := range 20 {
		writeNote(t, filepath.Join(notes, fmt.Sprintf("Sesión %02d.md", i+1)), fmt.Sprintf("# Sesión %d\n\nLos héroes cruzaron el puente número %d.\n", i+1, i+1))
	}
	db := filepath.Join(t.TempDir(), "o.db")
	release := make(chan struct{})
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	asked := make(chan struct{}, 100)
	model := chattest.NewOllama(t, func(chattest.Call) string {
		select {
		case asked <- struct{}{}:
		default:
		}
		<-release
		return "Una sesión."
	})
	t.Cleanup(free)
	start := func(args ...string) (*exec.Cmd, *syncBuf, *syncBuf) {
		cmd := exec.Command(os.Args[0], append([]string{"ingest", "--db", db, "--quiet"}, args...)...)
		cmd.Env = append(os.Environ(), "ORACULO_TEST_MAIN=1", "ORACULO_UI_LANG=en", "ORACULO_CHAT=", "ORACULO_RERANK=")
		out, errb := &syncBuf{}, &syncBuf{}
		cmd.Stdout, cmd.Stderr = out, errb
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		return cmd, out, errb
	}

	first, firstOut, firstErr := start("--chat", "ollama", "--chat-model", "fake", "--chat-url", model.URL, notes)
	select {
	case <-asked: // the first is annotating, its notes written, the lock held
	case <-time.After(60 * time.Second):
		t.Fatalf("the first ingest never asked the model:\n%s", firstErr)
	}
	holder := regexp.MustCompile(fmt.Sprintf(`pid %d \([^)]*ingest --db [^)]*\) since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC`, first.Process.Pid))

	second, secondOut, secondErr := start("--chat", "none", notes)
	deadline := time.Now().Add(60 * time.Second)
	for !strings.Contains(secondErr.String(), "waiting for it to end") {
		if time.Now().After(deadline) {
			t.Fatalf("the second ingest does not say it waits:\n%s\n%s", secondErr, secondOut)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !holder.MatchString(secondErr.String()) {
		t.Errorf("the second ingest does not say who runs the first (%s):\n%s", holder, secondErr)
	}

	third, _, thirdErr := start("--no-wait", "--chat", "none", notes)
	if err := third.Wait(); err == nil {
		t.Error("ingest --no-wait succeeded while another ingest ran")
	}
	if !strings.Contains(thirdErr.String(), "another ingest of this index is running") || !holder.MatchString(thirdErr.String()) {
		t.Errorf("ingest --no-wait does not say who runs the other ingest:\n%s", thirdErr)
	}
	if second.ProcessState != nil {
		t.Fatal("the second ingest ended while the first held the lock")
	}

	free()
	if err := first.Wait(); err != nil {
		t.Fatalf("first ingest: %v\n%s", err, firstErr)
	}
	if err := second.Wait(); err != nil {
		t.Fatalf("second ingest: %v\n%s", err, secondErr)
	}
	if !strings.Contains(firstOut.String(), "20 files (20 indexed, 0 unchanged") {
		t.Errorf("first ingest:\n%s", firstOut)
	}
	if !strings.Contains(secondOut.String(), "20 files (0 indexed, 20 unchanged") {
		t.Errorf("the second ingest redid files the first wrote:\n%s", secondOut)
	}
}

// syncBuf is a bytes.Buffer written by a process and read by the test.
type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuf) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuf) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
