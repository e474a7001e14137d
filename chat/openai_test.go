package chat

import (
	"net/http"
	"strings"
	"testing"

	_ "github.com/oraculo/oraculo/internal/golden"
)

const (
	// openAIStream is what llama-server and OpenAI send: a role chunk,
	// content chunks, a comment, a finish chunk, a usage chunk without
	// choices, then [DONE].
	openAIStream = `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}

data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"Los "},"finish_reason":null}]}

: keep-alive

data:{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"arévacos"},"finish_reason":null}]}

data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":null,"reasoning_content":"hmm"},"finish_reason":null}]}

data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"."},"finish_reason":null}]}

data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}

data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":9,"completion_tokens":3,"total_tokens":12}}

data: [DONE]

`
	openAIWhole = `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"{\"ids\":[3,1]}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":9,"completion_tokens":7,"total_tokens":16}}`
)

func TestOpenAIRequest(t *testing.T) {
	for _, tc := range []struct {
		name   string
		key    string
		req    Request
		stream bool
		want   map[string]string
	}{
		{
			name: "streamed", key: "sk-test",
			req: Request{Messages: conversation, MaxTokens: 300}, stream: true,
			want: map[string]string{"model": `"m"`, "stream": "true", "temperature": "0", "max_tokens": "300",
				"messages": jsonOf(generic(conversation)), "response_format": "", "stream_options": `{"include_usage":true}`},
		},
		{
			name: "whole JSON",
			req:  Request{Messages: conversation, JSON: true, Temperature: 0.2},
			want: map[string]string{"stream": "false", "temperature": "0.2", "max_tokens": "",
				"response_format": `{"type":"json_object"}`, "stream_options": ""},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
				if tc.stream {
					reply(200, "text/event-stream", openAIStream)(w, r)
				} else {
					reply(200, "application/json", openAIWhole)(w, r)
				}
			})
			m := NewOpenAI(OpenAIConfig{BaseURL: rec.URL + "/v1/", Model: "m", APIKey: tc.key})
			if m.ID() != "openai/m" {
				t.Errorf("ID = %q", m.ID())
			}
			exchange(t, m, tc.req, tc.stream)
			headers := map[string]string{"Authorization": "", "Accept": "application/json"}
			if tc.key != "" {
				headers["Authorization"] = "Bearer " + tc.key
			}
			if tc.stream {
				headers["Accept"] = "text/event-stream"
			}
			sentOne(t, rec, "/v1/chat/completions", headers, tc.want)
		})
	}
}

// A server that ignores "stream": true and answers one JSON object still
// gives the reply, in one piece.
func TestOpenAIStreamIgnored(t *testing.T) {
	rec := newRecorder(t, reply(200, "application/json", openAIWhole))
	var deltas []string
	got, err := NewOpenAI(OpenAIConfig{BaseURL: rec.URL, Model: "m"}).Chat(t.Context(),
		Request{Messages: conversation}, func(s string) { deltas = append(deltas, s) })
	if err != nil || got != `{"ids":[3,1]}` || len(deltas) != 1 {
		t.Errorf("got %q, %q, %v", got, deltas, err)
	}
}

// A stream that ends after a finish_reason but without [DONE] is whole.
func TestOpenAIStreamWithoutDone(t *testing.T) {
	body := strings.Replace(openAIStream, "data: [DONE]\n", "", 1)
	rec := newRecorder(t, reply(200, "text/event-stream", body))
	got, err := NewOpenAI(OpenAIConfig{BaseURL: rec.URL, Model: "m"}).Chat(t.Context(),
		Request{Messages: conversation}, func(string) {})
	if err != nil || got != "Los arévacos." {
		t.Errorf("got %q, %v", got, err)
	}
}

func TestOpenAIConfigErrors(t *testing.T) {
	for _, cfg := range []OpenAIConfig{
		{Model: "m"},
		{BaseURL: "127.0.0.1:8080", Model: "m"},
		{BaseURL: "http://127.0.0.1:8080/v1?x=1", Model: "m"},
		{BaseURL: "http://127.0.0.1:8080/v1"},
	} {
		_, err := NewOpenAI(cfg).Chat(t.Context(), Request{Messages: conversation}, nil)
		if err == nil || !strings.HasPrefix(err.Error(), "openai") {
			t.Errorf("%+v: err = %v, want a configuration error", cfg, err)
		}
	}
}

func TestOpenAIErrors(t *testing.T) {
	sse := "text/event-stream"
	for _, tc := range []struct {
		errorCase
		key string
	}{
		{errorCase: errorCase{name: "bad key", status: 401, body: `{"error":{"message":"Incorrect API key provided: sk-x.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`,
			kind: ErrAuth, want: []string{"Incorrect API key", "HTTP 401", "check the API key"}}, key: "sk-x"},
		{errorCase: errorCase{name: "no key", status: 401, body: `{"error":{"message":"You didn't provide an API key.","type":"invalid_request_error","param":null,"code":null}}`,
			kind: ErrAuth, want: []string{"no API key is configured"}}},
		{errorCase: errorCase{name: "forbidden", status: 403, body: `{"error":{"message":"Project does not have access","type":"invalid_request_error"}}`,
			kind: ErrAuth}},
		{errorCase: errorCase{name: "model not found", status: 404, body: `{"error":{"message":"The model ` + "`x`" + ` does not exist or you do not have access to it.","type":"invalid_request_error","param":null,"code":"model_not_found"}}`,
			kind: ErrModel, want: []string{"does not exist", "/models"}}},
		{errorCase: errorCase{name: "vllm model not found", status: 404, stream: true, body: `{"object":"error","message":"The model ` + "`x`" + ` does not exist.","type":"NotFoundError","param":null,"code":404}`,
			kind: ErrModel}},
		{errorCase: errorCase{name: "no such route", status: 404, ctype: "text/plain", body: "File Not Found",
			kind: ErrResponse, want: []string{"end in /v1"}}},
		{errorCase: errorCase{name: "bad request", status: 400, body: `{"error":{"message":"'response_format' of type 'json_object' is not supported with this model.","type":"invalid_request_error"}}`,
			kind: ErrResponse, want: []string{"HTTP 400", "may not support response_format"}}},
		{errorCase: errorCase{name: "no choices", status: 200, body: `{"id":"x","object":"chat.completion","choices":[]}`,
			kind: ErrResponse, want: []string{"no choices"}}},
		{errorCase: errorCase{name: "malformed whole", status: 200, body: `<html>oops</html>`,
			kind: ErrResponse, want: []string{"malformed JSON", "<html>"}}},
		{errorCase: errorCase{name: "malformed event", status: 200, ctype: sse, stream: true,
			body: "data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\ndata: {\"choices\":[{\"delta\n\n",
			kind: ErrResponse, want: []string{"malformed JSON"}}},
		{errorCase: errorCase{name: "error chunk", status: 200, ctype: sse, stream: true,
			body: "data: {\"error\":{\"message\":\"The server had an error while processing your request.\",\"type\":\"server_error\"}}\n\n",
			kind: ErrResponse, want: []string{"the server reported: The server had an error"}}},
		{errorCase: errorCase{name: "llama-server error line", status: 200, ctype: sse, stream: true,
			body: "error: {\"code\":500,\"message\":\"the request exceeds the available context size\",\"type\":\"exceed_context_size_error\"}\n\n",
			kind: ErrResponse, want: []string{"exceeds the available context size"}}},
		{errorCase: errorCase{name: "no done", status: 200, ctype: sse, stream: true,
			body: "data: {\"choices\":[{\"delta\":{\"content\":\"a\"},\"finish_reason\":null}]}\n\n",
			kind: ErrResponse, want: []string{"[DONE]"}}},
		{errorCase: errorCase{name: "empty reply", status: 200, ctype: sse, stream: true,
			body: "data: {\"choices\":[{\"delta\":{\"reasoning_content\":\"hmm\"},\"finish_reason\":\"length\"}]}\n\ndata: [DONE]\n\n",
			kind: ErrResponse, want: []string{"the reply is empty", "MaxTokens"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctype := tc.ctype
			if ctype == "" {
				ctype = "application/json"
			}
			rec := newRecorder(t, reply(tc.status, ctype, tc.body))
			checkError(t, NewOpenAI(OpenAIConfig{BaseURL: rec.URL, Model: "x", APIKey: tc.key}), rec, tc.errorCase)
		})
	}
}

// Messages name the server without the password of its URL.
func TestOpenAIRedactsCredentials(t *testing.T) {
	rec := newRecorder(t, reply(500, "application/json", `{"error":{"message":"boom"}}`))
	base := strings.Replace(rec.URL, "http://", "http://user:secret@", 1) + "/v1"
	_, err := NewOpenAI(OpenAIConfig{BaseURL: base, Model: "m", APIKey: "sk-secret"}).Chat(t.Context(),
		Request{Messages: conversation}, nil)
	if err == nil || strings.Contains(err.Error(), "secret") || !strings.Contains(err.Error(), "user:xxxxx@") {
		t.Errorf("err = %v, want the URL with its password redacted", err)
	}
}
