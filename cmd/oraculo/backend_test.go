package main

import (
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLocate: each flag beats its environment variable, the backend is
// SQLite unless one says weaviate, the Weaviate variables are read only
// for Weaviate, and the API key only from the environment.
func TestLocate(t *testing.T) {
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	cases := []struct {
		name                     string
		backend, url, collection string
		env                      func(string) string
		want                     location
	}{
		{"nothing: sqlite", "", "", "", env(), location{backend: backendSQLite, db: "o.db"}},
		{"sqlite ignores the Weaviate variables", "", "", "", env(envWeaviateURL, "http://w:8080", envWeaviateKey, "k"),
			location{backend: backendSQLite, db: "o.db"}},
		{"the environment's backend", "", "", "", env(envBackend, "weaviate", envWeaviateURL, "http://w:8080"),
			location{backend: backendWeaviate, url: "http://w:8080", collection: "oraculo"}},
		{"the flag beats the environment's backend", "sqlite", "", "", env(envBackend, "weaviate", envWeaviateURL, "http://w:8080"),
			location{backend: backendSQLite, db: "o.db"}},
		{"the flag beats the environment's URL", "weaviate", "http://flag:1", "", env(envWeaviateURL, "http://env:2"),
			location{backend: backendWeaviate, url: "http://flag:1", collection: "oraculo"}},
		{"the key from the environment, a collection", "Weaviate", "https://w.example", "campaign_2", env(envWeaviateKey, "secret"),
			location{backend: backendWeaviate, url: "https://w.example", apiKey: "secret", collection: "campaign_2"}},
	}
	for _, c := range cases {
		got, err := locate(c.backend, c.url, c.collection, "o.db", c.env, func(string) bool { return false })
		if err != nil || got != c.want {
			t.Errorf("%s: %+v, %v; want %+v", c.name, got, err, c.want)
		}
	}
}

// TestLocateErrors: every way of naming the backend wrongly is a usage
// error that says what to do, in English and in Spanish.
func TestLocateErrors(t *testing.T) {
	defer func(l string) { lang = l }(lang)
	none := func(string) string { return "" }
	weaviateEnv := func(k string) string { return map[string]string{envBackend: "weaviate"}[k] }
	cases := []struct {
		backend, url, collection string
		env                      func(string) string
		en, es                   string
	}{
		{"mysql", "", "", none, `--backend must be sqlite or weaviate, not "mysql"`, `--backend debe ser sqlite o weaviate, no "mysql"`},
		{"", "", "", func(k string) string { return map[string]string{envBackend: "pg"}[k] },
			`$ORACULO_BACKEND must be sqlite or weaviate, not "pg"`, `$ORACULO_BACKEND debe ser sqlite o weaviate, no "pg"`},
		{"", "", "campaña", none, "--collection is for an index in a Weaviate cluster: add --backend weaviate", "--collection es para un índice en un clúster de Weaviate: añade --backend weaviate"},
		{"sqlite", "http://w:1", "", weaviateEnv, "--weaviate-url is for an index in a Weaviate cluster", "--weaviate-url es para un índice en un clúster de Weaviate"},
		{"weaviate", "", "", none, "the weaviate backend needs a node's address: --weaviate-url http://host:port or $ORACULO_WEAVIATE_URL", "el backend weaviate necesita la dirección de un nodo"},
		{"", "", "", weaviateEnv, "needs a node's address", "necesita la dirección de un nodo"},
		{"weaviate", "localhost:8080", "", none, `"localhost:8080" is not a Weaviate node's address`, `"localhost:8080" no es la dirección de un nodo de Weaviate`},
		{"weaviate", "http://admin:pw@w:1", "", none, "is not a Weaviate node's address", "no es la dirección de un nodo"},
		{"weaviate", "http://w:1", "mi campaña", none, `--collection "mi campaña": a collection's name is 1 to 64 letters, digits, _ or -`, `--collection "mi campaña": el nombre de una colección tiene de 1 a 64 letras`},
	}
	for _, c := range cases {
		for i, l := range []string{"en", "es"} {
			lang = l
			_, err := locate(c.backend, c.url, c.collection, "o.db", c.env, func(string) bool { return false })
			want := []string{c.en, c.es}[i]
			var usage usageError
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("locate(%q, %q, %q) in %s: %v; want %q", c.backend, c.url, c.collection, l, err, want)
			} else if !asUsage(err, &usage) {
				t.Errorf("locate(%q, %q, %q): %v is not a usage error (exit 2)", c.backend, c.url, c.collection, err)
			}
			if strings.Contains(err.Error(), "pw") {
				t.Errorf("an error shows the URL's password: %v", err)
			}
		}
	}
}

func asUsage(err error, u *usageError) bool {
	v, ok := err.(usageError)
	*u = v
	return ok
}

// closedURL is the address of a port nothing listens on.
func closedURL(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	u := "http://" + ln.Addr().String()
	ln.Close()
	return u
}

// TestBackendErrorsCLI: through the command line, an unreachable
// cluster, one that wants a key and one that refuses it are named by
// their address, never by the key; the exit codes tell a usage error
// (2) from a failure (1).
func TestBackendErrorsCLI(t *testing.T) {
	t.Setenv("ORACULO_BACKEND", "")
	t.Setenv("ORACULO_WEAVIATE_URL", "")
	const key = "sekrit-api-key-0123"
	closed := closedURL(t)
	refusing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error":[{"message":"unauthorized"}]}`, http.StatusUnauthorized)
	}))
	defer refusing.Close()
	cases := []struct {
		args   []string
		key    string
		code   int
		en, es string
	}{
		{[]string{"search", "--backend", "weaviate", "hola"}, "", 2, "needs a node's address", "necesita la dirección de un nodo"},
		{[]string{"ask", "--collection", "x", "hola"}, "", 2, "--collection is for an index in a Weaviate cluster", "--collection es para un índice en un clúster de Weaviate"},
		{[]string{"ingest", "--weaviate-replication", "3", "."}, "", 2, "--weaviate-replication is for an index in a Weaviate cluster", "--weaviate-replication es para un índice en un clúster de Weaviate"},
		{[]string{"ingest", "--backend", "weaviate", "--weaviate-url", closed, "--weaviate-replication", "-1", "."}, "", 2, "--weaviate-replication -1: a replication factor is 1 or more", "un factor de replicación es 1 o más"},
		{[]string{"ingest", "--backend", "nope", "."}, "", 2, `--backend must be sqlite or weaviate, not "nope"`, `--backend debe ser sqlite o weaviate, no "nope"`},
		{[]string{"search", "--backend", "weaviate", "--weaviate-url", closed, "hola"}, key, 1,
			"cannot reach the Weaviate cluster at " + closed, "no se puede contactar con el clúster de Weaviate en " + closed},
		{[]string{"eval", "--backend", "weaviate", "--weaviate-url", refusing.URL, "--golden", "../../examples/golden.jsonl"}, "", 1,
			"the Weaviate cluster at " + refusing.URL + " asks for an API key: set $ORACULO_WEAVIATE_KEY", "pide una clave de API"},
		{[]string{"serve", "--backend", "weaviate", "--weaviate-url", refusing.URL}, key, 1,
			"the Weaviate cluster at " + refusing.URL + " refused the API key in $ORACULO_WEAVIATE_KEY", "rechazó la clave de API de $ORACULO_WEAVIATE_KEY"},
		{[]string{"doctor", "--backend", "weaviate", "--weaviate-url", closed}, key, 1,
			"✗ backend: weaviate at " + closed + `, collection "oraculo": cannot reach`, "✗ backend: weaviate en " + closed + `, colección "oraculo": no se puede contactar`},
	}
	for _, c := range cases {
		for i, l := range []string{"en", "es"} {
			t.Setenv("ORACULO_WEAVIATE_KEY", c.key)
			out, errOut, code := runCLI(t, "", append(c.args, "--ui-lang", l)...)
			want := []string{c.en, c.es}[i]
			if code != c.code || !strings.Contains(out+errOut, want) {
				t.Errorf("%s (%s): exit %d, want %d with %q:\n%s%s", strings.Join(c.args, " "), l, code, c.code, want, out, errOut)
			}
			if c.key != "" && strings.Contains(out+errOut, c.key) {
				t.Errorf("%s: the API key is printed:\n%s%s", strings.Join(c.args, " "), out, errOut)
			}
		}
	}
}

// TestBackendFromConfig: a config file may choose the backend like any
// flag, and the command line beats it.
func TestBackendFromConfig(t *testing.T) {
	t.Setenv("ORACULO_UI_LANG", "en")
	t.Setenv("ORACULO_BACKEND", "")
	t.Setenv("ORACULO_WEAVIATE_KEY", "")
	closed := closedURL(t)
	cfg := filepath.Join(t.TempDir(), "oraculo.yaml")
	if err := os.WriteFile(cfg, []byte("backend: weaviate\nweaviate-url: "+closed+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := runCLI(t, "", "search", "--config", cfg, "hola")
	if code != 1 || !strings.Contains(errOut, "cannot reach the Weaviate cluster at "+closed) {
		t.Errorf("backend from the config file: exit %d, %s", code, errOut)
	}
	missing := filepath.Join(t.TempDir(), "none.db")
	_, errOut, code = runCLI(t, "", "search", "--config", cfg, "--backend", "sqlite", "--db", missing, "hola")
	if code == 0 || !strings.Contains(errOut, "does not exist: run `oraculo ingest` first") {
		t.Errorf("--backend sqlite over the config file: exit %d, %s", code, errOut)
	}
}
