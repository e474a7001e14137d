package link

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/oraculo/oraculo"
)

func TestObsidian(t *testing.T) {
	m := &Maker{ObsidianVault: "Mi campaña & co"}
	got := m.Obsidian(`Sesiones/Sesión 12+13.md`)
	want := "obsidian://open?vault=Mi%20campa%C3%B1a%20%26%20co&file=Sesiones%2FSesi%C3%B3n%2012%2B13.md"
	if got != want {
		t.Errorf("Obsidian = %q, want %q", got, want)
	}
	if got := (&Maker{}).Obsidian("a.md"); got != "" {
		t.Errorf("without a vault: %q", got)
	}
}

func TestSignedLinks(t *testing.T) {
	m := &Maker{Key: []byte("k1"), Base: "https://o.example/"}
	ctx := oraculo.WithRole(context.Background(), oraculo.RolePlayer)
	u := m.Passage(ctx, "abc", "Norkiel cayó")
	if !strings.HasPrefix(u, "https://o.example/c/abc?") || !strings.Contains(u, "r=player") || !strings.Contains(u, "q=Norkiel+cay%C3%B3") {
		t.Errorf("Passage = %q", u)
	}
	sig := m.Sig(KindPassage, oraculo.RolePlayer, "abc")
	for _, tt := range []struct {
		m                        *Maker
		kind, role, subject, sig string
		want                     bool
	}{
		{m, KindPassage, oraculo.RolePlayer, "abc", sig, true},
		{m, KindPassage, oraculo.RoleDM, "abc", sig, false},     // another role
		{m, KindPassage, oraculo.RolePlayer, "abd", sig, false}, // another passage
		{m, KindNote, oraculo.RolePlayer, "abc", sig, false},    // another kind
		{&Maker{Key: []byte("k2")}, KindPassage, oraculo.RolePlayer, "abc", sig, false},
		{&Maker{}, KindPassage, oraculo.RolePlayer, "abc", (&Maker{}).Sig(KindPassage, oraculo.RolePlayer, "abc"), false}, // no key
		{m, KindPassage, "admin", "abc", m.Sig(KindPassage, "admin", "abc"), false},
	} {
		if got := tt.m.Valid(tt.kind, tt.role, tt.subject, tt.sig); got != tt.want {
			t.Errorf("Valid(%s, %s, %s) = %v, want %v", tt.kind, tt.role, tt.subject, got, tt.want)
		}
	}
	// Without a Base, the context's.
	m.Base = ""
	if u := m.Passage(WithBase(ctx, "http://127.0.0.1:9/"), "abc", ""); !strings.HasPrefix(u, "http://127.0.0.1:9/c/abc?") {
		t.Errorf("Passage with the context's base = %q", u)
	}
	if m.HasBase(ctx) || !m.HasBase(WithBase(ctx, "http://x")) {
		t.Error("HasBase")
	}
}

func TestAnswerMarkdown(t *testing.T) {
	id := "c1"
	a := &oraculo.Answer{
		Lang:      "es",
		Answer:    "Norkiel cayó [Sesión 1]. Y huyó.",
		Citations: []oraculo.Citation{{Label: "Sesión 1", Evidence: &id, Valid: true}},
		Evidence:  []oraculo.Evidence{{ID: id, Label: "Sesión 1", File: "Sesiones/S 1.md"}},
		Segments: []oraculo.Segment{
			{Text: "Norkiel cayó "},
			{Text: "[Sesión 1]", Citations: []oraculo.Citation{{Label: "Sesión 1", Evidence: &id, Valid: true}}},
			{Text: ". Y huyó."},
		},
	}
	m := &Maker{Key: []byte("k"), Base: "http://h", ObsidianVault: "V"}
	got := m.Answer(context.Background(), a)
	if !strings.HasPrefix(got, "Norkiel cayó [Sesión 1](http://h/c/c1?") || !strings.Contains(got, "q=Norkiel+cay%C3%B3") ||
		!strings.Contains(got, "\n\n**Fuentes:**\n1. [Sesión 1](http://h/c/c1?") || !strings.HasSuffix(got, "· `Sesiones/S 1.md` · [Obsidian](obsidian://open?vault=V&file=Sesiones%2FS%201.md)") {
		t.Errorf("Answer =\n%s", got)
	}
	// The text of a prefix of the segments starts the whole's.
	if whole, part := m.Text(context.Background(), a.Segments), m.Text(context.Background(), a.Segments[:2]); !strings.HasPrefix(whole, part) {
		t.Errorf("%q does not start %q", part, whole)
	}
	a.Citations, a.Segments = nil, nil
	if got := m.Answer(context.Background(), a); got != a.Answer {
		t.Errorf("an answer that cites nothing: %q", got)
	}
}

func TestLoadKey(t *testing.T) {
	db := filepath.Join(t.TempDir(), "idx", "o.db")
	var wg sync.WaitGroup
	keys := make([][]byte, 8)
	for i := range keys {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k, err := LoadKey(db)
			if err != nil {
				t.Error(err)
			}
			keys[i] = k
		}()
	}
	wg.Wait()
	for _, k := range keys {
		if len(k) != 32 || string(k) != string(keys[0]) {
			t.Fatalf("processes starting at once got different keys")
		}
	}
	fi, err := os.Stat(KeyPath(db))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v %v", fi, err)
	}
	again, err := LoadKey(db)
	if err != nil || string(again) != string(keys[0]) {
		t.Errorf("the key changed on a second load: %v", err)
	}
	// A truncated key is replaced.
	if err := os.WriteFile(KeyPath(db), []byte("short"), 0o600); err != nil {
		t.Fatal(err)
	}
	if k, err := LoadKey(db); err != nil || len(k) != 32 || string(k) == string(keys[0]) {
		t.Errorf("a truncated key: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(db), "*.tmp")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestLastSentence(t *testing.T) {
	for in, want := range map[string]string{
		"Huyó. Luego volvió ":           "Luego volvió",
		"- Llegamos a Punta Gaviota ":   "Llegamos a Punta Gaviota",
		"Primero.\n* Nix miente":        "Nix miente",
		"¿Quién? Anika, la molinera":    "Anika, la molinera",
		"Llegó el Sr. Vesper al puerto": "Llegó el Sr. Vesper al puerto",
		"Dijo p. ej. que no":            "Dijo p. ej. que no",
		"":                              "",
	} {
		if got := LastSentence(in); got != want {
			t.Errorf("LastSentence(%q) = %q, want %q", in, got, want)
		}
	}
}

// onceSettings is a [SettingOnce] in memory: the first value stored wins.
type onceSettings struct {
	mu     sync.Mutex
	values map[string]string
}

func (s *onceSettings) MetaOnce(_ context.Context, key, value string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if v, ok := s.values[key]; ok {
		return v, nil
	}
	s.values[key] = value
	return value, nil
}

// TestStoredKey: the key kept in the settings is made once and read back
// by every later call; a setting that is not a key is an error, not a
// weaker key.
func TestStoredKey(t *testing.T) {
	ctx := context.Background()
	s := &onceSettings{values: map[string]string{}}
	first, err := StoredKey(ctx, s)
	if err != nil || len(first) != 32 {
		t.Fatalf("StoredKey = %d bytes, %v", len(first), err)
	}
	again, err := StoredKey(ctx, s)
	if err != nil || string(again) != string(first) {
		t.Errorf("a second StoredKey gave another key (%v)", err)
	}
	if s.values[KeySetting] == "" {
		t.Errorf("the key is not in setting %q: %v", KeySetting, s.values)
	}
	for _, bad := range []string{"c2hvcnQ", "not base64 at all!"} {
		s.values[KeySetting] = bad
		if k, err := StoredKey(ctx, s); err == nil {
			t.Errorf("setting %q gave a key of %d bytes", bad, len(k))
		}
	}
}

// TestTextNotes: the first mention of each name is a link to its note's
// page for the role in the context, longest names first, never inside a
// code span, a citation or a longer name already linked; the shown text
// stays; the text of a prefix of the segments starts the whole's.
func TestTextNotes(t *testing.T) {
	id := "c1"
	cite := []oraculo.Citation{{Label: "Sesión 1", Evidence: &id, Valid: true}}
	segs := []oraculo.Segment{
		{Text: "Ser Morcant vio a Morcant el joven y a `Harbin` en Harbinia "},
		{Text: "[Sesión 1]", Citations: cite},
		{Text: ". Luego https://x.org/Harbin y Harbin y Ser Morcant huyeron [Morcant]."},
	}
	notes := []oraculo.NoteLink{
		{Text: "Ser Morcant", File: "NPCs/Ser Morcant.md"},
		{Text: "Harbin", File: "NPCs/Harbin.md"},
		{Text: "Morcant", File: "NPCs/Morcant.md"},
	}
	m := &Maker{Key: []byte("k"), Base: "http://h"}
	ctx := oraculo.WithRole(context.Background(), oraculo.RolePlayer)
	got := m.TextNotes(ctx, segs, notes)
	want := "[Ser Morcant](" + m.Note(ctx, "NPCs/Ser Morcant.md") + ") vio a [Morcant](" + m.Note(ctx, "NPCs/Morcant.md") +
		") el joven y a `Harbin` en Harbinia [Sesión 1](" + m.Passage(ctx, id, "Ser Morcant vio a Morcant el joven y a `Harbin` en Harbinia") +
		"). Luego https://x.org/Harbin y [Harbin](" + m.Note(ctx, "NPCs/Harbin.md") + ") y Ser Morcant huyeron [Morcant]."
	if got != want {
		t.Errorf("TextNotes =\n%s\nwant\n%s", got, want)
	}
	if u := m.Note(ctx, "NPCs/Harbin.md"); !strings.HasPrefix(u, "http://h/n?") || !strings.Contains(u, "r=player") || !m.Valid(KindNote, oraculo.RolePlayer, "NPCs/Harbin.md", mustQuery(t, u).Get("k")) {
		t.Errorf("Note = %q", u)
	}
	if prefix := m.TextNotes(ctx, segs[:1], notes); !strings.HasPrefix(got, prefix) {
		t.Errorf("the text of a prefix %q does not start the whole's %q", prefix, got)
	}
	if plain := m.TextNotes(ctx, segs, nil); plain != m.Text(ctx, segs) || strings.Contains(plain, "/n?") {
		t.Errorf("without notes: %q", plain)
	}
}

func mustQuery(t *testing.T, u string) url.Values {
	t.Helper()
	p, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	return p.Query()
}
