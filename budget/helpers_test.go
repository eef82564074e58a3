package budget

import "time"

// What the tests read of a TokenBucket's parameters.
func (b *TokenBucket) maxTokens() float64  { return float64(b.size()) / milli }
func (b *TokenBucket) tokenRatio() float64 { return float64(b.refill()) / milli }

// The clock-taking core of an Adaptive, for tests that set the time.
func (b *Adaptive) allowAt(now time.Time) bool        { return b.c.AllowAt(now) }
func (b *Adaptive) recordAt(now time.Time, err error) { b.c.RecordAt(now, err) }
func (b *Adaptive) tokensAt(now time.Time) float64    { return b.c.TokensAt(now) }
