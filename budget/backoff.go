package budget

import (
	"context"
	"math"
	"math/rand/v2"
	"time"
)

// Defaults of a zero Backoff, from the AWS "Exponential Backoff And Jitter"
// analysis as the seed pattern sizes it.
const (
	// DefaultBase is the ceiling of the first retry's delay.
	DefaultBase = 100 * time.Millisecond
	// DefaultCap is the largest ceiling any delay can have.
	DefaultCap = 10 * time.Second
)

// JitterMode selects how a Backoff randomises its delays.
type JitterMode int

const (
	// FullJitter waits a uniform random time in [0, min(Cap, Base·2ⁿ)). It
	// is the default because it spreads the retries of clients that failed
	// together the most, for the least total work.
	FullJitter JitterMode = iota
	// EqualJitter waits half the ceiling plus a uniform random time in the
	// other half: never less than min(Cap, Base·2ⁿ)/2.
	EqualJitter
	// DecorrelatedJitter waits min(Cap, uniform[Base, 3·previous)), with the
	// previous delay starting at Base: each delay grows from the last one
	// drawn rather than from the retry number.
	DecorrelatedJitter
	// NoJitter waits exactly min(Cap, Base·2ⁿ). Clients that failed at the
	// same instant then retry at the same instants and hit the recovering
	// dependency in waves; choose it only where a single client retries
	// (tests, a lone batch job).
	NoJitter
)

// Backoff is an exponential backoff policy. It is a value that is never
// changed once built, so one Backoff may be shared by any number of
// goroutines; the per-call state lives in the Sequence that Start returns.
//
// The zero value is full jitter with Base 100ms and Cap 10s: the delay before
// retry n (0-based) is uniform in [0, min(10s, 100ms·2ⁿ)).
type Backoff struct {
	// Base is the ceiling of the first retry's delay; zero or negative
	// means DefaultBase (100ms).
	Base time.Duration
	// Cap bounds every delay; zero or negative means DefaultCap (10s). A
	// Cap below Base bounds the delays to Cap.
	Cap time.Duration
	// Jitter selects the randomisation; the zero value is FullJitter.
	// Unknown modes behave as FullJitter.
	Jitter JitterMode
	// Rand returns a uniform random number in [0, 1). Nil means the
	// goroutine-safe generator of math/rand/v2. Inject one to make delays
	// deterministic in tests; it must be safe for concurrent use if the
	// Backoff is shared. Values outside [0, 1) are brought into range so a
	// delay never leaves its interval.
	Rand func() float64
}

func (b Backoff) base() time.Duration {
	if b.Base <= 0 {
		return DefaultBase
	}
	return b.Base
}

func (b Backoff) cap() time.Duration {
	if b.Cap <= 0 {
		return DefaultCap
	}
	return b.Cap
}

func (b Backoff) rand() float64 {
	if b.Rand != nil {
		return b.Rand()
	}
	return rand.Float64()
}

// ceiling returns min(limit, base·mult^n) without overflowing, for positive
// base and limit.
func ceiling(base, limit time.Duration, mult int64, n int) time.Duration {
	if n < 0 {
		n = 0
	}
	d := base
	for i := 0; i < n; i++ {
		if d > limit/time.Duration(mult) {
			return limit
		}
		d *= time.Duration(mult)
	}
	if d > limit {
		return limit
	}
	return d
}

// uniform returns lo + r·(hi-lo), kept inside [lo, hi) when hi > lo, and lo
// otherwise.
func uniform(r float64, lo, hi time.Duration) time.Duration {
	if hi <= lo {
		return lo
	}
	if !(r > 0) { // also NaN
		return lo
	}
	span := hi - lo
	if span < 0 { // hi-lo overflowed
		span = math.MaxInt64
	}
	d := time.Duration(r * float64(span))
	if d >= span || d < 0 {
		d = span - 1
	}
	return lo + d
}

// Delay returns the delay before retry number retry, counted from 0 for the
// first retry; a negative retry counts as 0. With FullJitter it is uniform in
// [0, min(Cap, Base·2^retry)). It never overflows, however large retry is.
//
// With DecorrelatedJitter, which depends on the previous delay, Delay draws
// from the widest range that retry could reach, uniform[Base, Base·3^(retry+1))
// capped at Cap; use Start for the true sequence.
//
// Delay is safe for concurrent use when Rand is.
func (b Backoff) Delay(retry int) time.Duration {
	base, limit := b.base(), b.cap()
	if base > limit {
		base = limit
	}
	switch b.Jitter {
	case NoJitter:
		return ceiling(base, limit, 2, retry)
	case EqualJitter:
		c := ceiling(base, limit, 2, retry)
		half := c / 2
		return half + uniform(b.rand(), 0, c-half)
	case DecorrelatedJitter:
		if retry < 0 {
			retry = 0
		}
		hi := ceiling(base, limit, 3, retry+1)
		d := uniform(b.rand(), base, hi)
		if d > limit {
			d = limit
		}
		return d
	default:
		return uniform(b.rand(), 0, ceiling(base, limit, 2, retry))
	}
}

// Start returns a new Sequence of delays for one call. It allocates; keep
// one Sequence per call, not per attempt.
func (b Backoff) Start() *Sequence {
	return &Sequence{policy: b}
}

// Sequence is the per-call state of a Backoff: the delays of one call's
// retries, in order. It is not safe for concurrent use; each call needs its
// own, from Backoff.Start.
type Sequence struct {
	policy Backoff
	n      int
	prev   time.Duration
}

// Next returns the delay before the next retry and advances the sequence.
// The first call returns the delay before the first retry.
func (s *Sequence) Next() time.Duration {
	n := s.n
	if s.n < math.MaxInt32 {
		s.n++
	}
	if s.policy.Jitter != DecorrelatedJitter {
		return s.policy.Delay(n)
	}
	base, limit := s.policy.base(), s.policy.cap()
	if base > limit {
		base = limit
	}
	prev := s.prev
	if prev < base {
		prev = base
	}
	hi := time.Duration(math.MaxInt64)
	if prev <= math.MaxInt64/3 {
		hi = 3 * prev
	}
	d := uniform(s.policy.rand(), base, hi)
	if d > limit {
		d = limit
	}
	s.prev = d
	return d
}

// Jitter returns a uniform random duration in [0, d): full jitter of one
// delay, so that clients that would wait d together do not wake together. It
// returns 0 when d is zero or negative. It is safe for concurrent use.
func Jitter(d time.Duration) time.Duration {
	return uniform(rand.Float64(), 0, d)
}

// Sleep waits for d or until ctx is done, whichever comes first, with a timer
// raced against ctx.Done() and stopped on return. It returns nil after the
// full wait and ctx.Err() if ctx ended first.
//
// Sleep does not start a wait that cannot finish: when ctx has a deadline
// before the wait would end, it returns context.DeadlineExceeded at once. When
// ctx is already done it returns ctx.Err() at once, even for d <= 0.
func Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if d <= 0 {
		return nil
	}
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) < d {
		return context.DeadlineExceeded
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
