package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"
)

// healthTimeout is how long health waits for the server's answer.
const healthTimeout = 5 * time.Second

// healthFlags are health's flags.
type healthFlags struct {
	addr *string
}

func newHealthFlags(name string, stderr io.Writer) (*flag.FlagSet, *healthFlags) {
	fs, _ := newFlags(name, stderr)
	f := &healthFlags{}
	f.addr = fs.String("addr", defaultAddr(), "the address serve listens on (its --addr, the config file's or $ORACULO_ADDR); a host such as 0.0.0.0, every interface, is asked on loopback")
	return fs, f
}

// cmdHealth asks a running server whether it can answer (GET /healthz:
// the index open), for a container's HEALTHCHECK or a service manager,
// where there is no curl: it exits 0 when the server says ok, 1 when it
// says otherwise or does not answer.
func cmdHealth(ctx context.Context, f *healthFlags, rest []string, s stdio) error {
	if len(rest) > 0 {
		return usageError{errors.New(msg("health-args", strings.Join(rest, " ")))}
	}
	url, err := healthURL(*f.addr)
	if err != nil {
		return usageError{err}
	}
	ctx, cancel := context.WithTimeout(ctx, healthTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return errors.New(msg("health-down", url, err))
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<10))
	if resp.StatusCode != http.StatusOK {
		return errors.New(msg("health-bad", url, resp.Status, strings.TrimSpace(string(body))))
	}
	fmt.Fprintln(s.out, msg("health-ok", url, strings.TrimSpace(string(body))))
	return nil
}

// defaultAddr is the address serve listens on by default, and health
// asks: $ORACULO_ADDR (a container's image sets 0.0.0.0:8080), else
// loopback's port 8080.
func defaultAddr() string {
	if a := os.Getenv("ORACULO_ADDR"); a != "" {
		return a
	}
	return "127.0.0.1:8080"
}

// healthURL is the address of the /healthz of a server listening on addr;
// a host that means every interface is asked on loopback.
func healthURL(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("--addr %q: %v", addr, err)
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
		if ip != nil && ip.To4() == nil {
			host = "::1"
		}
	}
	return "http://" + net.JoinHostPort(host, port) + "/healthz", nil
}

func init() {
	// health checks the server that serve runs: it reads serve's section
	// of a config file too, so that both agree on the address.
	borrowedSections["health"] = "serve"
	flagUsageES["health/addr"] = "la dirección en la que escucha serve (su --addr, la del archivo de configuración o $ORACULO_ADDR); un host como 0.0.0.0, todas las interfaces, se pregunta por loopback"
	for id, texts := range map[string][2]string{
		"health-args": {"health takes no arguments, only flags: %q", "health no acepta argumentos, solo opciones: %q"},
		"health-down": {"no server answers at %s: %v", "ningún servidor responde en %s: %v"},
		"health-bad":  {"%s answered %s: %s", "%s respondió %s: %s"},
		"health-ok":   {"%s answers: %s", "%s responde: %s"},
	} {
		catalog[id] = texts
	}
}
