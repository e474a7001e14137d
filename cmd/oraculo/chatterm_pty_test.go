//go:build linux

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/oraculo/oraculo/chat/chattest"
	"golang.org/x/sys/unix"
)

// ptyChat is a real `oraculo chat` process (the test binary, see TestMain)
// on a pseudo-terminal, driven as a person at a terminal would.
type ptyChat struct {
	t    *testing.T
	cmd  *exec.Cmd
	ptmx *os.File // the terminal's side: what is typed, what is shown
	tty  *os.File // the process's side, kept open to read its modes after

	mu   sync.Mutex
	out  bytes.Buffer
	seen int // how far expect has read
	done chan error
}

// openPTY opens a pseudo-terminal of cols columns.
func openPTY(t *testing.T, cols int) (ptmx, tty *os.File) {
	t.Helper()
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	fd := int(ptmx.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Fatalf("unlocking the pty: %v", err)
	}
	n, err := unix.IoctlGetUint32(fd, unix.TIOCGPTN)
	if err != nil {
		t.Fatalf("naming the pty: %v", err)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("opening the pty: %v", err)
	}
	if err := unix.IoctlSetWinsize(int(tty.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 40, Col: uint16(cols)}); err != nil {
		t.Fatalf("sizing the pty: %v", err)
	}
	return ptmx, tty
}

func startPTYChat(t *testing.T, env []string, args ...string) *ptyChat {
	t.Helper()
	return startPTYChatIn(t, "", env, args...)
}

// startPTYChatIn starts the chat in the working folder dir ("": this
// process's).
func startPTYChatIn(t *testing.T, dir string, env []string, args ...string) *ptyChat {
	t.Helper()
	ptmx, tty := openPTY(t, 60)
	cmd := exec.Command(os.Args[0], append([]string{"chat"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "ORACULO_TEST_MAIN=1", "ORACULO_UI_LANG=en", "TERM=xterm", "NO_COLOR=", "ORACULO_CHAT=", "ORACULO_RERANK=")
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &ptyChat{t: t, cmd: cmd, ptmx: ptmx, tty: tty, done: make(chan error, 1)}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := ptmx.Read(buf)
			p.mu.Lock()
			p.out.Write(buf[:n])
			p.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	go func() { p.done <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		ptmx.Close()
		tty.Close()
	})
	return p
}

// expect waits for s to show after what earlier expects saw, and moves
// past it.
func (p *ptyChat) expect(s string) {
	p.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		out := p.all()
		if i := strings.Index(out[p.seen:], s); i >= 0 {
			p.seen += i + len(s)
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("waited 30s for %q; the terminal shows, after what was seen:\n%q", s, out[p.seen:])
		}
		select {
		case err := <-p.done:
			p.done <- err
			time.Sleep(100 * time.Millisecond) // the last output
			out = p.all()
			if !strings.Contains(out[p.seen:], s) {
				p.t.Fatalf("chat ended (%v) before %q showed; after what was seen:\n%q", err, s, out[p.seen:])
			}
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// all returns everything the terminal showed.
func (p *ptyChat) all() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.String()
}

// since returns what the terminal showed after what expect saw.
func (p *ptyChat) since() string { return p.all()[p.seen:] }

func (p *ptyChat) typeKeys(s string) {
	p.t.Helper()
	if _, err := p.ptmx.Write([]byte(s)); err != nil {
		p.t.Fatal(err)
	}
}

// exited waits for the process to end and returns its exit code.
func (p *ptyChat) exited() int {
	p.t.Helper()
	select {
	case err := <-p.done:
		p.done <- err
		if err != nil {
			if ee, ok := err.(*exec.ExitError); ok {
				return ee.ExitCode()
			}
			p.t.Fatal(err)
		}
		return 0
	case <-time.After(20 * time.Second):
		p.t.Fatalf("chat did not exit; it shows:\n%q", p.since())
		return -1
	}
}

func (p *ptyChat) running() bool {
	select {
	case err := <-p.done:
		p.done <- err
		return false
	default:
		return true
	}
}

// The terminal is in the modes it had before (line editing by the
// terminal, echo), as the chat found it.
func (p *ptyChat) restored() {
	p.t.Helper()
	tio, err := unix.IoctlGetTermios(int(p.tty.Fd()), unix.TCGETS)
	if err != nil {
		p.t.Fatal(err)
	}
	if tio.Lflag&unix.ICANON == 0 || tio.Lflag&unix.ECHO == 0 || tio.Lflag&unix.ISIG == 0 {
		p.t.Errorf("the terminal was left in raw mode: lflag %#x", tio.Lflag)
	}
}

// TestChatOnATerminal drives `oraculo chat` on a pseudo-terminal: an
// answer streams with its emphasis shown, arrow-up recalls the last
// question (also in the next session, from the history file), Ctrl-C stops
// an answer without leaving and clears a line, and Ctrl-D or Ctrl-C at an
// empty prompt leaves with status 0, the terminal as it was.
func TestChatOnATerminal(t *testing.T) {
	t.Setenv("ORACULO_UI_LANG", "en")
	t.Setenv("ORACULO_CHAT", "")
	db := ingestSmall(t)
	const reply = "Norkiel **cayó** en combate contra los trolls en el puente de Galerna [Sesión 1]. La batalla fue larga y nadie más cayó aquel día en el puente [Sesión 99]."
	srv := chattest.NewOllama(t, func(chattest.Call) string { return reply })
	args := []string{"--db", db, "--chat", "ollama", "--chat-url", srv.URL, "--chat-model", "fake", "--rerank", "none"}
	const question = "¿Quién cayó en el puente?"

	p := startPTYChat(t, nil, args...)
	p.expect("Arrow-up")
	p.expect(chatPrompt)
	p.typeKeys(question + "\r")
	p.expect("Sources:")
	p.expect(chatPrompt)
	if out := p.all(); !strings.Contains(out, "\x1b[1mcayó\x1b[0m") || strings.Contains(out, "**") {
		t.Errorf("the answer's **bold** is not shown bold:\n%q", out)
	}
	// Only verified text reaches the terminal: the invented citation never,
	// the sentence it leaves without support marked.
	if out, _, _ := strings.Cut(p.all(), "Removed citations"); strings.Contains(out, "Sesión 99") || !strings.Contains(out, "(sin fuente)") {
		t.Errorf("the terminal was shown unverified text, or an unsupported sentence unmarked:\n%q", out)
	}

	// Arrow-up recalls the question; the answer to it stalls after its
	// first sentence (shown once verified: 14 words, and the next one
	// begun), and Ctrl-C stops it.
	srv.Fail(chattest.Fault{Stall: true, After: 15, Times: 1})
	p.typeKeys("\x1b[A")
	p.expect(question)
	calls := len(srv.Calls())
	p.typeKeys("\r")
	p.expect("Norkiel")
	p.typeKeys("\x03")
	p.expect("(cancelled)")
	p.expect(chatPrompt)
	if got := len(srv.Calls()); got != calls+1 {
		t.Errorf("the recalled question made %d chat calls, want 1", got-calls)
	}
	if !p.running() {
		t.Fatalf("Ctrl-C during an answer ended the chat:\n%s", p.all())
	}
	// The next question is answered as usual.
	p.typeKeys("¿Y por qué?\r")
	p.expect("Sources:")
	p.expect(chatPrompt)
	// /open shows the source, the sentence the answer cites highlighted.
	p.typeKeys("/open 1\r")
	p.expect("── [Sesión 1]")
	p.expect("Galerna. \x1b[0m\x1b[7mNorkiel cayó en combate")
	p.expect("\x1b[7mcontra los trolls.\x1b[0m") // wrapped at 60 columns
	p.expect(chatPrompt)
	p.typeKeys("\x04")
	if code := p.exited(); code != 0 {
		t.Errorf("Ctrl-D: exit %d, want 0:\n%q", code, p.all())
	}
	p.restored()
	if strings.Contains(p.all(), "interrupted") {
		t.Errorf("the chat said it was interrupted:\n%q", p.all())
	}

	hist := filepath.Join(filepath.Dir(db), "chat_history")
	data, err := os.ReadFile(hist)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != question+"\n¿Y por qué?\n/open 1\n" {
		t.Errorf("history file holds %q", data)
	}
	if fi, _ := os.Stat(hist); fi.Mode().Perm() != 0o600 {
		t.Errorf("history file mode %v, want 0600", fi.Mode().Perm())
	}

	// A new session: arrow-up reaches the last one's questions; Ctrl-C
	// clears a line being written; at an empty prompt it leaves.
	p = startPTYChat(t, nil, args...)
	p.expect(chatPrompt)
	p.typeKeys("\x1b[A\x1b[A\x1b[A")
	p.expect(question)
	p.typeKeys("\x03")
	p.expect(chatPrompt)
	time.Sleep(200 * time.Millisecond)
	if !p.running() {
		t.Fatalf("Ctrl-C on a line being written ended the chat:\n%q", p.all())
	}
	p.typeKeys("\x03")
	if code := p.exited(); code != 0 {
		t.Errorf("Ctrl-C at an empty prompt: exit %d, want 0:\n%q", code, p.all())
	}
	p.restored()
	if n := len(srv.Calls()); n != calls+2 {
		t.Errorf("the second session asked the model %d times, want none", n-calls-2)
	}
}

// Ctrl-C twice while an answer is being written leaves the chat.
func TestChatCtrlCTwiceLeaves(t *testing.T) {
	t.Setenv("ORACULO_UI_LANG", "es")
	t.Setenv("ORACULO_CHAT", "")
	db := ingestSmall(t)
	srv := chattest.NewOllama(t, func(chattest.Call) string { return "Norkiel cayó [Sesión 1]." })
	srv.Fail(chattest.Fault{Delay: time.Minute})
	p := startPTYChat(t, []string{"ORACULO_UI_LANG=es", "NO_COLOR=1"}, "--db", db, "--chat", "ollama", "--chat-url", srv.URL, "--chat-model", "fake", "--rerank", "none")
	p.expect("La flecha arriba")
	p.expect(chatPrompt)
	p.typeKeys("¿Quién cayó?\r")
	for len(srv.Calls()) == 0 {
		time.Sleep(20 * time.Millisecond)
	}
	p.typeKeys("\x03\x03")
	p.expect("(cancelada)")
	if code := p.exited(); code != 0 {
		t.Errorf("exit %d, want 0:\n%q", code, p.all())
	}
	p.restored()
	if strings.Contains(p.all(), "\x1b[1m") {
		t.Errorf("NO_COLOR, yet bold:\n%q", p.all())
	}
}

// A model that stalls midway on a terminal: what it wrote but had not
// cited is never shown, and the answer extracted from the notes follows,
// saying why, within the inactivity deadline the flag sets.
func TestChatModelStallsOnATerminal(t *testing.T) {
	t.Setenv("ORACULO_UI_LANG", "en")
	t.Setenv("ORACULO_CHAT", "")
	db := ingestSmall(t)
	srv := chattest.NewOllama(t, func(chattest.Call) string {
		return "Norkiel cayó en combate contra los trolls en el puente de Galerna [Sesión 1]."
	})
	srv.Fail(chattest.Fault{Stall: true, After: 3})
	p := startPTYChat(t, []string{"NO_COLOR=1"}, "--db", db, "--chat", "ollama", "--chat-url", srv.URL, "--chat-model", "fake", "--rerank", "none",
		"--chat-first-token-timeout", "300ms", "--chat-idle-timeout", "300ms")
	p.expect(chatPrompt)
	start := time.Now()
	p.typeKeys("¿Quién cayó en el puente?\r")
	p.expect("(The model did not answer in time")
	p.expect("- Norkiel cayó en combate contra los trolls")
	p.expect("Sources:")
	p.expect(chatPrompt)
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("the answer took %v", took)
	}
	if out := p.all(); strings.Index(out, "Norkiel") < strings.Index(out, "(The model did not answer in time") {
		t.Errorf("the model's uncited text was shown before the notice:\n%q", out)
	}
	p.typeKeys("\x04")
	if code := p.exited(); code != 0 {
		t.Errorf("Ctrl-D: exit %d, want 0:\n%q", code, p.all())
	}
}
