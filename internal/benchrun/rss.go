package benchrun

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// PeakRSS is the process's highest resident set size so far, in bytes
// (VmHWM in /proc/self/status); false where the system does not say.
func PeakRSS() (int64, bool) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:")
		if !ok {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
		if err != nil || kb <= 0 {
			return 0, false
		}
		return kb << 10, true
	}
	return 0, false
}

// ResetPeakRSS brings the peak back to the current resident set size
// where the system allows it (Linux 4.0 on), so that PeakRSS measures
// what comes next; it says whether it did.
func ResetPeakRSS() bool {
	return os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
}
