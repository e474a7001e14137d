package main

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/oraculo/oraculo/internal/benchrun"
	"github.com/oraculo/oraculo/server"
)

// TestServeLoadBench is the load benchmark of `oraculo serve`: it ingests
// a real vault, starts a real `oraculo serve` process on loopback with a
// player's token, and runs concurrent clients for a fixed time against
// search, extractive ask and the OpenAI endpoint (oraculo-extractive),
// then reports, per endpoint, the latency of the requests served, the
// share shed (503) and the errors, with the server's CPU seconds and the
// load average. It runs only when asked:
//
//	ORACULO_LOAD_BENCH=1 go test -run TestServeLoadBench -v -timeout 10m ./cmd/oraculo/
//
// ORACULO_LOAD_CLIENTS (200) and ORACULO_LOAD_SECONDS (30) size it;
// ORACULO_LOAD_VAULT and ORACULO_LOAD_QUESTIONS name the notes and their
// questions (default: ../shared/eval/jacoblezberg-adventure-log, a real
// campaign vault read where it lies, else examples/campaign);
// ORACULO_LOAD_BIN runs another oraculo binary (an older build, to compare)
// instead of this one; ORACULO_LOAD_SERVE_ARGS adds flags to serve
// (e.g. "--max-search 8"); ORACULO_LOAD_BACKOFF=1 makes clients wait the
// Retry-After of a 503 before their next request. Errors (anything but
// 2xx and 503) fail it.
func TestServeLoadBench(t *testing.T) {
	if os.Getenv("ORACULO_LOAD_BENCH") != "1" {
		t.Skip("the load benchmark runs with ORACULO_LOAD_BENCH=1")
	}
	clients := loadEnvInt(t, "ORACULO_LOAD_CLIENTS", 200)
	seconds := loadEnvInt(t, "ORACULO_LOAD_SECONDS", 30)
	vault, questionsFile := loadVault(t)
	questions, err := benchrun.Load(questionsFile)
	if err != nil {
		t.Fatal(err)
	}

	bin, env := os.Args[0], []string{"ORACULO_TEST_MAIN=1"}
	if b := os.Getenv("ORACULO_LOAD_BIN"); b != "" {
		bin, env = b, nil
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "o.db")
	oraculoCmd := func(args ...string) *exec.Cmd {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(append(cleanEnv(), env...), "ORACULO_UI_LANG=en")
		return cmd
	}
	if out, err := oraculoCmd("ingest", "--db", db, vault).CombinedOutput(); err != nil {
		t.Fatalf("ingest %s: %v\n%s", vault, err, out)
	}
	tokens := filepath.Join(dir, "tokens.yaml")
	out, err := oraculoCmd("token", "add", "ana", "--role", "player", "--tokens", tokens).Output()
	if err != nil {
		t.Fatalf("token add: %v", err)
	}
	token := strings.TrimSpace(string(out))

	args := append([]string{"serve", "--db", db, "--tokens", tokens, "--addr", "127.0.0.1:0"}, strings.Fields(os.Getenv("ORACULO_LOAD_SERVE_ARGS"))...)
	serve := oraculoCmd(args...)
	stdout, err := serve.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	serve.Stderr = nil // the access log: one line a request
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	stopped := false
	defer func() {
		if !stopped {
			serve.Process.Kill()
			serve.Wait()
		}
	}()
	base := ""
	sc := bufio.NewScanner(stdout)
	for base == "" && sc.Scan() {
		if m := regexp.MustCompile(`http://127\.0\.0\.1:\d+/`).FindString(sc.Text()); m != "" {
			base = strings.TrimSuffix(m, "/")
		}
	}
	if base == "" {
		t.Fatal("serve printed no address")
	}
	go func() {
		for sc.Scan() {
		}
	}()

	header := http.Header{"Authorization": {"Bearer " + token}, "Content-Type": {"application/json"}}
	body := func(v any) []byte {
		b, _ := json.Marshal(v)
		return b
	}
	q := func(n int) string { return questions[n%len(questions)] }
	targets := []benchrun.Target{
		{Name: "search", Method: "POST", URL: base + "/api/search", Header: header,
			Body: func(n int) []byte { return body(map[string]any{"question": q(n)}) }},
		{Name: "ask", Method: "POST", URL: base + "/api/ask", Header: header,
			Body: func(n int) []byte { return body(map[string]any{"question": q(n), "extractive": true}) }},
		{Name: "openai", Method: "POST", URL: base + "/v1/chat/completions", Header: header,
			Body: func(n int) []byte {
				return body(map[string]any{"model": server.ModelIDExtractive, "messages": []map[string]string{{"role": "user", "content": q(n)}}})
			}},
	}
	loadBefore := loadAverage()
	var before syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &before)
	results, err := benchrun.RunClients(context.Background(), benchrun.Clients{
		N: clients, Duration: time.Duration(seconds) * time.Second, Targets: targets,
		Backoff: os.Getenv("ORACULO_LOAD_BACKOFF") == "1",
	})
	loadAfter := loadAverage()
	var after syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &after)
	clientCPU := time.Duration(after.Utime.Nano()+after.Stime.Nano()-before.Utime.Nano()-before.Stime.Nano()) * time.Nanosecond
	if err != nil {
		t.Fatal(err)
	}
	serve.Process.Signal(syscall.SIGINT)
	serve.Wait()
	stopped = true
	cpu := serve.ProcessState.UserTime() + serve.ProcessState.SystemTime()

	t.Logf("vault %s (%d questions), %s, %d clients for %d s, serve %s", vault, len(questions), bin, clients, seconds, strings.Join(args[7:], " "))
	t.Logf("server CPU %.1f s (user %.1f, system %.1f), clients' CPU %.1f s (this process); load average before %s, after %s",
		cpu.Seconds(), serve.ProcessState.UserTime().Seconds(), serve.ProcessState.SystemTime().Seconds(), clientCPU.Seconds(), loadBefore, loadAfter)
	t.Logf("%-7s %7s %7s %6s %6s %8s %8s %8s %8s %9s", "", "served", "per s", "shed", "errors", "p50 ms", "p95 ms", "p99 ms", "max ms", "shed p99")
	failed := false
	for _, r := range results {
		t.Logf("%-7s %7d %7.1f %5.1f%% %6d %8.1f %8.1f %8.1f %8.1f %9.1f", r.Name, r.Served, r.PerSecond, 100*r.ShedShare, r.Errors, r.P50, r.P95, r.P99, r.Max, r.ShedP99)
		if r.Errors > 0 {
			t.Errorf("%s: %d errors; first: %s", r.Name, r.Errors, r.FirstError)
			failed = true
		}
	}
	if !failed {
		js, _ := json.Marshal(map[string]any{"clients": clients, "seconds": seconds, "server_cpu_seconds": cpu.Seconds(), "client_cpu_seconds": clientCPU.Seconds(), "load_before": loadBefore, "load_after": loadAfter, "targets": results})
		t.Logf("json %s", js)
	}
}

// loadVault is the vault and question file of the load benchmark.
func loadVault(t *testing.T) (string, string) {
	if v := os.Getenv("ORACULO_LOAD_VAULT"); v != "" {
		q := os.Getenv("ORACULO_LOAD_QUESTIONS")
		if q == "" {
			t.Fatal("ORACULO_LOAD_VAULT needs ORACULO_LOAD_QUESTIONS (one question a line, or a golden set)")
		}
		return v, q
	}
	// Copyleft: read where it lies, never copied into the repository.
	shared, _ := filepath.Abs("../../../shared/eval/jacoblezberg-adventure-log")
	if _, err := os.Stat(filepath.Join(shared, "corpus")); err == nil {
		return filepath.Join(shared, "corpus"), filepath.Join(shared, "dev.jsonl")
	}
	ex, _ := filepath.Abs("../../examples")
	return filepath.Join(ex, "campaign"), filepath.Join(ex, "golden.jsonl")
}

// cleanEnv is this process's environment without its ORACULO_ variables.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "ORACULO_") {
			env = append(env, kv)
		}
	}
	return env
}

// loadAverage is /proc/loadavg's 1, 5 and 15 minute averages, or "?".
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return "?"
}

func loadEnvInt(t *testing.T, name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		t.Fatalf("%s=%q: want a positive number", name, v)
	}
	return n
}
