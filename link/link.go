// Package link makes the links that citations carry when an answer
// leaves the server (the OpenAI endpoint, MCP, ask --json): each names a
// page of the cited passage on the server, /c/{id}, or of a whole note,
// /n?file=. A browser following one sends no token, so a link carries its
// own authority: the role it was made for and an HMAC of it with the
// subject, under the server's link key. It opens that subject for that
// role and nothing else.
//
// Optionally, a source also links to the note in Obsidian
// (obsidian://open?vault=…&file=…), for a DM whose vault is the folder
// the notes were ingested from.
package link

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/answer"
	textpkg "github.com/oraculo/oraculo/text"
)

// Kinds of link: a passage (a chunk) or a whole note.
const (
	KindPassage = "c"
	KindNote    = "n"
)

// Maker makes signed links. Its zero Key makes links no server accepts.
type Maker struct {
	// Key signs the links (see [LoadKey]).
	Key []byte
	// Keys, when set, holds the key instead of Key: one that may change
	// while the Maker is in use (a key rotated under a running server).
	Keys *Keyring
	// Base is where links point ("https://oraculo.example"); when empty,
	// the base in the context (see [WithBase]).
	Base string
	// ObsidianVault, when set, is the name of the Obsidian vault that
	// holds the notes (the ingested folder), and each source also links to
	// its note there.
	ObsidianVault string
}

type baseKey struct{}

// WithBase returns ctx with the base links made in it point to, when the
// Maker has none: the host a request came to, say.
func WithBase(ctx context.Context, base string) context.Context {
	return context.WithValue(ctx, baseKey{}, base)
}

func (m *Maker) base(ctx context.Context) string {
	if m.Base != "" {
		return strings.TrimRight(m.Base, "/")
	}
	b, _ := ctx.Value(baseKey{}).(string)
	return strings.TrimRight(b, "/")
}

// HasBase reports whether links made in ctx have a base to point to.
func (m *Maker) HasBase(ctx context.Context) bool { return m.base(ctx) != "" }

// Sig signs a link to subject (a chunk id, a note's file) of kind for
// role.
func (m *Maker) Sig(kind, role, subject string) string {
	return signature(m.key(), kind, role, subject)
}

func signature(key []byte, kind, role, subject string) string {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(kind + "\x00" + role + "\x00" + subject))
	return base64.RawURLEncoding.EncodeToString(h.Sum(nil)[:18])
}

// Valid reports whether sig signs a link to subject of kind for role.
func (m *Maker) Valid(kind, role, subject, sig string) bool {
	key := m.key()
	if len(key) == 0 || (role != oraculo.RoleDM && role != oraculo.RolePlayer) {
		return false
	}
	return hmac.Equal([]byte(sig), []byte(signature(key, kind, role, subject)))
}

// key is the key links are signed with now.
func (m *Maker) key() []byte {
	if m.Keys != nil {
		return m.Keys.Key()
	}
	return m.Key
}

// Keyring holds a link key that may be replaced while it is used: a
// server whose key is rotated ([RotateKey]) takes the new one, and every
// link signed with the old one stops working. Its methods are safe for
// concurrent use.
type Keyring struct {
	key atomic.Pointer[[]byte]
}

// NewKeyring returns a Keyring holding key.
func NewKeyring(key []byte) *Keyring {
	r := &Keyring{}
	r.Set(key)
	return r
}

// Key returns the key held now.
func (r *Keyring) Key() []byte {
	if k := r.key.Load(); k != nil {
		return *k
	}
	return nil
}

// Set replaces the key held, and reports whether it changed.
func (r *Keyring) Set(key []byte) bool {
	k := bytes.Clone(key)
	old := r.key.Swap(&k)
	return old == nil || !bytes.Equal(*old, k)
}

// Passage links to the passage of chunk id for the role in ctx, marking
// the sentence that best matches claim (the answer's sentence that cites
// it).
func (m *Maker) Passage(ctx context.Context, id, claim string) string {
	role := oraculo.RoleFrom(ctx)
	v := url.Values{"r": {role}, "k": {m.Sig(KindPassage, role, id)}}
	if claim = strings.TrimSpace(claim); claim != "" {
		v.Set("q", Clip(claim, 200))
	}
	return m.base(ctx) + "/c/" + url.PathEscape(id) + "?" + v.Encode()
}

// NotePath is the path and query of the page of a whole note for role.
func (m *Maker) NotePath(role, file string) string {
	v := url.Values{"file": {file}, "r": {role}, "k": {m.Sig(KindNote, role, file)}}
	return "/n?" + v.Encode()
}

// Note links to the page of the whole note at file for the role in ctx.
func (m *Maker) Note(ctx context.Context, file string) string {
	return m.base(ctx) + m.NotePath(oraculo.RoleFrom(ctx), file)
}

// Obsidian links to the note file in the Obsidian vault, or is "" when
// the Maker has no vault.
func (m *Maker) Obsidian(file string) string {
	if m.ObsidianVault == "" || file == "" {
		return ""
	}
	// Obsidian decodes %20, not "+", as a space.
	esc := func(s string) string { return strings.ReplaceAll(url.QueryEscape(s), "+", "%20") }
	return "obsidian://open?vault=" + esc(m.ObsidianVault) + "&file=" + esc(filepath.ToSlash(file))
}

// Text is the verified text of segs with each valid citation a Markdown
// link to the page of its passage. The text of a prefix of an answer's
// segments starts the text of the whole: a stream that verifies as it
// goes sends the difference.
func (m *Maker) Text(ctx context.Context, segs []oraculo.Segment) string {
	return m.TextNotes(ctx, segs, nil)
}

// TextNotes is [Maker.Text] with the first mention of each name of notes
// (see [oraculo.Engine.NoteLinks]) a Markdown link to the page of its
// note, for the role in ctx: "[Ser Morcant](…/n?file=…)". The shown text
// stays as it was; only the link is added. A name is linked where it
// stands as whole words, outside citations, code and brackets. The text
// of a prefix of the segments starts the text of the whole, as Text's.
func (m *Maker) TextNotes(ctx context.Context, segs []oraculo.Segment, notes []oraculo.NoteLink) string {
	linked := map[string]bool{}
	var b strings.Builder
	var before strings.Builder // the text since the last citation
	for _, seg := range segs {
		if seg.Mark != "" {
			// Oráculo's mark of a sentence without support ends it: no
			// claim a later citation backs.
			b.WriteString(seg.Text)
			before.Reset()
			continue
		}
		if len(seg.Citations) == 0 {
			b.WriteString(m.linkNames(ctx, seg.Text, notes, linked))
			before.WriteString(seg.Text)
			continue
		}
		claim := LastSentence(before.String())
		before.Reset()
		var links []string
		for _, c := range seg.Citations {
			if !c.Valid || c.Evidence == nil {
				continue
			}
			if c.Kind == answer.KindMemory {
				// An entry of memory has no passage page: its label alone.
				links = append(links, "["+c.Label+"]")
				continue
			}
			links = append(links, "["+c.Label+"]("+m.Passage(ctx, *c.Evidence, claim)+")")
		}
		if len(links) == 0 {
			b.WriteString(seg.Text)
			continue
		}
		b.WriteString(strings.Join(links, " "))
	}
	return strings.TrimRight(b.String(), "\n ")
}

// linkNames writes s with the first mention of each name of notes not
// linked yet (by linked, which it updates) a link to its note.
func (m *Maker) linkNames(ctx context.Context, s string, notes []oraculo.NoteLink, linked map[string]bool) string {
	if len(notes) == 0 {
		return s
	}
	type span struct {
		start, end int
		file       string
	}
	var spans []span
	overlaps := func(i, j int) bool {
		for _, sp := range spans {
			if i < sp.end && sp.start < j {
				return true
			}
		}
		return false
	}
	// Longest names first (NoteLinks' order): "Ser Morcant" before
	// "Morcant".
	for _, n := range notes {
		if linked[n.Text] || n.Text == "" || n.File == "" || strings.ContainsAny(n.Text, "[]`") {
			continue
		}
		for i := textpkg.IndexWord(s, n.Text); i >= 0; i = textpkg.IndexWordFrom(s, n.Text, i+1) {
			j := i + len(n.Text)
			if overlaps(i, j) || !plainAt(s, i) {
				continue
			}
			spans = append(spans, span{i, j, n.File})
			linked[n.Text] = true
			break
		}
	}
	if len(spans) == 0 {
		return s
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	var b strings.Builder
	last := 0
	for _, sp := range spans {
		b.WriteString(s[last:sp.start])
		b.WriteString("[" + s[sp.start:sp.end] + "](" + m.Note(ctx, sp.file) + ")")
		last = sp.end
	}
	b.WriteString(s[last:])
	return b.String()
}

// plainAt reports whether s[i] is plain text: not inside a code span,
// square brackets (a citation, a link's text) or a URL.
func plainAt(s string, i int) bool {
	before := s[:i]
	word := before[strings.LastIndexAny(before, " \t\n")+1:]
	return strings.Count(before, "`")%2 == 0 && strings.LastIndexByte(before, '[') <= strings.LastIndexByte(before, ']') &&
		!strings.Contains(word, "://") && !strings.Contains(word, "](")
}

// Source is one source an answer cites, numbered as in its list.
type Source struct {
	Index int
	oraculo.Evidence
	// URL is the page of the passage; Obsidian the note in the vault, or
	// "".
	URL, Obsidian string
}

// Sources are the sources a verified answer cites, in the order of their
// first citation.
func (m *Maker) Sources(ctx context.Context, a *oraculo.Answer) []Source {
	var out []Source
	for i, ev := range a.CitedEvidence() {
		src := Source{Index: i + 1, Evidence: ev, Obsidian: m.Obsidian(ev.File)}
		switch {
		case ev.Kind != answer.KindMemory:
			src.URL = m.Passage(ctx, ev.ID, "")
		case ev.File != "":
			// An entry of memory taken from a note: the note's page.
			src.URL = m.base(ctx) + m.NotePath(oraculo.RoleFrom(ctx), ev.File)
		}
		out = append(out, src)
	}
	return out
}

// Answer is a verified answer as Markdown: its text with its citations as
// links (see [Maker.Text]) and, when it cites any, the numbered list of
// its sources, headed in the answer's language.
func (m *Maker) Answer(ctx context.Context, a *oraculo.Answer) string {
	return m.AnswerWith(ctx, a, m.Sources(ctx, a))
}

// AnswerWith is [Maker.Answer] for a caller that already has the
// answer's sources (from [Maker.Sources]).
func (m *Maker) AnswerWith(ctx context.Context, a *oraculo.Answer, sources []Source) string {
	return m.AnswerNotes(ctx, a, sources, nil)
}

// AnswerNotes is [Maker.AnswerWith] with the names of notes linked to
// their notes, as [Maker.TextNotes] links them.
func (m *Maker) AnswerNotes(ctx context.Context, a *oraculo.Answer, sources []Source, notes []oraculo.NoteLink) string {
	if len(sources) == 0 {
		return a.Answer
	}
	text := m.TextNotes(ctx, a.Segments, notes)
	if len(a.Segments) == 0 {
		text = m.linkNames(ctx, strings.TrimRight(a.Answer, "\n "), notes, map[string]bool{})
	}
	var b strings.Builder
	b.WriteString(text)
	b.WriteString("\n\n" + SourcesHeading(a.Lang) + "\n")
	for _, s := range sources {
		switch {
		case s.URL == "":
			fmt.Fprintf(&b, "%d. [%s] · %s", s.Index, s.Label, s.ID)
		case s.File == "":
			fmt.Fprintf(&b, "%d. [%s](%s)", s.Index, s.Label, s.URL)
		default:
			fmt.Fprintf(&b, "%d. [%s](%s) · `%s`", s.Index, s.Label, s.URL, s.File)
		}
		if s.Obsidian != "" {
			fmt.Fprintf(&b, " · [Obsidian](%s)", s.Obsidian)
		}
		b.WriteString("\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// SourcesHeading starts the list of sources [Maker.Answer] appends, in
// the answer's language.
func SourcesHeading(lang string) string {
	if lang == "es" {
		return "**Fuentes:**"
	}
	return "**Sources:**"
}

// LastSentence is the last sentence of text (what a citation right after
// it supports): the last sentence ([textpkg.Sentences], which knows "Sr."
// and "p. ej." are no ends) of its last line, without a list item's marker.
// The terminal, the web page and the passage pages mark the same claim.
func LastSentence(text string) string {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	sents := textpkg.Sentences(lines[len(lines)-1], nil)
	if len(sents) == 0 {
		return ""
	}
	last := sents[len(sents)-1]
	// A list item's marker is not part of the claim.
	for _, mark := range []string{"- ", "* ", "+ "} {
		last = strings.TrimPrefix(last, mark)
	}
	return strings.TrimSpace(last)
}

// Clip cuts s to at most n bytes, at a space, marking the cut.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := strings.LastIndexByte(s[:n], ' ')
	if cut <= 0 {
		cut = n
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
	}
	return strings.TrimRight(s[:cut], " ,;:") + "…"
}

// KeySetting is the stored setting that holds the link key of an index
// kept in a cluster (see [StoredKey]).
const KeySetting = "link_key"

// SettingOnce stores a setting unless it has a value already, and
// returns the value it holds, the same for every caller: Weaviate's
// [github.com/oraculo/oraculo/store/weaviate.Store.MetaOnce].
type SettingOnce interface {
	MetaOnce(ctx context.Context, key, value string) (string, error)
}

// StoredKey returns the link key kept in an index's settings
// ([KeySetting]), creating it the first time: every server of an index in
// a cluster signs with the same key and accepts the others' links, and
// none keeps a file. Deleting the setting revokes every link given so far.
func StoredKey(ctx context.Context, s SettingOnce) ([]byte, error) {
	fresh := make([]byte, 32)
	if _, err := rand.Read(fresh); err != nil {
		return nil, err
	}
	stored, err := s.MetaOnce(ctx, KeySetting, base64.RawStdEncoding.EncodeToString(fresh))
	if err != nil {
		return nil, fmt.Errorf("reading the link key: %w", err)
	}
	key, err := base64.RawStdEncoding.DecodeString(stored)
	if err != nil || len(key) < 32 {
		return nil, fmt.Errorf("reading the link key: the setting %q is not a key of 32 bytes or more", KeySetting)
	}
	return key, nil
}

// KeyPath is where the link key of the index at db is kept.
func KeyPath(db string) string { return oraculo.DBPath(db) + ".linkkey" }

// LoadKey reads the key that signs the links of the index at db from
// [KeyPath], creating it (readable by its owner only) the first time:
// links stay valid across restarts, and deleting the file revokes every
// link given so far.
func LoadKey(db string) ([]byte, error) {
	path := KeyPath(db)
	if b, err := os.ReadFile(path); err == nil && len(b) >= 32 {
		return b, nil
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("reading the link key %s: %w", path, err)
	}
	return writeKey(path, false)
}

// RotateKey replaces the link key of the index at db ([KeyPath]) with a
// new one, and returns its file: every link signed with the old key stops
// working, at once in a server that watches the file (oraculo serve does),
// else when it starts again.
func RotateKey(db string) (string, error) {
	path := KeyPath(db)
	_, err := writeKey(path, true)
	return path, err
}

// SettingSetter stores a setting: Weaviate's
// [github.com/oraculo/oraculo/store/weaviate.Store.SetMeta].
type SettingSetter interface {
	SetMeta(ctx context.Context, key, value string) error
}

// RotateStoredKey replaces the link key kept in an index's settings
// ([KeySetting], see [StoredKey]) with a new one: every link signed with
// the old key stops working in the servers that read the setting again.
func RotateStoredKey(ctx context.Context, s SettingSetter) error {
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return err
	}
	if err := s.SetMeta(ctx, KeySetting, base64.RawStdEncoding.EncodeToString(key)); err != nil {
		return fmt.Errorf("storing a new link key: %w", err)
	}
	return nil
}

// writeKey writes a new key of 32 random bytes at path, readable by its
// owner only, and returns it: in place of the key there when replace,
// else only when there is none (the one there, made by another process
// meanwhile, is returned instead).
func writeKey(path string, replace bool) ([]byte, error) {
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	// Written aside and renamed: two processes starting at once never read
	// half a key.
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, fmt.Errorf("writing the link key %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(key); err != nil {
		tmp.Close()
		return nil, fmt.Errorf("writing the link key %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return nil, fmt.Errorf("writing the link key %s: %w", path, err)
	}
	if replace {
		if err := os.Rename(tmp.Name(), path); err != nil {
			return nil, fmt.Errorf("writing the link key %s: %w", path, err)
		}
		return key, nil
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, os.ErrExist) {
			// Another process made it first: use that one.
			if b, err := os.ReadFile(path); err == nil && len(b) >= 32 {
				return b, nil
			}
		}
		if err := os.Rename(tmp.Name(), path); err != nil {
			return nil, fmt.Errorf("writing the link key %s: %w", path, err)
		}
	}
	return key, nil
}
