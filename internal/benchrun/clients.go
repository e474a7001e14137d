package benchrun

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"
)

// Target is one kind of request the clients of [RunClients] make.
type Target struct {
	// Name names the target in the results.
	Name string
	// Method and URL of every request.
	Method, URL string
	// Body is the JSON body of a client's n-th request to this target.
	Body func(n int) []byte
	// Header is added to every request.
	Header http.Header
}

// Clients configures [RunClients].
type Clients struct {
	// N clients send requests one after another, each to the targets in
	// turn, for Duration; a request still running then is waited for, at
	// most Timeout (default a minute), and counted.
	N        int
	Duration time.Duration
	Timeout  time.Duration
	Targets  []Target
	// Backoff makes a client that was refused with 503 wait what the
	// Retry-After header said (seconds) before its next request, as
	// well-behaved clients do; without it the client goes on at once.
	Backoff bool
	// Client sends the requests (default: one with a connection pool as
	// large as N).
	Client *http.Client
}

// TargetResult is what the clients got from one target. Latencies are of
// the requests served (2xx), in milliseconds, nearest-rank percentiles.
type TargetResult struct {
	Name   string `json:"name"`
	Served int    `json:"served"`
	// Shed counts the requests refused with 503; ShedShare is their
	// share of all requests.
	Shed      int     `json:"shed"`
	ShedShare float64 `json:"shed_share"`
	// Errors counts every other outcome: another status, a transport
	// error or a timeout. FirstError describes the first.
	Errors     int     `json:"errors"`
	FirstError string  `json:"first_error,omitempty"`
	P50        float64 `json:"p50_ms"`
	P95        float64 `json:"p95_ms"`
	P99        float64 `json:"p99_ms"`
	Max        float64 `json:"max_ms"`
	// ShedP99 is the 99th percentile of the time a refusal took.
	ShedP99 float64 `json:"shed_p99_ms"`
	// PerSecond is the rate of requests served.
	PerSecond float64 `json:"served_per_second"`
}

// RunClients runs c.N concurrent clients against c.Targets for
// c.Duration (or until ctx ends) and reports, per target, the latency of
// the requests served, the share refused with 503 and the errors. It
// stops by itself: no request is started after the duration, and none
// runs longer than the timeout.
func RunClients(ctx context.Context, c Clients) ([]TargetResult, error) {
	if c.N < 1 || len(c.Targets) == 0 || c.Duration <= 0 {
		return nil, fmt.Errorf("running clients: want at least one client, one target and a duration, got %d, %d and %v", c.N, len(c.Targets), c.Duration)
	}
	if c.Timeout <= 0 {
		c.Timeout = time.Minute
	}
	client := c.Client
	if client == nil {
		client = &http.Client{Transport: &http.Transport{MaxIdleConns: c.N, MaxIdleConnsPerHost: c.N}}
	}
	type outcome struct {
		served, shed []time.Duration
		errors       int
		first        string
	}
	var (
		mu   sync.Mutex
		outs = make([]outcome, len(c.Targets))
		wg   sync.WaitGroup
	)
	runCtx, cancel := context.WithTimeout(ctx, c.Duration)
	defer cancel()
	start := time.Now()
	for i := range c.N {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := i; runCtx.Err() == nil; n++ {
				ti := n % len(c.Targets)
				status, wait, d, err := send(ctx, client, c.Timeout, c.Targets[ti], n/len(c.Targets))
				mu.Lock()
				o := &outs[ti]
				switch {
				case err == nil && status/100 == 2:
					o.served = append(o.served, d)
				case err == nil && status == http.StatusServiceUnavailable:
					o.shed = append(o.shed, d)
				default:
					if o.errors == 0 {
						o.first = fmt.Sprintf("status %d: %v", status, err)
					}
					o.errors++
				}
				mu.Unlock()
				if c.Backoff && wait > 0 {
					select {
					case <-runCtx.Done():
					case <-time.After(wait):
					}
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start).Seconds()
	res := make([]TargetResult, len(c.Targets))
	for i, o := range outs {
		slices.Sort(o.served)
		slices.Sort(o.shed)
		r := TargetResult{Name: c.Targets[i].Name, Served: len(o.served), Shed: len(o.shed), Errors: o.errors, FirstError: o.first,
			P50: ms(Percentile(o.served, 50)), P95: ms(Percentile(o.served, 95)), P99: ms(Percentile(o.served, 99)), ShedP99: ms(Percentile(o.shed, 99))}
		if len(o.served) > 0 {
			r.Max = ms(o.served[len(o.served)-1])
		}
		if all := r.Served + r.Shed + r.Errors; all > 0 {
			r.ShedShare = float64(r.Shed) / float64(all)
		}
		if elapsed > 0 {
			r.PerSecond = float64(r.Served) / elapsed
		}
		res[i] = r
	}
	return res, ctx.Err()
}

// send makes one request and reads its whole answer; it returns the
// status, the Retry-After of a 503 and how long it took.
func send(ctx context.Context, client *http.Client, timeout time.Duration, t Target, n int) (int, time.Duration, time.Duration, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var body io.Reader
	if t.Body != nil {
		body = bytes.NewReader(t.Body(n))
	}
	req, err := http.NewRequestWithContext(ctx, t.Method, t.URL, body)
	if err != nil {
		return 0, 0, 0, err
	}
	for k, vs := range t.Header {
		req.Header[k] = vs
	}
	start := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		return 0, 0, time.Since(start), err
	}
	_, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	d := time.Since(start)
	var wait time.Duration
	if resp.StatusCode == http.StatusServiceUnavailable {
		if s, perr := strconv.Atoi(resp.Header.Get("Retry-After")); perr == nil && s > 0 {
			wait = time.Duration(s) * time.Second
		}
	}
	return resp.StatusCode, wait, d, err
}
