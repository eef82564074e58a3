// Package cgo is a fixture: a cgo file, which fixes must never edit (its
// offsets are those of the file cgo writes), and a generated file.
package cgo

// static int two(void) { return 2; }
import "C"

import "time"

// Two sleeps, then asks C.
func Two() int {
	time.Sleep(time.Second)
	return int(C.two())
}
