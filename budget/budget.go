package budget

import (
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"
)

// Defaults of the zero Budget, which sizes itself from the traffic it sees.
const (
	// DefaultRetryRatio is the share of successful first tries that may be
	// retried: the seed's 10%.
	DefaultRetryRatio = 0.1
	// DefaultBudgetWindow is how long a success keeps earning: short, so
	// that an outage starves retries within about a second whatever the
	// request rate.
	DefaultBudgetWindow = time.Second
	// DefaultMinRetryRate is how many retries per second a Budget allows
	// that its traffic did not earn, so that a quiet client can still retry
	// now and then: one every 5 s. It is per process, so it is small: with
	// Finagle's 10 a second the seed's 400 pods send 4000 retries a second
	// into an outage and the fleet latches, and one a second per pod
	// delays its recovery from 2.5 s to 2.8 s (retrystorm -min-retry-rate;
	// see budget/README.md). The first unearned retry of a Budget that has
	// not granted one yet is allowed at once, whatever the rate.
	DefaultMinRetryRate = 0.2
)

// The numbers of gRPC retry throttling (gRFC A6), the Budget GRPCBudget and
// NewBudget return.
const (
	// DefaultMaxTokens is gRFC A6's bucket size as the seed sizes it.
	DefaultMaxTokens = 1000
	// DefaultTokenRatio is what each success gives back to such a bucket.
	DefaultTokenRatio = 0.1
	// MaxBudgetTokens is the largest maxTokens NewBudget accepts, as in
	// gRFC A6.
	MaxBudgetTokens = 1000
)

// milli is the fixed-point scale of a token bucket: one token is 1000
// milli-tokens, which is the 3-decimal precision gRFC A6 allows for
// tokenRatio.
const milli = 1000

// budgetSlices is how many slices an adaptive Budget's window is cut into.
const budgetSlices = 10

// RetryBudget is what Do and Transport consult before a retry and tell
// about every attempt's outcome: *Budget and *RatioBudget implement it. A
// circuit breaker is not one (it has no Stats): pass a *Breaker with
// WithBreaker, where it is asked before every attempt, the first included.
//
// Allow means the same for both: true grants one retry, about to be sent,
// and counts it in Stats as a retry (a RatioBudget also takes it from its
// share); false counts a denial. Do and Transport ask just before sending,
// after any wait and after the breaker let the attempt through, so only
// retries that were sent are counted.
//
// Implementations must be safe for concurrent use: one RetryBudget is
// shared by every call to a dependency.
type RetryBudget interface {
	// Allow reports whether a retry may be sent now, and counts it.
	Allow() bool
	// Record reports the outcome of one attempt: nil for success.
	Record(err error)
	// Stats returns the counters.
	Stats() Stats
}

// Limiter is the old name of RetryBudget.
//
// Deprecated: use RetryBudget; it reads less like rate.Limiter.
type Limiter = RetryBudget

// DefaultBudget is the process-wide Budget that Do and DoValue consult when
// neither WithBudget nor WithName is given. It is a zero Budget, so it sizes
// itself from the traffic, but it is shared by every such call in the
// process: one failing dependency then starves retries to the others. Give
// each dependency its own budget, with WithName or WithBudget.
var DefaultBudget = new(Budget)

// Budget is a client-side retry budget: it lets retries be at most a small
// share of the traffic, so that when a dependency stalls its callers add a
// bounded trickle of retries instead of multiplying the load.
//
// The zero Budget sizes itself from the traffic it sees, so that it bites
// at any request rate: a retry is allowed while the retries granted in the
// last second are fewer than 10% of the first tries that succeeded in it,
// plus one retry every 5 s that the traffic need not have earned. Only
// first tries earn: the outcome of a granted retry is recorded but earns
// nothing. For a process sending 17 requests a second (one pod of 400 in
// the seed's drill) that is at most 1–2 retries a second while it is
// healthy; when the dependency stalls the successes stop, and a second
// later so do the retries, but for the one every 5 s. A process sending
// 50 000 a second may retry 5 000 a second, and a second after an outage it
// too is down to the floor. So the budget bites within about a second at
// any rate, which a fixed bucket cannot: gRPC's 1000 tokens need 500
// failures, 30 s of a 17/s pod's traffic. NewAdaptiveBudget sets the ratio,
// the window and the floor.
//
// GRPCBudget and NewBudget return the other kind, a token bucket with the
// semantics of gRPC retry throttling (gRFC A6): it starts full with
// maxTokens (1000), each failed attempt takes one token, each success gives
// back tokenRatio (0.1), and a retry is allowed only while more than
// maxTokens/2 tokens remain. Its burst is fixed: 500 failures before it
// bites, which a process with little traffic never reaches during a short
// stall. Size maxTokens for the traffic that shares it.
//
// Allow grants one retry about to be sent and counts it; Record reports
// every attempt's outcome. The …At methods take the time, for callers that
// manage the clock (only the adaptive kind reads it).
//
// A Budget is safe for concurrent use by any number of goroutines and does
// not allocate. The adaptive kind takes a mutex per call; the token bucket
// is one atomic word changed by compare-and-swap. A Budget must not be
// copied after first use.
type Budget struct {
	// Token bucket (NewBudget, GRPCBudget): maxMilli > 0.
	maxMilli   int64
	ratioMilli int64
	spent      atomic.Int64 // milli-tokens missing from a full bucket

	// Adaptive (the zero value, NewAdaptiveBudget); zeros mean the defaults.
	ratio     float64
	window    time.Duration
	freeEvery time.Duration // < 0: no floor
	mu        sync.Mutex
	slices    [budgetSlices]budgetSlice
	pending   uint64    // granted retries whose outcome is not recorded yet
	lastFree  time.Time // when the floor last granted a retry

	requests, failures, allowed, denied atomic.Uint64
}

type budgetSlice struct {
	epoch     int64
	earned    uint64 // successful first tries
	retries   uint64 // retries granted from the earned share
	free      uint64 // retries granted from the floor
	populated bool
}

// GRPCBudget returns a full token-bucket Budget with gRPC's retry
// throttling numbers as the seed sizes them: maxTokens 1000, tokenRatio
// 0.1. It is NewBudget(1000, 0.1).
func GRPCBudget() *Budget {
	return &Budget{maxMilli: DefaultMaxTokens * milli, ratioMilli: DefaultTokenRatio * milli}
}

// NewBudget returns a full token-bucket Budget (gRFC A6) holding maxTokens
// tokens, to which every success gives back tokenRatio tokens. Both are kept
// to 3 decimal places (milli-tokens), as in gRFC A6.
//
// NewBudget returns an error naming the parameter, and no Budget, when
// maxTokens or tokenRatio is NaN, infinite, zero or negative or rounds to
// less than 0.001, or when maxTokens exceeds 1000, the limit gRFC A6 sets
// (tokenRatio has no upper limit). It never clamps a bad value into range.
func NewBudget(maxTokens, tokenRatio float64) (*Budget, error) {
	maxMilli, err := milliTokens("maxTokens", maxTokens, MaxBudgetTokens)
	if err != nil {
		return nil, err
	}
	ratioMilli, err := milliTokens("tokenRatio", tokenRatio, math.MaxInt32)
	if err != nil {
		return nil, err
	}
	return &Budget{maxMilli: maxMilli, ratioMilli: ratioMilli}, nil
}

// NewAdaptiveBudget returns a Budget that allows retries up to ratio of the
// first tries that succeeded in the last window, plus minPerSecond retries
// a second that the traffic did not earn (granted at most one per
// 1/minPerSecond). The zero Budget is NewAdaptiveBudget(0.1, 0.2,
// time.Second).
//
// It returns an error naming the parameter when ratio is not in (0, 1],
// when minPerSecond is negative, NaN or infinite, or when window is outside
// [100ms, 60s].
func NewAdaptiveBudget(ratio, minPerSecond float64, window time.Duration) (*Budget, error) {
	switch {
	case !(ratio > 0 && ratio <= 1):
		return nil, fmt.Errorf("budget: invalid ratio %v: must be in (0, 1]", ratio)
	case math.IsNaN(minPerSecond) || math.IsInf(minPerSecond, 0) || minPerSecond < 0:
		return nil, fmt.Errorf("budget: invalid minPerSecond %v: must be a finite number >= 0", minPerSecond)
	case window < 100*time.Millisecond || window > time.Minute:
		return nil, fmt.Errorf("budget: invalid window %v: must be in [100ms, 60s]", window)
	}
	every := time.Duration(-1)
	if minPerSecond > 0 {
		every = time.Duration(float64(time.Second) / minPerSecond)
		if every <= 0 {
			every = 1
		}
	}
	return &Budget{ratio: ratio, window: window, freeEvery: every}, nil
}

// milliTokens converts a token count to milli-tokens, or says why it cannot.
func milliTokens(name string, v, limit float64) (int64, error) {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return 0, fmt.Errorf("budget: invalid %s %v: must be a finite number", name, v)
	case v <= 0:
		return 0, fmt.Errorf("budget: invalid %s %v: must be positive", name, v)
	case v > limit:
		return 0, fmt.Errorf("budget: invalid %s %v: must not exceed %g", name, v, limit)
	}
	m := int64(math.Round(v * milli))
	if m < 1 {
		return 0, fmt.Errorf("budget: invalid %s %v: below the resolution of 0.001 tokens", name, v)
	}
	return m, nil
}

// bucket reports whether b is a token bucket rather than adaptive.
func (b *Budget) bucket() bool { return b.maxMilli != 0 }

func (b *Budget) params() (ratio float64, window, every time.Duration) {
	ratio, window, every = b.ratio, b.window, b.freeEvery
	if ratio == 0 {
		ratio = DefaultRetryRatio
	}
	if window == 0 {
		window = DefaultBudgetWindow
	}
	if every == 0 {
		every = time.Duration(float64(time.Second) / DefaultMinRetryRate)
	}
	return ratio, window, every
}

// Allow reports whether a retry may be sent now, and counts it in Stats as
// a retry allowed or denied: call it once for each retry you are about to
// send, not to poll. It is AllowAt(time.Now()).
func (b *Budget) Allow() bool { return b.AllowAt(b.now()) }

// now returns the time for the adaptive kind, and the zero time for a
// token bucket, which never reads it: the clock costs more than the
// bucket's whole decision.
func (b *Budget) now() time.Time {
	if b.bucket() {
		return time.Time{}
	}
	return time.Now()
}

// AllowAt is Allow at the time now.
func (b *Budget) AllowAt(now time.Time) bool {
	var ok bool
	if b.bucket() {
		ok = b.bucketAllows()
	} else {
		ok = b.grant(now, true)
	}
	if ok {
		b.allowed.Add(1)
	} else {
		b.denied.Add(1)
	}
	return ok
}

// peekRetry is Allow without counting or spending a grant; a denial is
// counted.
func (b *Budget) peekRetry() bool {
	var ok bool
	if b.bucket() {
		ok = b.bucketAllows()
	} else {
		ok = b.grant(time.Now(), false)
	}
	if !ok {
		b.denied.Add(1)
	}
	return ok
}

// bucketAllows reports whether more than half of maxTokens remain.
func (b *Budget) bucketAllows() bool {
	full := b.maxMilli
	// tokens > max/2, in integers without rounding: 2*(max-spent) > max.
	return 2*(full-b.spent.Load()) > full
}

// grant decides a retry of the adaptive kind, taking it when take is set.
func (b *Budget) grant(now time.Time, take bool) bool {
	ratio, window, every := b.params()
	b.mu.Lock()
	defer b.mu.Unlock()
	earned, retries, _ := b.countLocked(now, window)
	if float64(retries)+1 <= ratio*float64(earned) {
		if take {
			b.slice(now, window).retries++
			b.pending++
		}
		return true
	}
	if every > 0 && (b.lastFree.IsZero() || now.Sub(b.lastFree) >= every || now.Before(b.lastFree)) {
		if take {
			b.slice(now, window).free++
			b.lastFree = now
			b.pending++
		}
		return true
	}
	return false
}

// RecordSuccess reports a successful attempt. It is Record(nil).
func (b *Budget) RecordSuccess() { b.RecordAt(b.now(), nil) }

// RecordFailure reports a failed attempt that may be retried.
func (b *Budget) RecordFailure() { b.RecordAt(b.now(), errFailure) }

// Record reports the outcome of one attempt: nil for success. It is
// RecordAt(time.Now(), err).
//
// An error marked with Permanent is counted as a failed request but
// changes nothing else: as in gRFC A6, only failures that would be retried
// drain a token bucket, so a caller's own bad requests cannot starve its
// retries. In an adaptive Budget a success earns retry share unless it is
// the outcome of a granted retry (as many outcomes as retries were granted
// in the window are taken for theirs, in whatever order they arrive).
func (b *Budget) Record(err error) { b.RecordAt(b.now(), err) }

// RecordAt is Record at the time now.
func (b *Budget) RecordAt(now time.Time, err error) {
	b.requests.Add(1)
	if err != nil {
		b.failures.Add(1)
	}
	if b.bucket() {
		switch {
		case err == nil:
			b.bucketAdd(-b.ratioMilli)
		case !isPermanent(err):
			b.bucketAdd(milli)
		}
		return
	}
	_, window, _ := b.params()
	b.mu.Lock()
	defer b.mu.Unlock()
	_, retries, free := b.countLocked(now, window)
	b.pending = min(b.pending, retries+free)
	if b.pending > 0 {
		b.pending--
		return
	}
	if err == nil {
		b.slice(now, window).earned++
	}
}

// bucketAdd adds d milli-tokens to what a token bucket is missing, within
// [0, maxTokens].
func (b *Budget) bucketAdd(d int64) {
	for {
		old := b.spent.Load()
		n := min(max(old+d, 0), b.maxMilli)
		if n == old || b.spent.CompareAndSwap(old, n) {
			return
		}
	}
}

func (b *Budget) epoch(now time.Time, window time.Duration) int64 {
	return now.UnixNano() / int64(window/budgetSlices)
}

func (b *Budget) slice(now time.Time, window time.Duration) *budgetSlice {
	e := b.epoch(now, window)
	s := &b.slices[uint64(e)%budgetSlices]
	if !s.populated || s.epoch != e {
		*s = budgetSlice{epoch: e, populated: true}
	}
	return s
}

func (b *Budget) countLocked(now time.Time, window time.Duration) (earned, retries, free uint64) {
	e := b.epoch(now, window)
	for i := range b.slices {
		s := &b.slices[i]
		if s.populated && s.epoch <= e && s.epoch > e-budgetSlices {
			earned += s.earned
			retries += s.retries
			free += s.free
		}
	}
	return earned, retries, free
}

// Tokens returns, for a token bucket, how many tokens it holds now, between
// 0 and maxTokens. For an adaptive Budget it returns how many retries it
// would grant now from what the traffic earned, not counting the floor.
// It is TokensAt(time.Now()).
func (b *Budget) Tokens() float64 { return b.TokensAt(time.Now()) }

// TokensAt is Tokens at the time now.
func (b *Budget) TokensAt(now time.Time) float64 {
	if b.bucket() {
		return float64(b.maxMilli-b.spent.Load()) / milli
	}
	ratio, window, _ := b.params()
	b.mu.Lock()
	defer b.mu.Unlock()
	earned, retries, _ := b.countLocked(now, window)
	return max(math.Floor(ratio*float64(earned))-float64(retries), 0)
}

// MaxTokens returns the size of a token bucket, and 0 for an adaptive
// Budget, which has no fixed size.
func (b *Budget) MaxTokens() float64 { return float64(b.maxMilli) / milli }

// TokenRatio returns what each success gives back to a token bucket, or the
// retry ratio of an adaptive Budget.
func (b *Budget) TokenRatio() float64 {
	if b.bucket() {
		return float64(b.ratioMilli) / milli
	}
	r, _, _ := b.params()
	return r
}

// Stats returns the counters. Each is read atomically, but not all at once,
// so under concurrent use they may be a few events apart from each other.
func (b *Budget) Stats() Stats {
	return Stats{
		Requests:       b.requests.Load(),
		Failures:       b.failures.Load(),
		RetriesAllowed: b.allowed.Load(),
		RetriesDenied:  b.denied.Load(),
	}
}

// Stats are the counters of a Budget or RatioBudget since it was created.
type Stats struct {
	// Requests counts the attempt outcomes recorded: first attempts and
	// retries, successes and failures.
	Requests uint64
	// Failures counts the recorded outcomes that were errors.
	Failures uint64
	// RetriesAllowed counts the calls to Allow that returned true.
	RetriesAllowed uint64
	// RetriesDenied counts the calls to Allow that returned false: retries
	// the budget saved the dependency from.
	RetriesDenied uint64
}

// RetryRatio returns RetriesAllowed / Requests: the share of the traffic that
// was retries, when Allow is called once before every retry and every
// attempt is recorded, as Do and Transport do. It is the retry-amplification
// SLI: near tokenRatio (10%) in a healthy fleet; alarm when it stays above
// about 20%. It returns 0 before any request is recorded.
func (s Stats) RetryRatio() float64 {
	if s.Requests == 0 {
		return 0
	}
	return float64(s.RetriesAllowed) / float64(s.Requests)
}

// String formats the counters for logs.
func (s Stats) String() string {
	return fmt.Sprintf("requests=%d failures=%d retries_allowed=%d retries_denied=%d retry_ratio=%.3f",
		s.Requests, s.Failures, s.RetriesAllowed, s.RetriesDenied, s.RetryRatio())
}

// isPermanent reports whether err, or an error it wraps, was marked with
// Permanent. It walks the chain by hand rather than with errors.As, which
// would allocate on the failure path of Record.
func isPermanent(err error) bool {
	for err != nil {
		switch e := err.(type) {
		case *permanentError:
			return true
		case interface{ Unwrap() error }:
			err = e.Unwrap()
		case interface{ Unwrap() []error }:
			for _, inner := range e.Unwrap() {
				if isPermanent(inner) {
					return true
				}
			}
			return false
		default:
			return false
		}
	}
	return false
}

var errFailure = fmt.Errorf("budget: failure")
