package index

import "strconv"

// jsonIDs writes ids as a JSON array, for json_each: a statement of one
// parameter is parsed and bound at once, where one with a parameter per id
// (80 to 1,280 of them at every keyword search) was parsed and bound anew
// each time.
func jsonIDs(ids []int64) string {
	b := make([]byte, 0, 2+8*len(ids))
	b = append(b, '[')
	for i, id := range ids {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, id, 10)
	}
	return string(append(b, ']'))
}
