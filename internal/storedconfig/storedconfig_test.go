package storedconfig

import (
	"context"
	"errors"
	"testing"
)

type config struct {
	Provider, Model, Key string
	Dims                 int
}

func (c *config) fields() Fields {
	return Fields{"p": &c.Provider, "m": &c.Model, "d": &c.Dims}
}

// failing is Settings that cannot be read.
type failing struct{ Map }

func (failing) Meta(context.Context, string) (string, error) { return "", errors.New("disk") }

// TestResolve: what Write keeps, Resolve reads back into a config that
// names no provider, keeping the fields no index keeps; a config that
// names one is left as it is, and an unset size reads as 0.
func TestResolve(t *testing.T) {
	ctx := context.Background()
	s := Map{}
	saved := config{Provider: "ollama", Model: "m", Key: "secret", Dims: 256}
	if err := Write(ctx, s, saved.fields()); err != nil {
		t.Fatal(err)
	}
	if len(s) != 3 || s["d"] != "256" {
		t.Fatalf("kept %v", s)
	}
	for _, c := range []struct{ local, want config }{
		{config{Key: "k", Dims: 9}, config{Provider: "ollama", Model: "m", Key: "k", Dims: 256}},
		{config{Provider: "none", Dims: 9}, config{Provider: "none", Dims: 9}},
	} {
		got := c.local
		if err := Resolve(ctx, s, got.Provider, got.fields()); err != nil || got != c.want {
			t.Errorf("Resolve(%+v) = %+v, %v; want %+v", c.local, got, err, c.want)
		}
	}
	got := config{Dims: 9}
	if err := Read(ctx, Map{"p": "hashing"}, got.fields()); err != nil || got != (config{Provider: "hashing"}) {
		t.Errorf("Read of an unset size: %+v, %v", got, err)
	}
	if err := Resolve(ctx, failing{}, "", got.fields()); err == nil || err.Error() != "disk" {
		t.Errorf("Resolve over failing settings: %v", err)
	}
}
