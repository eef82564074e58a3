// Package lim is a home-grown retry limiter that retrylint cannot know:
// it counts as a budget check only when named in
// -retrybudget.budget-funcs.
package lim

import "sync/atomic"

// Limiter lets a retry through while tokens remain.
type Limiter struct{ tokens atomic.Int64 }

// Permit reports whether a retry may go ahead.
func (l *Limiter) Permit() bool { return l.tokens.Add(-1) >= 0 }
