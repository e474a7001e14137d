package weaviatetest

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"testing"
	"time"
)

// TestStartStop starts one node, checks it answers, and checks that its
// process is gone once the test that started it has ended.
func TestStartStop(t *testing.T) {
	t.Parallel() // its own nodes and ports: their starts overlap (TestBinaryFromEnv, which sets the environment, runs first)
	var pid int
	var url string
	t.Run("node", func(t *testing.T) {
		c := Start(t, 1)
		n := c.Nodes[0]
		pid, url = n.Pid(), n.URL()
		resp, err := http.Get(url + "/v1/meta")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET /v1/meta: %s", resp.Status)
		}
		if _, err := os.Stat(n.Log); err != nil {
			t.Error(err)
		}
	})
	if pid == 0 {
		t.Skip("no node was started")
	}
	if processAlive(pid) {
		t.Errorf("weaviate (pid %d) still runs after its test ended", pid)
	}
	client := &http.Client{Timeout: time.Second}
	if resp, err := client.Get(url + "/v1/.well-known/live"); err == nil {
		resp.Body.Close()
		t.Errorf("%s still answers after its test ended", url)
	}
}

// TestRestart stops a node and starts it again on the same folder.
func TestRestart(t *testing.T) {
	t.Parallel() // its own nodes and ports: their starts overlap (TestBinaryFromEnv, which sets the environment, runs first)
	c := Start(t, 1)
	n := c.Nodes[0]
	if err := n.Stop(); err != nil {
		t.Fatal(err)
	}
	if n.Running() {
		t.Fatal("running after Stop")
	}
	if err := n.Restart(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !n.Running() {
		t.Fatal("not running after Restart")
	}
}

func TestBinaryFromEnv(t *testing.T) {
	t.Setenv("ORACULO_WEAVIATE_BIN", t.TempDir())
	if _, err := Binary(); err == nil {
		t.Error("a folder in $ORACULO_WEAVIATE_BIN was taken for the server")
	}
}

// TestCluster starts three nodes and checks that each sees the others.
func TestCluster(t *testing.T) {
	t.Parallel() // its own nodes and ports: their starts overlap (TestBinaryFromEnv, which sets the environment, runs first)
	c := Start(t, 3)
	for _, n := range c.Nodes {
		resp, err := http.Get(n.URL() + "/v1/nodes")
		if err != nil {
			t.Fatal(err)
		}
		var body struct {
			Nodes []struct {
				Name, Status string
			}
		}
		err = json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		healthy := 0
		for _, m := range body.Nodes {
			if m.Status == "HEALTHY" {
				healthy++
			}
		}
		if healthy != 3 {
			t.Errorf("%s sees %+v, want 3 healthy nodes", n.Name, body.Nodes)
		}
	}
}
