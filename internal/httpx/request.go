package httpx

import (
	"bytes"
	"context"
	"net/http"
)

// NewPost returns a POST of the JSON body to url, as every model client
// sends one: JSON in, accept as the Accept header (the JSON answer, or a
// stream), userAgent naming the client, and the API key, when there is
// one, as a bearer token.
func NewPost(ctx context.Context, url string, body []byte, accept, userAgent, apiKey string) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", accept)
	req.Header.Set("User-Agent", userAgent)
	if apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+apiKey)
	}
	return req, nil
}
