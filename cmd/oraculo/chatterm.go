package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/internal/termrender"
	"golang.org/x/term"
)

// chatPrompt is what the chat asks with.
const chatPrompt = "› "

// maxChatHistory is how many questions the chat's history file keeps.
const maxChatHistory = 500

// chatTerm is the chat's terminal when stdin and stdout are one: raw mode,
// line editing and history (term.Terminal), and Ctrl-C watched for while
// an answer streams. In raw mode Ctrl-C is a byte, not SIGINT, so that it
// can stop the answer without ending the process.
type chatTerm struct {
	fd    int // stdin's
	outFd int // stdout's
	saved *term.State
	t     *term.Terminal
	out   io.Writer // stdout, \n written as \r\n

	keys    chan []byte // what stdin reads, from pump
	pending []byte      // read from keys, not yet given to t
	ctx     context.Context

	// interrupt is what the last Ctrl-C at the prompt did: "" (none),
	// "clear" (a line was being written) or "exit".
	interrupt string
}

// ctrlCKey stands for Ctrl-C in what t reads: term.Terminal ends ReadLine
// with io.EOF on Ctrl-C, as on Ctrl-D, whatever the line holds; a key it
// does not know reaches the AutoCompleteCallback instead, with the line,
// so that Ctrl-C can clear a line and leave only from an empty one.
const ctrlCKey = '\uE0FF'

// newChatTerm returns the chat's terminal, or nil when stdin or stdout is
// not a terminal (questions piped in, a transcript written out).
func newChatTerm(stdin io.Reader, stdout io.Writer) *chatTerm {
	in, ok := stdin.(*os.File)
	out, ok2 := stdout.(*os.File)
	if !ok || !ok2 || !term.IsTerminal(int(in.Fd())) || !term.IsTerminal(int(out.Fd())) {
		return nil
	}
	return &chatTerm{fd: int(in.Fd()), outFd: int(out.Fd()), out: crlfWriter{out}}
}

// start puts the terminal in raw mode and starts reading it; close must
// follow, whatever happens.
func (c *chatTerm) start(ctx context.Context, stdin io.Reader, history term.History) error {
	saved, err := term.MakeRaw(c.fd)
	if err != nil {
		return fmt.Errorf("setting up the terminal: %w", err)
	}
	c.saved, c.ctx = saved, ctx
	c.t = term.NewTerminal(struct {
		io.Reader
		io.Writer
	}{c, c.out}, chatPrompt)
	c.t.History = history
	c.t.AutoCompleteCallback = func(line string, _ int, key rune) (string, int, bool) {
		if key != ctrlCKey {
			return "", 0, false
		}
		c.interrupt = "clear"
		if strings.TrimSpace(line) == "" {
			c.interrupt = "exit"
		}
		return "", 0, true
	}
	c.keys = make(chan []byte)
	go c.pump(stdin)
	return nil
}

// close gives the terminal back as it was.
func (c *chatTerm) close() {
	if c.saved != nil {
		_ = term.Restore(c.fd, c.saved)
		c.saved = nil
	}
}

// pump reads the terminal for as long as the process lives (a read of a
// terminal cannot be interrupted); keys closes at the end of input.
func (c *chatTerm) pump(stdin io.Reader) {
	defer close(c.keys)
	for {
		buf := make([]byte, 256)
		n, err := stdin.Read(buf)
		if n > 0 {
			c.keys <- buf[:n]
		}
		if err != nil {
			return
		}
	}
}

// Read gives term.Terminal the keys typed, Ctrl-C as ctrlCKey and Enter.
func (c *chatTerm) Read(p []byte) (int, error) {
	if len(c.pending) == 0 {
		select {
		case b, ok := <-c.keys:
			if !ok {
				return 0, io.EOF
			}
			c.pending = bytes.ReplaceAll(b, []byte{3}, []byte(string(ctrlCKey)+"\r"))
		case <-c.ctx.Done():
			return 0, c.ctx.Err()
		}
	}
	n := copy(p, c.pending)
	c.pending = c.pending[n:]
	return n, nil
}

// readLine reads a question; false at the end: Ctrl-D, Ctrl-C at an empty
// prompt, or the end of input.
func (c *chatTerm) readLine() (string, bool, error) {
	for {
		if w, h, err := term.GetSize(c.outFd); err == nil {
			_ = c.t.SetSize(w, h)
		}
		c.interrupt = ""
		line, err := c.t.ReadLine()
		switch {
		case c.interrupt == "exit":
			return "", false, nil
		case c.interrupt == "clear":
			continue
		case err == io.EOF:
			fmt.Fprintln(c.out)
			return "", false, nil
		case err != nil:
			return "", false, err
		}
		return line, true, nil
	}
}

// width is the terminal's width now.
func (c *chatTerm) width() int {
	if w, _, err := term.GetSize(c.outFd); err == nil && w > 0 {
		return w
	}
	return termrender.DefaultWidth
}

// watch watches the keys while an answer is being written: Ctrl-C calls
// cancel. What else is typed is kept for the next line. The returned
// function stops watching and reports whether Ctrl-C came twice (the user
// wants out, not only the answer stopped).
func (c *chatTerm) watch(cancel func()) (stop func() (twice bool)) {
	done, finished := make(chan struct{}), make(chan struct{})
	presses := 0
	go func() {
		defer close(finished)
		for {
			select {
			case <-done:
				return
			case b, ok := <-c.keys:
				if !ok {
					return
				}
				if n := bytes.Count(b, []byte{3}); n > 0 {
					presses += n
					c.pending = nil // what was typed before it is dropped too
					cancel()
					continue
				}
				c.pending = append(c.pending, b...)
			}
		}
	}()
	return func() bool {
		close(done)
		<-finished
		return presses > 1
	}
}

// crlfWriter writes \n as \r\n, for a terminal in raw mode (which does not
// return the carriage itself).
type crlfWriter struct{ w io.Writer }

func (c crlfWriter) Write(p []byte) (int, error) {
	if _, err := c.w.Write(bytes.ReplaceAll(p, []byte("\n"), []byte("\r\n"))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// wordWrapper writes each write (a whole message, such as a warning) in
// lines no wider than the terminal is now, cut between words: a line the
// terminal wrapped itself would be cut mid-word.
type wordWrapper struct {
	w     io.Writer
	width func() int
}

func (ww wordWrapper) Write(p []byte) (int, error) {
	r := termrender.NewWriter(ww.w, termrender.Options{Width: ww.width()})
	if _, err := r.Write(p); err != nil {
		return 0, err
	}
	if err := r.Flush(); err != nil {
		return 0, err
	}
	return len(p), nil
}

// chatStyle reports whether the chat may use ANSI attributes on its
// terminal: not when NO_COLOR is set (https://no-color.org) or TERM is
// dumb.
func chatStyle() bool {
	return os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb"
}

// chatHistory is the chat's history of questions (term.History), kept in
// a file beside the index so that arrow-up reaches the last session's
// questions. The file is the user's own (0600): questions can say what the
// notes hold. A history that cannot be written is kept in memory only.
type chatHistory struct {
	entries []string // oldest first
	path    string
	max     int
}

// chatHistoryPath is the history file of an index, one per role: a
// player's arrow-up never shows what the DM asked. $ORACULO_CHAT_HISTORY
// set to "off" keeps the history in memory only (""), and set to a path
// puts it there. An index in a cluster has no folder of its own: its
// history is in memory only unless $ORACULO_CHAT_HISTORY names a file.
func chatHistoryPath(ctx context.Context, l location) string {
	switch env := os.Getenv("ORACULO_CHAT_HISTORY"); {
	case strings.EqualFold(env, "off"):
		return ""
	case env != "":
		return env
	case l.cluster():
		return ""
	}
	name := "chat_history"
	if r := oraculo.RoleFrom(ctx); r != oraculo.RoleDM {
		name += "_" + r
	}
	return filepath.Join(filepath.Dir(oraculo.DBPath(l.db)), name)
}

// loadChatHistory reads a history file (none is an empty history), keeping
// its last max entries and rewriting it when it has grown past twice that.
func loadChatHistory(path string, max int) *chatHistory {
	h := &chatHistory{path: path, max: max}
	data, err := os.ReadFile(path)
	if err != nil {
		return h
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		if line := sc.Text(); line != "" {
			h.entries = append(h.entries, line)
		}
	}
	if len(h.entries) > max {
		grown := len(h.entries) > 2*max
		h.entries = h.entries[len(h.entries)-max:]
		if grown {
			_ = os.WriteFile(path, []byte(strings.Join(h.entries, "\n")+"\n"), 0o600)
		}
	}
	return h
}

// Add records a line, unless it is empty or repeats the last one. A line
// that asks to remember or to forget ("recuerda que …") is kept in memory
// only, never in the file: what someone asked to forget must not outlive
// the entry there.
func (h *chatHistory) Add(entry string) {
	entry = strings.TrimSpace(entry)
	if entry == "" || len(h.entries) > 0 && h.entries[len(h.entries)-1] == entry {
		return
	}
	if intent, _ := oraculo.MemoryIntent(entry); intent != "" {
		h.entries = append(h.entries, entry)
		return
	}
	h.entries = append(h.entries, entry)
	if len(h.entries) > h.max {
		h.entries = h.entries[len(h.entries)-h.max:]
	}
	if h.path == "" {
		return
	}
	f, err := os.OpenFile(h.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		h.path = "" // in memory from now on
		return
	}
	_, err = f.WriteString(entry + "\n")
	if cerr := f.Close(); err != nil || cerr != nil {
		h.path = ""
	}
}

// Len is the number of entries.
func (h *chatHistory) Len() int { return len(h.entries) }

// At is the entry i places back: 0 is the last.
func (h *chatHistory) At(i int) string { return h.entries[len(h.entries)-1-i] }
