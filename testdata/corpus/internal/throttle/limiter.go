// Package throttle is an in-house token bucket, shaped like
// golang.org/x/time/rate, named to retrylint with
// -retrybudget.budget-funcs.
package throttle

import (
	"sync"
	"time"
)

// Limiter refills rate tokens per second up to burst.
type Limiter struct {
	mu     sync.Mutex
	rate   float64
	burst  float64
	tokens float64
	last   time.Time
}

// New returns a full limiter.
func New(rate float64, burst int) *Limiter {
	return &Limiter{rate: rate, burst: float64(burst), tokens: float64(burst), last: time.Now()}
}

// Allow takes a token if one is available.
func (l *Limiter) Allow() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	l.tokens = min(l.burst, l.tokens+now.Sub(l.last).Seconds()*l.rate)
	l.last = now
	if l.tokens < 1 {
		return false
	}
	l.tokens--
	return true
}
