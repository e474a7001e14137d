package server

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
)

func TestTokensAddRoleRemove(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "tokens.yaml")
	ana, err := AddToken(path, "ana", oraculo.RolePlayer)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(ana, TokenPrefix) || len(ana) != len(TokenPrefix)+43 {
		t.Errorf("token %q: want %s and 43 base64url characters", ana, TokenPrefix)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("tokens file mode %v, want 0600", fi.Mode().Perm())
	}
	dm, err := AddToken(path, "dm", oraculo.RoleDM)
	if err != nil {
		t.Fatal(err)
	}
	if ana == dm {
		t.Fatal("two tokens alike")
	}
	data, _ := os.ReadFile(path)
	if strings.Contains(string(data), ana) || !strings.Contains(string(data), HashToken(ana)) {
		t.Errorf("the file must hold the hash, not the token:\n%s", data)
	}
	if _, err := AddToken(path, "ana", oraculo.RoleDM); err == nil || !strings.Contains(err.Error(), `"ana" already exists`) {
		t.Errorf("duplicate name: %v", err)
	}
	if _, err := AddToken(path, "eve", "admin"); err == nil || !strings.Contains(err.Error(), `unknown role "admin"`) {
		t.Errorf("bad role: %v", err)
	}
	if _, err := AddToken(path, "two words", oraculo.RoleDM); err == nil {
		t.Error("a name with a space was accepted")
	}

	tokens, err := LoadTokens(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		token, name, role string
		ok                bool
	}{
		{ana, "ana", oraculo.RolePlayer, true},
		{dm, "dm", oraculo.RoleDM, true},
		{"", "", "", false},
		{ana + "x", "", "", false},
		{strings.TrimPrefix(ana, TokenPrefix), "", "", false},
		{HashToken(ana), "", "", false},
	} {
		name, role, ok := tokens.Role(c.token)
		if name != c.name || role != c.role || ok != c.ok {
			t.Errorf("Role(%q) = %q, %q, %v; want %q, %q, %v", c.token, name, role, ok, c.name, c.role, c.ok)
		}
	}
	if l := tokens.List(); len(l) != 2 || l[0].Name != "ana" || l[1].Role != oraculo.RoleDM {
		t.Errorf("List: %+v", l)
	}

	if err := RemoveToken(path, "ana"); err != nil {
		t.Fatal(err)
	}
	if err := RemoveToken(path, "ana"); !errors.Is(err, ErrNoToken) {
		t.Errorf("removing a missing token: %v", err)
	}
	// Until reloaded, the tokens in force stay; then ana's is gone.
	if _, _, ok := tokens.Role(ana); !ok {
		t.Error("the removal took effect before Reload")
	}
	if err := tokens.Reload(); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := tokens.Role(ana); ok {
		t.Error("a removed token still works")
	}
	if _, _, ok := tokens.Role(dm); !ok {
		t.Error("the remaining token no longer works")
	}
	var none *Tokens
	if _, _, ok := none.Role(dm); ok {
		t.Error("nil Tokens accepted a token")
	}
}

func TestLoadTokensErrors(t *testing.T) {
	hash := HashToken("orc_x")
	for _, c := range []struct {
		name, text, want string
	}{
		{"bad yaml", "tokens: [", "is not valid"},
		{"unknown field", "tokens:\n  - {name: ana, role: player, sha265: " + hash + "}\n", "sha265"},
		{"unknown role", "tokens:\n  - {name: ana, role: admin, sha256: " + hash + "}\n", `token "ana": unknown role "admin"`},
		{"duplicate", "tokens:\n  - {name: ana, role: player, sha256: " + hash + "}\n  - {name: ana, role: dm, sha256: " + hash + "}\n", `token "ana": the name is used twice`},
		{"short hash", "tokens:\n  - {name: ana, role: player, sha256: abc}\n", `token "ana": sha256 must be 64 hexadecimal digits`},
		{"not hex", "tokens:\n  - {name: ana, role: player, sha256: " + strings.Repeat("z", 64) + "}\n", "64 hexadecimal digits"},
		{"no name", "tokens:\n  - {role: player, sha256: " + hash + "}\n", "entry 1: a token needs a name"},
	} {
		path := filepath.Join(t.TempDir(), "tokens.yaml")
		if err := os.WriteFile(path, []byte(c.text), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := LoadTokens(path)
		if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want the file and %q", c.name, err, c.want)
		}
	}
	missing := filepath.Join(t.TempDir(), "none.yaml")
	if _, err := LoadTokens(missing); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing file: %v", err)
	}
	// An empty file is no tokens: authentication on, nobody let in.
	empty := filepath.Join(t.TempDir(), "empty.yaml")
	os.WriteFile(empty, nil, 0o600)
	tokens, err := LoadTokens(empty)
	if err != nil || len(tokens.List()) != 0 {
		t.Errorf("empty file: %v", err)
	}
	// Upper-case hashes are accepted.
	upper := filepath.Join(t.TempDir(), "upper.yaml")
	os.WriteFile(upper, []byte("tokens:\n  - {name: ana, role: dm, sha256: "+strings.ToUpper(hash)+"}\n"), 0o600)
	if tokens, err = LoadTokens(upper); err != nil {
		t.Fatal(err)
	}
	if _, role, ok := tokens.Role("orc_x"); !ok || role != oraculo.RoleDM {
		t.Error("an upper-case hash does not match")
	}
	// A reload that fails keeps the tokens in force.
	os.WriteFile(upper, []byte("tokens: ["), 0o600)
	if err := tokens.Reload(); err == nil {
		t.Error("Reload of a broken file succeeded")
	}
	if _, _, ok := tokens.Role("orc_x"); !ok {
		t.Error("a failed reload dropped the tokens")
	}
}
