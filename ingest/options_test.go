package ingest

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oraculo/oraculo/index"
)

func TestOptionsValidate(t *testing.T) {
	for _, c := range []struct {
		o    Options
		want string // "" for valid
	}{
		{Options{}, ""},
		{Options{Lang: "auto", MaxWords: 200}, ""},
		{Options{Lang: "en", MaxWords: 10, OverlapWords: 9}, ""},
		{Options{OverlapWords: 500}, ""}, // checked against the stored cap
		{Options{Lang: "klingon"}, `or "auto" to recognise each note's language`},
		{Options{MaxWords: -1}, "max words must be at least 1, got -1"},
		{Options{OverlapWords: -1}, "overlap words cannot be negative, got -1"},
		{Options{MaxWords: 10, OverlapWords: 10}, "overlap words must be between 0 and max words - 1 (9), got 10"},
	} {
		err := c.o.Validate()
		if (err == nil) != (c.want == "") || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.o, err, c.want)
		}
	}
}

// TestOptionsSettings: the settings an ingest writes with are the stored
// ones changed by its options, a new cap keeping the seed's ratio of
// overlap, and an overlap the stored cap cannot hold is the ingest's error.
func TestOptionsSettings(t *testing.T) {
	ctx := context.Background()
	m, err := index.Open(ctx, filepath.Join(t.TempDir(), "o.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if err := (Settings{Lang: "en", MaxWords: 300, OverlapWords: 30}).Save(ctx, m); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		o    Options
		want Settings
	}{
		{Options{}, Settings{Lang: "en", MaxWords: 300, OverlapWords: 30}},
		{Options{Lang: LangAuto, MaxWords: 200}, Settings{Lang: LangAuto, MaxWords: 200, OverlapWords: 20}},
		{Options{OverlapWords: 0, OverlapSet: true}, Settings{Lang: "en", MaxWords: 300, OverlapWords: 0}},
	} {
		s, a, err := c.o.Settings(ctx, m)
		if err != nil || s != c.want || a == nil {
			t.Errorf("%+v: %+v, %v, want %+v", c.o, s, err, c.want)
		}
	}
	_, _, err = Options{OverlapWords: 300}.Settings(ctx, m)
	if err == nil || err.Error() != "ingest: overlap words must be between 0 and max words - 1 (299), got 300" {
		t.Errorf("overlap of the cap: %v", err)
	}
}

// TestOptionsLock: a store other than an index file is not locked; an
// ingest that waits for another says so once to the warning sink when
// the options name no one else to tell.
func TestOptionsLock(t *testing.T) {
	release, err := Options{NoWait: true}.Lock(context.Background(), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	release()
	index := filepath.Join(t.TempDir(), "o.db")
	release, err = Options{}.Lock(context.Background(), index, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	ctx, cancel := context.WithTimeout(context.Background(), 3*lockPoll)
	defer cancel()
	var warned []string
	_, err = Options{}.Lock(ctx, index, func(msg string) { warned = append(warned, msg) })
	if !errors.Is(err, context.DeadlineExceeded) || len(warned) != 1 || !strings.HasPrefix(warned[0], "waiting for another ingest of ") {
		t.Errorf("waiting lock: %v, warned %q; want the deadline, warned once", err, warned)
	}
}
