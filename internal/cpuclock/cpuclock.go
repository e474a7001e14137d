// Package cpuclock reads the CPU time this process has used, for
// benchmarks on a shared machine, where wall time depends on the
// neighbours' load and CPU time does not.
package cpuclock
