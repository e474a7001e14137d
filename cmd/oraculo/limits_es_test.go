package main

import (
	"strings"
	"testing"
)

// TestServeLimitErrorsTranslated: a wrong limit of serve is said in the
// interface's language, not in English under a Spanish locale.
func TestServeLimitErrorsTranslated(t *testing.T) {
	defer func(was string) { lang = was }(lang)
	for _, c := range []struct {
		args      []string
		env, want string
	}{
		{[]string{"--max-search", "0"}, "", "error: --max-search 0: debe ser al menos 1"},
		{nil, "ORACULO_QUEUE_WAIT=pronto", "error: $ORACULO_QUEUE_WAIT=«pronto»: debe ser una duración como 500ms"},
		{nil, "ORACULO_MAX_ASK=muchas", "error: $ORACULO_MAX_ASK=«muchas»: debe ser un número entero"},
		{[]string{"--queue-wait", "0s"}, "", "error: --queue-wait 0s: debe ser una duración mayor que cero"},
	} {
		if k, v, ok := strings.Cut(c.env, "="); ok {
			t.Setenv(k, v)
		}
		_, errOut, code := runCLI(t, "", append([]string{"serve", "--ui-lang", "es", "--db", t.TempDir() + "/o.db"}, c.args...)...)
		if code != 2 || strings.TrimSpace(errOut) != c.want {
			t.Errorf("serve %v %s: exit %d, stderr %q, want %q", c.args, c.env, code, errOut, c.want)
		}
		if k, _, ok := strings.Cut(c.env, "="); ok {
			t.Setenv(k, "")
		}
	}
}
