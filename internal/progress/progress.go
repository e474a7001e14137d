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
	// Width is the terminal's width: the redrawn line is cut to fit
	// within it (a longer one would wrap, and the next redraw would clear
	// only its last row); 0 means lines of at most 110 columns.
	Width int
	// ItemUnit names the rate of the items counted ("chunks/s"), shown
	// for a task that reads no bytes; without it such a task shows no
	// rate.
	ItemUnit string
}

// minRateTime is how long a task runs before its rate is shown: a rate
// measured over the first moments says nothing ("1896.3 MB/s").
const minRateTime = 250 * time.Millisecond

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
	rate := b.rate(now.Sub(b.start), done, bytes, pages)
	if b.tty {
		if done < total && now.Sub(b.last) < 80*time.Millisecond {
			return
		}
		b.last = now
		const width = 28
		fill := width * pct / 100
		bar := strings.Repeat("█", fill) + strings.Repeat("░", width-fill)
		line := fmt.Sprintf("%s [%s] %d/%d %3d%%", b.label, bar, done, total, pct) + withRate(rate) + "  " + item
		most := 110
		if b.Width > 0 {
			most = max(b.Width-1, 2) // the last column would wrap on some terminals
		}
		if r := []rune(line); len(r) > most {
			line = string(r[:most-1]) + "…"
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
		fmt.Fprintf(b.w, "%s: %d/%d (%d%%)%s\n", b.label, done, total, pct, withRate(rate))
	}
}

// rate is how fast the task goes after el with done items, bytes and
// pages: in MB/s (and pages/s) when it reads bytes, else in ItemUnit; ""
// before anything is done or minRateTime has passed, and for a task of
// neither bytes nor a unit.
func (b *Bar) rate(el time.Duration, done int, bytes int64, pages int) string {
	s := el.Seconds()
	switch {
	case done == 0 || el < minRateTime:
		return ""
	case bytes == 0 && b.ItemUnit == "":
		return ""
	case bytes == 0:
		return fmt.Sprintf("%.1f %s", float64(done)/s, b.ItemUnit)
	}
	rate := fmt.Sprintf("%.1f MB/s", float64(bytes)/s/1e6)
	if pages > 0 {
		unit := b.PageUnit
		if unit == "" {
			unit = "pages/s"
		}
		rate += fmt.Sprintf(", %.0f %s", float64(pages)/s, unit)
	}
	return rate
}

// withRate is rate after a space, or nothing.
func withRate(rate string) string {
	if rate == "" {
		return ""
	}
	return " " + rate
}

// Done ends the bar's line on a terminal.
func (b *Bar) Done() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.tty && b.drawn {
		fmt.Fprint(b.w, "\r\033[K")
	}
}
