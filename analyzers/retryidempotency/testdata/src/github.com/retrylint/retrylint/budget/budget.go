// Package budget stands in for the bundled library in GOPATH-mode tests
// (the fix tests compile the results against the real module).
package budget

func NewIdempotencyKey() string { return "k" }
