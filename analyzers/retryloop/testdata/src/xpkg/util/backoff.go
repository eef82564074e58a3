package util

import (
	"math/rand/v2"
	"time"
)

// Backoff is a counter of attempts: Duration doubles from Initial, and
// adds up to Jitter at random only when Jitter is set.
type Backoff struct {
	attempts int
	Initial  time.Duration
	Jitter   time.Duration
	Max      time.Duration
}

func (b *Backoff) Duration() (dur time.Duration) {
	if b.Initial == 0 {
		b.Initial = 100 * time.Millisecond
	}
	if m := int64(1) << uint(b.attempts); m > 0 {
		dur = time.Duration(m * b.Initial.Nanoseconds())
	}
	if dur <= 0 || dur > b.Max {
		dur = b.Max
	}
	if b.Jitter > 0 {
		dur += rand.N(b.Jitter)
	}
	b.attempts++
	return dur
}

// Attempts is how many delays were drawn.
func (b *Backoff) Attempts() int { return b.attempts }
