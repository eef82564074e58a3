// Package util holds small helpers another package's retry loops use.
package util

import (
	"math/rand/v2"
	"sync/atomic"
	"time"
)

// Rand returns a random int in [0, n): a random source through a fact.
func Rand(n int) int { return rand.IntN(n) }

// Half returns n/2: no randomness.
func Half(n int) int { return n / 2 }

// SleepSteps sleeps out d in short steps, looking at a stop flag between
// them: a wait of d.
func SleepSteps(stop *uint32, d time.Duration) {
	const step = 20 * time.Millisecond
	for d > 0 && atomic.LoadUint32(stop) == 0 {
		s := min(step, d)
		time.Sleep(s)
		d -= s
	}
}

// Drain calls f until it stops failing: it is not a wait.
func Drain(d time.Duration, f func() error) {
	for d > 0 {
		if f() == nil {
			return
		}
		d -= time.Millisecond
	}
}
