// Package progress draws a progress bar on a terminal and plain lines
// elsewhere (logs, CI, pipes).
package progress

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// Bar reports the advance of a counted task.
type Bar struct {
	mu       sync.Mutex
	w        io.Writer
	tty      bool
	label    string
	start    time.Time
	last     time.Time
	lastPct  int
	drawn    bool
	interval time.Duration
	// PageUnit names the rate of pages ("PDF pages/s"), in the user's
	// language.
	PageUnit string
}

// New returns a bar writing to w; tty selects the redrawn bar over plain lines.
func New(w io.Writer, tty bool, label string) *Bar {
	return &Bar{w: w, tty: tty, label: label, start: time.Now(), lastPct: -1, interval: 2 * time.Second}
}

// Update shows done of total, the bytes so far and the current item.
func (b *Bar) Update(done, total int, bytes int64, item string) {
	b.UpdatePages(done, total, bytes, 0, item)
}

// UpdatePages is Update with the pages of paged documents read so far,
// shown as a rate in PageUnit once there are any.
func (b *Bar) UpdatePages(done, total int, bytes int64, pages int, item string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := time.Now()
	pct := 100
	if total > 0 {
		pct = done * 100 / total
	}
	rate := ""
	if el := now.Sub(b.start).Seconds(); el > 0 {
		rate = fmt.Sprintf("%.1f MB/s", float64(bytes)/el/1e6)
		if pages > 0 {
			unit := b.PageUnit
			if unit == "" {
				unit = "pages/s"
			}
			rate += fmt.Sprintf(", %.0f %s", float64(pages)/el, unit)
		}
	}
	if b.tty {
		if done < total && now.Sub(b.last) < 80*time.Millisecond {
			return
		}
		b.last = now
		const width = 28
		fill := width * pct / 100
		bar := strings.Repeat("█", fill) + strings.Repeat("░", width-fill)
		line := fmt.Sprintf("%s [%s] %d/%d %3d%% %s  %s", b.label, bar, done, total, pct, rate, item)
		if r := []rune(line); len(r) > 110 {
			line = string(r[:109]) + "…"
		}
		fmt.Fprintf(b.w, "\r\033[K%s", line)
		b.drawn = true
		return
	}
	// Plain lines: every tenth of the way or every interval, and at the end.
	if done == total || pct/10 > b.lastPct/10 || now.Sub(b.last) >= b.interval {
		if pct == b.lastPct && done != total {
			return
		}
		b.last, b.lastPct = now, pct
		fmt.Fprintf(b.w, "%s: %d/%d (%d%%) %s\n", b.label, done, total, pct, rate)
	}
}

// Done ends the bar's line on a terminal.
func (b *Bar) Done() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.tty && b.drawn {
		fmt.Fprint(b.w, "\r\033[K")
	}
}
