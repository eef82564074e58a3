package budget

import "time"

// What the tests read of a TokenBucket's parameters.
func (b *TokenBucket) maxTokens() float64  { return float64(b.size()) / milli }
func (b *TokenBucket) tokenRatio() float64 { return float64(b.refill()) / milli }

// The clock-taking core of an Adaptive, for tests that set the time: the
// core reads the clock given when it chooses to, as Allow and Record
// read time.Now.
func (b *Adaptive) allowAt(now time.Time) bool        { return b.c.Allow(at(now)) }
func (b *Adaptive) recordAt(now time.Time, err error) { b.c.Record(at(now), err) }
func (b *Adaptive) tokensAt(now time.Time) float64    { return b.c.Tokens(at(now)) }

// at returns a clock that reads now.
func at(now time.Time) func() time.Time { return func() time.Time { return now } }
