package fuse

import (
	"fmt"
	"testing"
)

func TestSpreadGivesEachUnitASlotFirst(t *testing.T) {
	units := map[int64]string{1: "s3", 2: "s3", 3: "fNPCs/x.md", 4: "s7", 5: "fNPCs/x.md", 6: "s3", 7: "s9"}
	var cands []Candidate
	for id := int64(1); id <= 7; id++ {
		cands = append(cands, Candidate{ID: id})
	}
	got := Spread(cands, func(id int64) string { return units[id] })
	var ids []int64
	for _, c := range got {
		ids = append(ids, c.ID)
	}
	if fmt.Sprint(ids) != "[1 3 4 7 2 5 6]" {
		t.Errorf("spread order %v, want [1 3 4 7 2 5 6]", ids)
	}
}
