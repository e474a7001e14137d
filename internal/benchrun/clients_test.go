package benchrun

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestRunClients: served, shed (503) and failed requests are counted
// apart per target, latencies are of the served ones only, and the run
// stops by itself after its duration.
func TestRunClients(t *testing.T) {
	var busy atomic.Int64
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/ok":
			time.Sleep(2 * time.Millisecond)
		case "/busy":
			// Every other request is shed.
			if busy.Add(1)%2 == 0 {
				w.Header().Set("Retry-After", "1")
				w.WriteHeader(http.StatusServiceUnavailable)
				return
			}
		case "/broken":
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		w.Write([]byte("{}"))
	}))
	defer ts.Close()
	target := func(name string) Target {
		return Target{Name: name, Method: "POST", URL: ts.URL + "/" + name, Body: func(int) []byte { return []byte("{}") }}
	}
	start := time.Now()
	res, err := RunClients(context.Background(), Clients{N: 6, Duration: 300 * time.Millisecond, Targets: []Target{target("ok"), target("busy"), target("broken")}})
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("the run took %v, want it to stop soon after 300 ms", took)
	}
	ok, shed, broken := res[0], res[1], res[2]
	if ok.Name != "ok" || ok.Served == 0 || ok.Shed != 0 || ok.Errors != 0 || ok.ShedShare != 0 {
		t.Errorf("ok: %+v", ok)
	}
	if !(ok.P50 >= 2 && ok.P50 <= ok.P95 && ok.P95 <= ok.P99 && ok.P99 <= ok.Max) {
		t.Errorf("ok: percentiles out of order or below the 2 ms the server takes: %+v", ok)
	}
	if shed.Served == 0 || shed.Shed == 0 || shed.Errors != 0 || shed.ShedShare <= 0.3 || shed.ShedShare >= 0.7 {
		t.Errorf("busy: want about half shed, no errors: %+v", shed)
	}
	if broken.Served != 0 || broken.Errors == 0 || !strings.Contains(broken.FirstError, "500") || broken.P99 != 0 {
		t.Errorf("broken: want only errors, the first named: %+v", broken)
	}
}

// TestRunClientsBackoff: with Backoff a refused client waits the
// Retry-After before its next request.
func TestRunClientsBackoff(t *testing.T) {
	var calls atomic.Int64
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.Header().Set("Retry-After", "1")
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer ts.Close()
	res, err := RunClients(context.Background(), Clients{N: 3, Duration: 500 * time.Millisecond, Backoff: true,
		Targets: []Target{{Name: "busy", Method: "GET", URL: ts.URL}}})
	if err != nil {
		t.Fatal(err)
	}
	if n := calls.Load(); n != 3 || res[0].Shed != 3 || res[0].ShedShare != 1 {
		t.Errorf("%d requests (%+v), want one a client: each waits the second it was told", n, res[0])
	}
}

func TestRunClientsRefusesNothingToDo(t *testing.T) {
	if _, err := RunClients(context.Background(), Clients{N: 0, Duration: time.Second, Targets: []Target{{Name: "x"}}}); err == nil {
		t.Error("no clients: no error")
	}
}
