package main

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHealth: health exits 0 when a running serve answers /healthz, and
// finds its address in serve's section of the config file (0.0.0.0 asked
// on loopback; serve's other keys left alone); 1 when nothing listens.
func TestHealth(t *testing.T) {
	t.Setenv("ORACULO_UI_LANG", "en")
	t.Setenv("ORACULO_CONFIG", "")
	t.Setenv("ORACULO_ADDR", "")
	db := ingestSmall(t)
	url, _, _, _ := startServe(t, "--db", db)
	hostPort := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/")
	out, errOut, code := runCLI(t, "", "health", "--addr", hostPort)
	if code != 0 || !strings.Contains(out, "http://"+hostPort+"/healthz answers") || !strings.Contains(out, `"index":"open"`) {
		t.Errorf("health --addr %s: exit %d, %q, %q", hostPort, code, out, errOut)
	}
	_, port, _ := net.SplitHostPort(hostPort)
	cfg := filepath.Join(filepath.Dir(db), ConfigFileName)
	if err := os.WriteFile(cfg, []byte("serve:\n  addr: 0.0.0.0:"+port+"\n  watch: true\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, code = runCLI(t, "", "health", "--db", db)
	if code != 0 || !strings.Contains(out, "http://127.0.0.1:"+port+"/healthz answers") {
		t.Errorf("health with serve's address from the config file: exit %d, %q, %q", code, out, errOut)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	if _, errOut, code := runCLI(t, "", "health", "--addr", closed); code != 1 || !strings.Contains(errOut, "no server answers at http://"+closed+"/healthz") {
		t.Errorf("health with nothing listening: exit %d, %q", code, errOut)
	}
}

// TestHealthURL: the address health asks for each listening address.
func TestHealthURL(t *testing.T) {
	for addr, want := range map[string]string{
		"127.0.0.1:8080": "http://127.0.0.1:8080/healthz",
		"0.0.0.0:8080":   "http://127.0.0.1:8080/healthz",
		":9000":          "http://127.0.0.1:9000/healthz",
		"[::]:8080":      "http://[::1]:8080/healthz",
		"localhost:81":   "http://localhost:81/healthz",
		"10.0.0.5:8080":  "http://10.0.0.5:8080/healthz",
	} {
		if got, err := healthURL(addr); err != nil || got != want {
			t.Errorf("healthURL(%q) = %q, %v; want %q", addr, got, err, want)
		}
	}
	if _, err := healthURL("8080"); err == nil {
		t.Error("healthURL(\"8080\"): no error")
	}
}
