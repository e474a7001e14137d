package answer

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestFellBack: a deadline's error is a timeout, any other an error; the
// notice is in the answer's language and names nothing of the setup.
func TestFellBack(t *testing.T) {
	tests := []struct {
		err        error
		lang, why  string
		noticeHead string
	}{
		{fmt.Errorf("chat: %w", context.DeadlineExceeded), "es", FallbackTimeout, "El modelo no respondió a tiempo"},
		{fmt.Errorf("chat: %w", context.DeadlineExceeded), "en", FallbackTimeout, "The model did not answer in time"},
		{errors.New("connection refused"), "es", FallbackError, "El modelo falló"},
		{errors.New("connection refused"), "en", FallbackError, "The model failed"},
	}
	for _, tt := range tests {
		f := FellBack(tt.err, tt.lang)
		if f.Why != tt.why || !strings.HasPrefix(f.Notice, tt.noticeHead) {
			t.Errorf("FellBack(%v, %s) = %+v; want %s, notice %q…", tt.err, tt.lang, f, tt.why, tt.noticeHead)
		}
		if !strings.Contains(f.Warning, tt.err.Error()) || strings.Contains(f.Notice, tt.err.Error()) {
			t.Errorf("FellBack(%v): the warning names the failure, the notice not: %+v", tt.err, f)
		}
	}
}

// TestModelBudget: the model's calls end a quarter of the time left
// before the answer's deadline, fallbackReserve at most; without a
// deadline, never.
func TestModelBudget(t *testing.T) {
	ctx, cancel := ModelBudget(context.Background())
	if _, ok := ctx.Deadline(); ok {
		t.Error("a budget without a deadline has one")
	}
	cancel()
	for _, left := range []time.Duration{8 * time.Second, time.Minute} {
		parent, stop := context.WithTimeout(context.Background(), left)
		dl, _ := parent.Deadline()
		ctx, cancel := ModelBudget(parent)
		got, _ := ctx.Deadline()
		reserve := dl.Sub(got)
		want := min(left/4, fallbackReserve)
		if reserve > want || reserve < want-time.Second {
			t.Errorf("%v left: the model's deadline is %v early, want %v", left, reserve, want)
		}
		cancel()
		stop()
	}
}
