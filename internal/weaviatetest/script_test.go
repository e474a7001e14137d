package weaviatetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestLocalScript runs the deployment docs/weaviate.md documents,
// scripts/weaviate-local.sh, as a user would: three nodes on one machine
// form one cluster, a collection created on one node is seen on the
// others, and after a stop and a start the nodes still hold it.
func TestLocalScript(t *testing.T) {
	t.Parallel() // its own nodes and ports: their starts overlap (TestBinaryFromEnv, which sets the environment, runs first)
	if runtime.GOOS == "windows" {
		t.Skip("the script is bash")
	}
	bin := NeedBinary(t)
	script, err := filepath.Abs("../../scripts/weaviate-local.sh")
	if err != nil {
		t.Fatal(err)
	}
	const n = 3
	httpBase, grpcBase, clusterBase := freeBlocks(t, n)
	dir := t.TempDir()
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("bash", append([]string{script}, args...)...)
		cmd.Env = append(os.Environ(), "WEAVIATE_BIN="+bin,
			"WEAVIATE_HTTP="+strconv.Itoa(httpBase), "WEAVIATE_GRPC="+strconv.Itoa(grpcBase),
			"WEAVIATE_CLUSTER="+strconv.Itoa(clusterBase))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("weaviate-local.sh %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	t.Cleanup(func() { exec.Command("bash", script, "stop", dir).Run() })

	out := run("start", dir, strconv.Itoa(n))
	for i := range n {
		if !strings.Contains(out, fmt.Sprintf("node%d ready: http://127.0.0.1:%d", i, httpBase+i)) {
			t.Fatalf("start did not report node%d ready:\n%s", i, out)
		}
	}
	url := func(i int) string { return "http://127.0.0.1:" + strconv.Itoa(httpBase+i) }
	if got := healthyNodes(t, url(1)); got != n {
		t.Fatalf("node1 sees %d healthy nodes, want %d", got, n)
	}
	body := `{"class":"ScriptCheck","vectorizer":"none","replicationConfig":{"factor":3}}`
	resp, err := http.Post(url(0)+"/v1/schema", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("creating a collection on node0: %s", resp.Status)
	}
	hasClass := func(i int) bool {
		deadline := time.Now().Add(10 * time.Second)
		for {
			resp, err := http.Get(url(i) + "/v1/schema/ScriptCheck")
			if err == nil {
				resp.Body.Close()
				if resp.StatusCode == http.StatusOK {
					return true
				}
			}
			if time.Now().After(deadline) {
				return false
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	if !hasClass(2) {
		t.Fatal("node2 does not see the collection created on node0")
	}

	out = run("stop", dir)
	if strings.Count(out, "stopped") != n {
		t.Fatalf("stop did not stop %d nodes:\n%s", n, out)
	}
	if resp, err := (&http.Client{Timeout: time.Second}).Get(url(0) + "/v1/.well-known/live"); err == nil {
		resp.Body.Close()
		t.Fatal("node0 still answers after stop")
	}
	run("start", dir, strconv.Itoa(n))
	for i := range n {
		if !hasClass(i) {
			t.Errorf("node%d lost the collection across a stop and a start", i)
		}
	}
}

// healthyNodes counts the nodes a node reports HEALTHY.
func healthyNodes(t *testing.T, url string) int {
	t.Helper()
	resp, err := http.Get(url + "/v1/nodes")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	buf.ReadFrom(resp.Body)
	var nodes struct {
		Nodes []struct{ Name, Status string }
	}
	if err := json.Unmarshal(buf.Bytes(), &nodes); err != nil {
		t.Fatalf("GET /v1/nodes: %v: %s", err, buf.String())
	}
	healthy := 0
	for _, n := range nodes.Nodes {
		if n.Status == "HEALTHY" {
			healthy++
		}
	}
	return healthy
}

// freeBlocks finds base ports for the script: n consecutive free HTTP
// ports, n gRPC ports, and n blocks of ten cluster ports, all free on
// 127.0.0.1 when looked at.
func freeBlocks(t *testing.T, n int) (httpBase, grpcBase, clusterBase int) {
	t.Helper()
	free := func(base, count int) bool {
		for p := base; p < base+count; p++ {
			l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p))
			if err != nil {
				return false
			}
			l.Close()
		}
		return true
	}
	for try := 0; try < 200; try++ {
		base := 20000 + 100*rand.IntN(100)
		if free(base, n) && free(base+20, n) && free(base+40, 10*n) {
			return base, base + 20, base + 40
		}
	}
	t.Fatal("no free block of ports on 127.0.0.1 between 20000 and 30000")
	return
}
