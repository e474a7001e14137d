package link

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// notes is a resolver over a fixed set of names, as a role sees them.
func notes(names map[string]string) Resolver {
	return func(_ context.Context, target string) (string, bool, error) {
		if target == "roto" {
			return "", false, errors.New("the index is closed")
		}
		file, ok := names[strings.ToLower(target)]
		return file, ok, nil
	}
}

func TestRenderResolvedLinksOnlyWhatResolves(t *testing.T) {
	resolve := notes(map[string]string{"harbin": "NPCs/Harbin.md"})
	md := "Vimos a [[Harbin|el alcalde]] y a [[Vesper]]; ver [[#Más abajo]] y [[roto]]."
	got := RenderResolved(context.Background(), md, resolve, func(shown, file string) string {
		return "<" + shown + "→" + file + ">"
	})
	want := "Vimos a <el alcalde→NPCs/Harbin.md> y a Vesper; ver Más abajo y roto."
	if got != want {
		t.Fatalf("RenderResolved = %q, want %q", got, want)
	}
	if plain := Render(md); plain != "Vimos a el alcalde y a Vesper; ver Más abajo y roto." {
		t.Errorf("Render = %q", plain)
	}
}

func TestWikilinkFiles(t *testing.T) {
	resolve := notes(map[string]string{"harbin": "NPCs/Harbin.md", "phandalin": "Lugares/Phandalin.md"})
	got, err := WikilinkFiles(context.Background(), resolve, "[[Harbin]] en [[Phandalin#Plaza]]", "otra vez [[Harbin]] y [[Nadie]]")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"Harbin": "NPCs/Harbin.md", "Phandalin": "Lugares/Phandalin.md"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("WikilinkFiles = %v, want %v", got, want)
	}
	if _, err := WikilinkFiles(context.Background(), resolve, "[[roto]]"); err == nil {
		t.Error("a resolver's error was not returned")
	}
}
