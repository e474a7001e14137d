package openaicompat

import (
	"errors"
	"net/http"
	"testing"

	"github.com/oraculo/oraculo/internal/httpx"
)

func TestCheck(t *testing.T) {
	for _, c := range []struct {
		cfg       Config
		base      string
		model     string
		wantError string
	}{
		{Config{BaseURL: "http://127.0.0.1:8080/v1/", Model: " qwen "}, "http://127.0.0.1:8080/v1", "qwen", ""},
		{Config{BaseURL: "http://u:secret@host/v1", Model: ""}, "http://u:xxxxx@host/v1", "", `openai at "http://u:xxxxx@host/v1": no model configured`},
		{Config{BaseURL: "", Model: "m"}, "http://invalid", "m", `openai: BaseURL "": `},
	} {
		base, model, err := c.cfg.Check()
		if got := httpx.Redact(base); got != c.base || model != c.model {
			t.Errorf("%+v: base %q, model %q; want %q, %q", c.cfg, got, model, c.base, c.model)
		}
		switch {
		case c.wantError == "" && err != nil:
			t.Errorf("%+v: %v, want no error", c.cfg, err)
		case c.wantError != "" && (err == nil || len(err.Error()) < len(c.wantError) || err.Error()[:len(c.wantError)] != c.wantError):
			t.Errorf("%+v: error %v, want one starting %q", c.cfg, err, c.wantError)
		}
	}
}

func TestKey(t *testing.T) {
	t.Setenv("ORACULO_TEST_KEY", "")
	t.Setenv("OPENAI_API_KEY", "cloud")
	for _, c := range []struct{ explicit, env, url, want string }{
		{"given", "from-env", "https://api.openai.com/v1", "given"},
		{"", "from-env", "https://api.openai.com/v1", "from-env"},
		{"", "", "https://api.openai.com/v1", "cloud"},
		{"", "", "http://127.0.0.1:8080/v1", ""}, // the cloud key never goes to a local server
	} {
		t.Setenv("ORACULO_TEST_KEY", c.env)
		if got := Key(c.explicit, "ORACULO_TEST_KEY", c.url); got != c.want {
			t.Errorf("Key(%q, $ORACULO_TEST_KEY=%q, %q) = %q, want %q", c.explicit, c.env, c.url, got, c.want)
		}
	}
}

func TestClassify(t *testing.T) {
	auth, model := errors.New("auth"), errors.New("model")
	base := "http://h/v1"
	for _, c := range []struct {
		status int
		ae     httpx.APIError
		keyed  bool
		hint   string
		kind   error
		ok     bool
	}{
		{http.StatusUnauthorized, httpx.APIError{}, false, "no API key is configured: set one", auth, true},
		{http.StatusForbidden, httpx.APIError{}, true, "check the API key", auth, true},
		{http.StatusNotFound, httpx.APIError{Message: "model 'x' not found"}, false, "check the model name: GET http://h/v1/models lists what the server serves", model, true},
		{http.StatusNotFound, httpx.APIError{Message: "no route"}, false, "", nil, false},
		{http.StatusBadRequest, httpx.APIError{Message: "bad"}, true, "", nil, false},
	} {
		hint, kind, ok := Classify(c.status, c.ae, base, c.keyed, auth, model)
		if hint != c.hint || kind != c.kind || ok != c.ok {
			t.Errorf("%d %q: %q, %v, %v; want %q, %v, %v", c.status, c.ae.Message, hint, kind, ok, c.hint, c.kind, c.ok)
		}
	}
	if got := NotFoundHint(base, "embeddings"); got != "no http://h/v1/embeddings here: base URLs usually end in /v1, e.g. http://127.0.0.1:8080/v1" {
		t.Errorf("NotFoundHint: %q", got)
	}
}
