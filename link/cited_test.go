package link

import (
	"reflect"
	"testing"
)

func TestSentencesWhereWritten(t *testing.T) {
	passage := "El Sr. Vesper llegó a\nPuerto Niebla.\n\nNadie lo esperaba. Se fue de noche."
	sents := Sentences(passage)
	var got []string
	for _, s := range sents {
		if passage[s.Start:s.End] == "" {
			t.Fatalf("sentence %q has an empty span", s.Text)
		}
		got = append(got, passage[s.Start:s.End])
	}
	want := []string{"El Sr. Vesper llegó a\nPuerto Niebla.", "Nadie lo esperaba.", "Se fue de noche."}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("spans = %q, want %q", got, want)
	}
	if paras := []int{sents[0].Para, sents[1].Para, sents[2].Para}; !reflect.DeepEqual(paras, []int{0, 1, 1}) {
		t.Errorf("paragraphs = %v, want [0 1 1]", paras)
	}
}

func TestCitedMarksTheSentenceSharingMostWords(t *testing.T) {
	sents := Sentences("Vesper llegó a Puerto Niebla. Vesper compró una espada plateada en Puerto Niebla. Nadie lo vio.")
	cases := []struct {
		claims []string
		want   map[int]bool
	}{
		{[]string{"Vesper compró una espada en Puerto Niebla"}, map[int]bool{1: true}},
		// A tie goes to the first sentence.
		{[]string{"Vesper estuvo en Niebla"}, map[int]bool{0: true}},
		{[]string{""}, map[int]bool{}},
		{[]string{"el dragón rojo"}, map[int]bool{}},
		{[]string{"compró espada", "nadie vio"}, map[int]bool{1: true, 2: true}},
	}
	for _, c := range cases {
		if got := Cited(sents, c.claims); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Cited(%q) = %v, want %v", c.claims, got, c.want)
		}
	}
}
