package main

import (
	"flag"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/oraculo/oraculo/server"
)

// TestLimitFlags: serve's shedding limits come from the flags, else
// their variables, else the machine's defaults; a flag beats its
// variable, --queue 0 is no queue, and a bound below one is refused.
func TestLimitFlags(t *testing.T) {
	// The messages are English's: another test may have left the
	// interface in Spanish.
	defer func(was string) { lang = was }(lang)
	lang = "en"
	d := server.DefaultLimits()
	tests := []struct {
		name    string
		args    []string
		env     map[string]string
		want    server.Limits
		wantErr string
	}{
		{name: "defaults", want: d},
		{name: "flags", args: []string{"--max-search", "3", "--max-ask", "5", "--max-model", "7", "--queue", "9", "--queue-wait", "2s"},
			want: server.Limits{Search: 3, Ask: 5, Model: 7, Queue: 9, QueueWait: 2 * time.Second}},
		{name: "variables", env: map[string]string{"ORACULO_MAX_SEARCH": "11", "ORACULO_MAX_ASK": "12", "ORACULO_MAX_MODEL": "13", "ORACULO_QUEUE": "14", "ORACULO_QUEUE_WAIT": "750ms"},
			want: server.Limits{Search: 11, Ask: 12, Model: 13, Queue: 14, QueueWait: 750 * time.Millisecond}},
		{name: "a flag beats its variable", args: []string{"--max-search", "2", "--queue-wait", "1s"}, env: map[string]string{"ORACULO_MAX_SEARCH": "11", "ORACULO_QUEUE_WAIT": "9s"},
			want: server.Limits{Search: 2, Ask: d.Ask, Model: d.Model, Queue: d.Queue, QueueWait: time.Second}},
		{name: "no queue", args: []string{"--queue", "0"}, want: server.Limits{Search: d.Search, Ask: d.Ask, Model: d.Model, Queue: -1, QueueWait: d.QueueWait}},
		{name: "no searches", args: []string{"--max-search", "0"}, wantErr: "--max-search 0"},
		{name: "negative", args: []string{"--max-model", "-2"}, wantErr: "--max-model -2"},
		{name: "bad variable", env: map[string]string{"ORACULO_MAX_ASK": "muchas"}, wantErr: `$ORACULO_MAX_ASK="muchas"`},
		{name: "bad wait", env: map[string]string{"ORACULO_QUEUE_WAIT": "pronto"}, wantErr: `$ORACULO_QUEUE_WAIT="pronto"`},
		{name: "no wait", args: []string{"--queue-wait", "0s"}, wantErr: "--queue-wait 0s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, k := range []string{"ORACULO_MAX_SEARCH", "ORACULO_MAX_ASK", "ORACULO_MAX_MODEL", "ORACULO_QUEUE", "ORACULO_QUEUE_WAIT"} {
				t.Setenv(k, tt.env[k])
			}
			fs := flag.NewFlagSet("serve", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			limits := limitFlags(fs)
			if err := fs.Parse(tt.args); err != nil {
				t.Fatal(err)
			}
			got, err := limits()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one naming %s", err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("limits %+v (%v), want %+v", got, err, tt.want)
			}
		})
	}
}

// TestServeRefusesBadLimits: serve says what is wrong with a limit and
// exits 2, before it opens anything.
func TestServeRefusesBadLimits(t *testing.T) {
	_, errOut, code := runCLI(t, "", "serve", "--db", t.TempDir()+"/o.db", "--max-ask", "0")
	if code != 2 || !strings.Contains(errOut, "--max-ask 0") {
		t.Fatalf("serve --max-ask 0: exit %d, stderr %q", code, errOut)
	}
}
