package ingest

import "syscall"

// statTimes are the modification and change times of a file's stat.
func statTimes(st *syscall.Stat_t) (mod, change syscall.Timespec) {
	return st.Mtimespec, st.Ctimespec
}
