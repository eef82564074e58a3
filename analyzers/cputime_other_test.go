//go:build !unix

package analyzers_test

// cpuTime is not measured here: the benchmark reports 0 CPU time.
func cpuTime() int64 { return 0 }
