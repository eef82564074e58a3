// Package budget stands in for the bundled library in GOPATH-mode tests
// (the fix tests compile the results against the real module).
package budget

type Adaptive struct{}

func (b *Adaptive) Allow() bool      { return true }
func (b *Adaptive) Record(err error) {}
func (b *Adaptive) RecordFailure()   {}
