package httpx

import (
	"context"
	"io"
	"testing"
)

func TestNewPost(t *testing.T) {
	req, err := NewPost(context.Background(), "http://h/v1/embeddings", []byte(`{"a":1}`), "text/event-stream", "oraculo-test", "k")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(req.Body)
	want := map[string]string{"Content-Type": "application/json", "Accept": "text/event-stream", "User-Agent": "oraculo-test", "Authorization": "Bearer k"}
	for k, v := range want {
		if got := req.Header.Get(k); got != v {
			t.Errorf("%s: %q, want %q", k, got, v)
		}
	}
	if req.Method != "POST" || req.URL.String() != "http://h/v1/embeddings" || string(body) != `{"a":1}` {
		t.Errorf("%s %s %q", req.Method, req.URL, body)
	}
	if req, _ = NewPost(context.Background(), "http://h", nil, "application/json", "u", ""); req.Header.Get("Authorization") != "" {
		t.Error("an Authorization header without a key")
	}
	if _, err := NewPost(context.Background(), "http://[::1", nil, "a", "u", ""); err == nil {
		t.Error("no error for a URL that is not one")
	}
}
