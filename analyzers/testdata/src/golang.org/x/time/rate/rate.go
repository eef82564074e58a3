// Package rate is a minimal stand-in of golang.org/x/time/rate for GOPATH-mode analysistest
// (only the identity of the type and methods matters to the analyzers).
package rate

import "context"

type Limiter struct{}

func (l *Limiter) Allow() bool                    { return true }
func (l *Limiter) Wait(ctx context.Context) error { return nil }
