package server

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unicode"

	"github.com/oraculo/oraculo"
	"gopkg.in/yaml.v3"
)

// TokenPrefix starts every token, so that a leaked one is recognisable.
const TokenPrefix = "orc_"

// ErrNoToken is returned by [RemoveToken] when no token has the name.
var ErrNoToken = errors.New("no such token")

// TokenInfo is one entry of a tokens file: who holds a token and as what
// role. The token itself is never stored, only its SHA-256.
type TokenInfo struct {
	Name   string `yaml:"name" json:"name"`
	Role   string `yaml:"role" json:"role"`
	SHA256 string `yaml:"sha256" json:"-"`
}

// tokensFile is the YAML shape of a tokens file.
type tokensFile struct {
	Tokens []TokenInfo `yaml:"tokens"`
}

// Tokens is a loaded tokens file: the bearer tokens a server accepts and
// the role each grants. It is safe for concurrent use; [Tokens.Reload]
// swaps in the file's current contents.
type Tokens struct {
	path string

	mu      sync.RWMutex
	entries []TokenInfo
	hashes  [][]byte // entries' decoded hashes, in the same order
}

// LoadTokens reads a tokens file. Its errors name the file and what is
// wrong with it: bad YAML, an unknown role, a duplicate name, a bad hash.
func LoadTokens(path string) (*Tokens, error) {
	t := &Tokens{path: path}
	if err := t.Reload(); err != nil {
		return nil, err
	}
	return t, nil
}

// Reload reads the file again; on error the tokens in force are kept.
func (t *Tokens) Reload() error {
	entries, err := readTokens(t.path, false)
	if err != nil {
		return err
	}
	hashes := make([][]byte, len(entries))
	for i, e := range entries {
		hashes[i], _ = hex.DecodeString(e.SHA256) // validated by readTokens
	}
	t.mu.Lock()
	t.entries, t.hashes = entries, hashes
	t.mu.Unlock()
	return nil
}

// Path returns the file the tokens were read from.
func (t *Tokens) Path() string { return t.path }

// List returns the entries (name and role), in file order.
func (t *Tokens) List() []TokenInfo {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return append([]TokenInfo(nil), t.entries...)
}

// Role returns the name and role of the token's holder, or false when the
// token is unknown. Every stored hash is compared, in constant time, so
// the time taken says nothing about which entry matched.
func (t *Tokens) Role(token string) (name, role string, ok bool) {
	if t == nil || !strings.HasPrefix(token, TokenPrefix) {
		return "", "", false
	}
	sum := sha256.Sum256([]byte(token))
	t.mu.RLock()
	defer t.mu.RUnlock()
	found := -1
	for i, h := range t.hashes {
		if subtle.ConstantTimeCompare(sum[:], h) == 1 {
			found = i
		}
	}
	if found < 0 {
		return "", "", false
	}
	e := t.entries[found]
	return e.Name, e.Role, true
}

// NewToken returns a fresh random token: TokenPrefix and 32 random bytes
// in unpadded base64url.
func NewToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("making a token: %w", err)
	}
	return TokenPrefix + base64.RawURLEncoding.EncodeToString(b), nil
}

// HashToken returns the hex SHA-256 of a token, as a tokens file stores it.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// AddToken makes a token for name with role (oraculo.RoleDM or
// oraculo.RolePlayer), stores its hash in the tokens file (created with
// mode 0600 when missing) and returns the token: the only time it exists
// in clear.
func AddToken(path, name, role string) (string, error) {
	if err := checkName(name); err != nil {
		return "", fmt.Errorf("tokens file %q: %w", path, err)
	}
	if err := checkRole(role); err != nil {
		return "", fmt.Errorf("tokens file %q: %w", path, err)
	}
	entries, err := readTokens(path, true)
	if err != nil {
		return "", err
	}
	for _, e := range entries {
		if e.Name == name {
			return "", fmt.Errorf("tokens file %q: a token named %q already exists (remove it first)", path, name)
		}
	}
	token, err := NewToken()
	if err != nil {
		return "", err
	}
	entries = append(entries, TokenInfo{Name: name, Role: role, SHA256: HashToken(token)})
	if err := writeTokens(path, entries); err != nil {
		return "", err
	}
	return token, nil
}

// RemoveToken deletes name's token from the tokens file; the error wraps
// ErrNoToken when there is none.
func RemoveToken(path, name string) error {
	entries, err := readTokens(path, false)
	if err != nil {
		return err
	}
	kept := entries[:0]
	for _, e := range entries {
		if e.Name != name {
			kept = append(kept, e)
		}
	}
	if len(kept) == len(entries) {
		return fmt.Errorf("tokens file %q: %w named %q", path, ErrNoToken, name)
	}
	return writeTokens(path, kept)
}

// readTokens reads and validates a tokens file; a missing file is an
// error unless missingOK.
func readTokens(path string, missingOK bool) ([]TokenInfo, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		if missingOK && errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		return nil, fmt.Errorf("reading tokens file %q: %w", path, err)
	}
	var f tokensFile
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("tokens file %q is not valid: %w", path, err)
	}
	seen := map[string]bool{}
	for i, e := range f.Tokens {
		where := fmt.Sprintf("tokens file %q, entry %d", path, i+1)
		if err := checkName(e.Name); err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		where = fmt.Sprintf("tokens file %q, token %q", path, e.Name)
		if seen[e.Name] {
			return nil, fmt.Errorf("%s: the name is used twice", where)
		}
		seen[e.Name] = true
		if err := checkRole(e.Role); err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		f.Tokens[i].SHA256 = strings.ToLower(strings.TrimSpace(e.SHA256))
		if b, err := hex.DecodeString(f.Tokens[i].SHA256); err != nil || len(b) != sha256.Size {
			return nil, fmt.Errorf("%s: sha256 must be 64 hexadecimal digits (the SHA-256 of the token), got %q", where, e.SHA256)
		}
	}
	return f.Tokens, nil
}

// writeTokens replaces the tokens file atomically, readable by its owner
// only.
func writeTokens(path string, entries []TokenInfo) error {
	if entries == nil {
		entries = []TokenInfo{}
	}
	var buf bytes.Buffer
	buf.WriteString("# Oráculo bearer tokens: only their SHA-256 is stored. Manage with `oraculo token`.\n")
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(tokensFile{Tokens: entries}); err != nil {
		return fmt.Errorf("writing tokens file %q: %w", path, err)
	}
	if err := enc.Close(); err != nil {
		return fmt.Errorf("writing tokens file %q: %w", path, err)
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("writing tokens file %q: %w", path, err)
	}
	tmp, err := os.CreateTemp(dir, ".tokens-*.yaml")
	if err != nil {
		return fmt.Errorf("writing tokens file %q: %w", path, err)
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("writing tokens file %q: %w", path, err)
	}
	if _, err := tmp.Write(buf.Bytes()); err != nil {
		tmp.Close()
		return fmt.Errorf("writing tokens file %q: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("writing tokens file %q: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing tokens file %q: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing tokens file %q: %w", path, err)
	}
	return nil
}

// checkName accepts names of letters, digits and . _ - @, up to 64.
func checkName(name string) error {
	if name == "" {
		return errors.New("a token needs a name")
	}
	if len(name) > 64 {
		return fmt.Errorf("name %q is longer than 64 bytes", name)
	}
	for _, r := range name {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("._-@", r) {
			return fmt.Errorf("name %q may hold only letters, digits and . _ - @", name)
		}
	}
	return nil
}

func checkRole(role string) error {
	if role != oraculo.RoleDM && role != oraculo.RolePlayer {
		return fmt.Errorf("unknown role %q (want %q or %q)", role, oraculo.RoleDM, oraculo.RolePlayer)
	}
	return nil
}
