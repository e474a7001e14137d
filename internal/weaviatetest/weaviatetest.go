// Package weaviatetest runs real Weaviate servers on 127.0.0.1 for tests:
// one node or a cluster of several, each with its own ports and data
// folder, every process stopped when the test ends.
//
// The server is the binary `go install
// github.com/weaviate/weaviate/cmd/weaviate-server@v1.35.2` builds. It is
// found in $ORACULO_WEAVIATE_BIN, else in PATH, else in $(go env
// GOPATH)/bin. Without it a test that asks for a node is skipped, unless
// $ORACULO_REQUIRE_WEAVIATE=1 (CI installs it: a missing server must not
// pass silently).
//
// Nodes run with anonymous access, no vectorizer module, telemetry,
// profiling and Prometheus disabled, and their logs in their data folder
// (a start that fails quotes the end of the log).
package weaviatetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Version is the server version CI installs and the tests are written
// against.
const Version = "v1.35.2"

// ReadyTimeout bounds how long a node may take to answer ready (about 7 s
// on 2 cores; a cluster waits for its raft quorum as well).
const ReadyTimeout = 90 * time.Second

// Binary returns the path of the Weaviate server, or an error saying where
// it was looked for.
func Binary() (string, error) {
	if p := os.Getenv("ORACULO_WEAVIATE_BIN"); p != "" {
		if fi, err := os.Stat(p); err != nil || fi.IsDir() {
			return "", fmt.Errorf("$ORACULO_WEAVIATE_BIN is %q, which is not a file", p)
		}
		return p, nil
	}
	if p, err := exec.LookPath("weaviate-server"); err == nil {
		return p, nil
	}
	gopath := os.Getenv("GOPATH")
	if gopath == "" {
		if out, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
			gopath = strings.TrimSpace(string(out))
		}
	}
	for _, dir := range filepath.SplitList(gopath) {
		p := filepath.Join(dir, "bin", "weaviate-server")
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, nil
		}
	}
	return "", fmt.Errorf("no weaviate-server in $ORACULO_WEAVIATE_BIN, PATH or $(go env GOPATH)/bin: "+
		"install it with `go install github.com/weaviate/weaviate/cmd/weaviate-server@%s`", Version)
}

// NeedBinary returns the server's path, or skips the test (fails it when
// $ORACULO_REQUIRE_WEAVIATE=1).
func NeedBinary(t testing.TB) string {
	t.Helper()
	p, err := Binary()
	if err != nil {
		if os.Getenv("ORACULO_REQUIRE_WEAVIATE") == "1" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	return p
}

// Node is one Weaviate server.
type Node struct {
	// Name is the node's cluster hostname ("node0", "node1"...).
	Name string
	// HTTP and GRPC are the ports of its REST/GraphQL and gRPC APIs.
	HTTP, GRPC int
	// Gossip, Data, Raft and RaftRPC are its cluster ports.
	Gossip, Data, Raft, RaftRPC int
	// Dir is its data folder, Log its log file.
	Dir, Log string

	bin string
	env []string

	mu   sync.Mutex
	proc *process
}

// Host is the node's REST address, host:port.
func (n *Node) Host() string { return "127.0.0.1:" + strconv.Itoa(n.HTTP) }

// GRPCHost is the node's gRPC address, host:port.
func (n *Node) GRPCHost() string { return "127.0.0.1:" + strconv.Itoa(n.GRPC) }

// URL is the node's REST base URL.
func (n *Node) URL() string { return "http://" + n.Host() }

// Cluster is a set of nodes started together.
type Cluster struct {
	Nodes []*Node
}

// Start starts n nodes forming one cluster, waits until every one is
// ready, and stops them all when the test ends. It skips the test when
// there is no server binary (see [NeedBinary]).
func Start(t testing.TB, n int) *Cluster {
	t.Helper()
	return StartEnv(t, n, nil)
}

// StartEnv starts n nodes as [Start] does, with env's variables added to
// (or replacing) those the nodes run with.
func StartEnv(t testing.TB, n int, extra map[string]string) *Cluster {
	t.Helper()
	if n < 1 {
		t.Fatalf("weaviatetest: %d nodes", n)
	}
	bin := NeedBinary(t)
	ports, err := freePorts(n)
	if err != nil {
		t.Fatal(err)
	}
	c := &Cluster{}
	var raftJoin []string
	for i := range n {
		p := ports[6*i : 6*i+6]
		node := &Node{
			Name: "node" + strconv.Itoa(i), HTTP: p[0], GRPC: p[1],
			Gossip: p[2], Data: p[3], Raft: p[4], RaftRPC: p[5],
			Dir: t.TempDir(), bin: bin,
		}
		node.Log = filepath.Join(node.Dir, "weaviate.log")
		raftJoin = append(raftJoin, node.Name+":"+strconv.Itoa(node.Raft))
		c.Nodes = append(c.Nodes, node)
	}
	for i, node := range c.Nodes {
		env := map[string]string{
			"PERSISTENCE_DATA_PATH":                   filepath.Join(node.Dir, "data"),
			"AUTHENTICATION_ANONYMOUS_ACCESS_ENABLED": "true",
			"DEFAULT_VECTORIZER_MODULE":               "none",
			"ENABLE_MODULES":                          "",
			"DISABLE_TELEMETRY":                       "true",
			"GO_PROFILING_DISABLE":                    "true",
			"PROMETHEUS_MONITORING_ENABLED":           "false",
			// BlockMax WAND in v1.35.2 prunes matches still in the
			// memtable from limited BM25 queries (weaviate#11780).
			"USE_INVERTED_SEARCHABLE":  "false",
			"QUERY_DEFAULTS_LIMIT":     "25",
			"QUERY_MAXIMUM_RESULTS":    "10000",
			"LOG_LEVEL":                "warning",
			"LOG_FORMAT":               "text",
			"GRPC_PORT":                strconv.Itoa(node.GRPC),
			"CLUSTER_HOSTNAME":         node.Name,
			"CLUSTER_IN_LOCALHOST":     "true",
			"CLUSTER_BIND_ADDR":        "127.0.0.1",
			"CLUSTER_ADVERTISE_ADDR":   "127.0.0.1",
			"CLUSTER_GOSSIP_BIND_PORT": strconv.Itoa(node.Gossip),
			"CLUSTER_DATA_BIND_PORT":   strconv.Itoa(node.Data),
			"RAFT_PORT":                strconv.Itoa(node.Raft),
			"RAFT_INTERNAL_RPC_PORT":   strconv.Itoa(node.RaftRPC),
			"RAFT_JOIN":                strings.Join(raftJoin, ","),
			"RAFT_BOOTSTRAP_EXPECT":    strconv.Itoa(n),
		}
		for k, v := range extra {
			env[k] = v
		}
		if i > 0 {
			env["CLUSTER_JOIN"] = "127.0.0.1:" + strconv.Itoa(c.Nodes[0].Gossip)
		}
		node.env = os.Environ()
		for k, v := range env {
			node.env = append(node.env, k+"="+v)
		}
	}
	t.Cleanup(c.stop)
	ctx, cancel := context.WithTimeout(context.Background(), ReadyTimeout)
	defer cancel()
	for i, node := range c.Nodes {
		if err := node.start(); err != nil {
			t.Fatal(err)
		}
		// A node that joins before the first one gossips gives up and
		// exits.
		if i == 0 && n > 1 {
			if err := node.waitGossip(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, node := range c.Nodes {
		if err := node.waitReady(ctx); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

// Stop stops the node (SIGTERM, then SIGKILL after 15 s) and waits for it
// to exit; its data folder stays, for [Node.Restart].
func (n *Node) Stop() error {
	n.mu.Lock()
	p := n.proc
	n.proc = nil
	n.mu.Unlock()
	if p == nil {
		return nil
	}
	return p.stop(15 * time.Second)
}

// Restart starts a stopped node again on the same ports and data folder
// and waits until it is ready.
func (n *Node) Restart(ctx context.Context) error {
	if err := n.start(); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, ReadyTimeout)
	defer cancel()
	return n.waitReady(ctx)
}

// Running reports whether the node's process is running.
func (n *Node) Running() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.proc != nil && !n.proc.exited()
}

// Pid is the node's process id, 0 when it is stopped.
func (n *Node) Pid() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.proc == nil {
		return 0
	}
	return n.proc.cmd.Process.Pid
}

func (c *Cluster) stop() {
	var wg sync.WaitGroup
	for _, n := range c.Nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n.Stop()
		}()
	}
	wg.Wait()
}

func (n *Node) start() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.proc != nil {
		return fmt.Errorf("starting weaviate %s: already running", n.Name)
	}
	log, err := os.OpenFile(n.Log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("starting weaviate %s: %w", n.Name, err)
	}
	cmd := exec.Command(n.bin, "--scheme", "http", "--host", "127.0.0.1", "--port", strconv.Itoa(n.HTTP),
		"--read-timeout", "600s", "--write-timeout", "600s")
	cmd.Env = n.env
	cmd.Dir = n.Dir
	cmd.Stdout, cmd.Stderr = log, log
	ownGroup(cmd)
	if err := cmd.Start(); err != nil {
		log.Close()
		return fmt.Errorf("starting weaviate %s (%s): %w", n.Name, n.bin, err)
	}
	p := &process{cmd: cmd, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		log.Close()
		close(p.done)
	}()
	n.proc = p
	return nil
}

// waitReady polls the node's readiness endpoint until it answers 200.
func (n *Node) waitReady(ctx context.Context) error {
	n.mu.Lock()
	p := n.proc
	n.mu.Unlock()
	if p == nil {
		return fmt.Errorf("weaviate %s is not running", n.Name)
	}
	client := &http.Client{Timeout: 2 * time.Second}
	url := n.URL() + "/v1/.well-known/ready"
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		if resp, err := client.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-p.done:
			return fmt.Errorf("weaviate %s exited before it was ready (%v); its log ends:\n%s", n.Name, p.err, n.logTail())
		case <-ctx.Done():
			return fmt.Errorf("weaviate %s not ready at %s: %w; its log ends:\n%s", n.Name, url, ctx.Err(), n.logTail())
		case <-tick.C:
		}
	}
}

// waitGossip waits until the node accepts connections on its gossip port.
func (n *Node) waitGossip(ctx context.Context) error {
	n.mu.Lock()
	p := n.proc
	n.mu.Unlock()
	addr := "127.0.0.1:" + strconv.Itoa(n.Gossip)
	for {
		if conn, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			conn.Close()
			return nil
		}
		select {
		case <-p.done:
			return fmt.Errorf("weaviate %s exited before it gossiped (%v); its log ends:\n%s", n.Name, p.err, n.logTail())
		case <-ctx.Done():
			return fmt.Errorf("weaviate %s not gossiping at %s: %w; its log ends:\n%s", n.Name, addr, ctx.Err(), n.logTail())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// logTail returns the last lines of the node's log.
func (n *Node) logTail() string {
	data, err := os.ReadFile(n.Log)
	if err != nil {
		return err.Error()
	}
	lines := bytes.Split(bytes.TrimRight(data, "\n"), []byte("\n"))
	if len(lines) > 30 {
		lines = lines[len(lines)-30:]
	}
	return string(bytes.Join(lines, []byte("\n")))
}

// process is one run of a node's server.
type process struct {
	cmd  *exec.Cmd
	done chan struct{}
	err  error
}

func (p *process) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// stop signals the process group to end, kills it after grace, and waits.
func (p *process) stop(grace time.Duration) error {
	if p.exited() {
		return nil
	}
	signalGroup(p.cmd, false)
	select {
	case <-p.done:
		return nil
	case <-time.After(grace):
	}
	signalGroup(p.cmd, true)
	select {
	case <-p.done:
		return nil
	case <-time.After(10 * time.Second):
		return errors.New("weaviate did not exit after SIGKILL")
	}
}

// freePorts returns the six ports of each of n nodes, distinct and free
// on 127.0.0.1, held open until all are chosen so that none repeats: HTTP,
// gRPC, gossip, data, raft and raft's RPC. A cluster on one host finds a
// node's raft RPC port at its raft port + 1 (Weaviate's
// cluster/resolver), so those two are consecutive.
func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	listen := func(port int) (int, bool) {
		l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
		if err != nil {
			return 0, false
		}
		ls = append(ls, l)
		return l.Addr().(*net.TCPAddr).Port, true
	}
	ports := make([]int, 0, 6*n)
	for range n {
		for range 4 {
			p, ok := listen(0)
			if !ok {
				return nil, errors.New("finding a free port on 127.0.0.1")
			}
			ports = append(ports, p)
		}
		for try := 0; ; try++ {
			if try == 100 {
				return nil, errors.New("finding two consecutive free ports on 127.0.0.1")
			}
			p, ok := listen(0)
			if !ok {
				continue
			}
			if q, ok := listen(p + 1); ok {
				ports = append(ports, p, q)
				break
			}
		}
	}
	return ports, nil
}
