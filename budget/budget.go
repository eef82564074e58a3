package budget

import (
	"errors"
	"fmt"
	"math"
	"sync/atomic"
	"time"

	"github.com/retrylint/retrylint/budget/internal/core"
)

// Defaults of the zero Adaptive, which sizes itself from the traffic it
// sees.
const (
	// DefaultRetryRatio is the share of successful first tries that may be
	// retried: the seed's 10%.
	DefaultRetryRatio = core.DefaultRetryRatio
	// DefaultBudgetWindow is how long a success keeps earning: short, so
	// that an outage starves retries within about a second whatever the
	// request rate.
	DefaultBudgetWindow = core.DefaultBudgetWindow
	// DefaultMinRetryRate is how many retries per second an Adaptive
	// allows that its traffic did not earn, so that a quiet client can
	// still retry now and then: one every 5 s. It is per process, so it is
	// small: with Finagle's 10 a second the seed's 400 pods send 4000
	// retries a second into an outage and the fleet latches, and one a
	// second per pod delays its recovery from 2.5 s to 2.8 s (retrystorm
	// -min-retry-rate; see budget/README.md). The first unearned retry of
	// an Adaptive that has not granted one yet is allowed at once.
	DefaultMinRetryRate = core.DefaultMinRetryRate
)

// The numbers of gRPC retry throttling (gRFC A6): the zero TokenBucket.
const (
	// DefaultMaxTokens is gRFC A6's bucket size as the seed sizes it.
	DefaultMaxTokens = 1000
	// DefaultTokenRatio is what each success gives back to the bucket.
	DefaultTokenRatio = 0.1
	// MaxBudgetTokens is the largest maxTokens NewTokenBucket accepts, as
	// in gRFC A6.
	MaxBudgetTokens = 1000
)

// milli is the fixed-point scale of a token bucket: one token is 1000
// milli-tokens, which is the 3-decimal precision gRFC A6 allows for
// tokenRatio.
const milli = 1000

// RetryBudget is what Do and Transport consult before a retry and tell
// about every attempt's outcome: *Adaptive and *TokenBucket implement it.
// A circuit breaker is not one: pass a *Breaker with WithBreaker, where it
// is asked before every attempt, the first included.
//
// Allow true grants one retry, about to be sent, and counts it in Stats;
// false counts a denial. Do and Transport ask just before sending, after
// any wait and after the breaker let the attempt through, so only retries
// that were sent are counted.
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

// Adaptive is the default retry budget: it holds retries to a share of the
// traffic it sees, so that when a dependency stalls its callers add a
// bounded trickle of retries instead of multiplying the load.
//
// The zero Adaptive is ready to use: a retry is allowed while the retries
// granted in the last second are fewer than 10% of the first tries that
// succeeded in it, plus one retry every 5 s that the traffic need not have
// earned. Only first tries earn: the outcome of a granted retry is
// recorded but earns nothing. For a process sending 17 requests a second
// (one pod of 400 in the seed's drill) that is at most 1–2 retries a second
// while it is healthy; when the dependency stalls the successes stop, and a
// second later so do the retries, but for the one every 5 s. A process
// sending 50 000 a second may retry 5 000 a second, and a second after an
// outage it too is down to the floor. So it bites within about a second at
// any rate, which a fixed bucket (TokenBucket) cannot. NewAdaptive sets the
// ratio, the window and the floor.
//
// An Adaptive is safe for concurrent use by any number of goroutines, does
// not allocate, and takes no lock on its hot path: its counters are atomic
// words, and it reads the clock only now and then (a time.Now costs
// 60–350 ns on a virtual machine, several times the rest of a call). It
// reads it before a call when, since the last reading, a counter has
// passed its stride: the outcomes of one kind, or the denials, that came
// in 1/64 of the window (16 ms by default) at the rate measured last, at
// least 1 and at most 256; or 8 retries granted from the earned share,
// whatever the stride. A grant from the floor always reads it. A
// process that sends fewer than one request per 1/64 of the window has a
// stride of 1 and reads the clock at every call, so it decides exactly as
// if it read it always.
//
// Between readings a call decides on the window as of the last reading,
// and what it counts is dated at that reading. That staleness is bounded
// by the stride, in calls, not in time, and it cuts both ways:
//
//   - a success is dated earlier than it happened, so it leaves the window
//     early: fewer retries, never more;
//   - a denial, and the floor's "not yet", may be a few calls late: fewer
//     retries, never more;
//   - a grant sees the successes of the window as of the last reading,
//     some of which may have left the window since, and is dated earlier
//     than it happened: at most 8 grants, and at most a stride of calls,
//     go between two readings, so after an outage begins at most 8 retries
//     more than an exact count are granted before a reading sees the
//     window as it is. An outage therefore still starves retries within
//     about a window of the last success, but for the floor; a process
//     whose traffic stops and restarts after a pause may make up to a
//     stride of calls (at most 256) on the view from before the pause.
//
// It must not be copied after first use.
type Adaptive struct {
	c core.Adaptive
}

// NewAdaptive returns an Adaptive that allows retries up to ratio of the
// first tries that succeeded in the last window, plus minPerSecond retries
// a second that the traffic did not earn (granted at most one per
// 1/minPerSecond). The zero Adaptive is NewAdaptive(0.1, 0.2, time.Second).
//
// It returns an error naming the parameter, and no budget, when ratio is
// not in (0, 1], when minPerSecond is negative, NaN or infinite, or when
// window is outside [100ms, 60s].
func NewAdaptive(ratio, minPerSecond float64, window time.Duration) (*Adaptive, error) {
	b := new(Adaptive)
	if err := b.c.Init(ratio, minPerSecond, window); err != nil {
		return nil, err
	}
	return b, nil
}

// Allow reports whether a retry may be sent now, and counts it in Stats as
// a retry allowed or denied: call it once for each retry you are about to
// send, not to poll.
func (b *Adaptive) Allow() bool { return b.c.Allow(time.Now) }

// Record reports the outcome of one attempt: nil for success. A success
// earns retry share unless it is the outcome of a granted retry (as many
// outcomes as retries were granted in the window are taken for theirs, in
// whatever order they arrive).
func (b *Adaptive) Record(err error) { b.c.Record(time.Now, err) }

// RecordFailure reports a failed attempt that has no error value, such as
// a response with a 5xx status: it is Record with a non-nil error.
func (b *Adaptive) RecordFailure() { b.c.Record(time.Now, errFailure) }

// Stats returns the counters. Each is read atomically, but not all at once,
// so under concurrent use they may be a few events apart from each other.
func (b *Adaptive) Stats() Stats {
	r, f, a, d := b.c.Counts()
	return Stats{Requests: r, Failures: f, RetriesAllowed: a, RetriesDenied: d}
}

func (b *Adaptive) peekRetry() bool { return b.c.Peek(time.Now) }

// TokenBucket is the retry budget of gRPC retry throttling (gRFC A6): a
// bucket that starts full with maxTokens, from which each failed attempt
// takes one token and to which each success gives back tokenRatio; a retry
// is allowed only while more than maxTokens/2 tokens remain.
//
// The zero TokenBucket is gRPC's as the seed sizes it: maxTokens 1000,
// tokenRatio 0.1. Its burst is fixed, 500 failures before it bites, which a
// process with little traffic never reaches during a short stall: size it
// for the traffic that shares it (one bucket for a whole fleet, or a
// process sending thousands of requests a second), or use Adaptive.
//
// An error marked with Permanent is counted as a failed request but takes
// no token: as in gRFC A6, only failures that would be retried drain the
// bucket, so a caller's own bad requests cannot starve its retries.
//
// A TokenBucket is safe for concurrent use, never reads the clock and does
// not allocate: the bucket is one atomic word changed by compare-and-swap.
// It must not be copied after first use.
type TokenBucket struct {
	maxMilli   int64 // 0: DefaultMaxTokens
	ratioMilli int64 // 0: DefaultTokenRatio
	spent      atomic.Int64

	requests, failures, allowed, denied atomic.Uint64
}

// NewTokenBucket returns a full TokenBucket holding maxTokens tokens, to
// which every success gives back tokenRatio tokens. Both are kept to 3
// decimal places (milli-tokens), as in gRFC A6.
//
// It returns an error naming the parameter, and no bucket, when maxTokens
// or tokenRatio is NaN, infinite, zero or negative or rounds to less than
// 0.001, or when maxTokens exceeds 1000, the limit gRFC A6 sets (tokenRatio
// has no upper limit). It never clamps a bad value into range.
func NewTokenBucket(maxTokens, tokenRatio float64) (*TokenBucket, error) {
	maxMilli, err := milliTokens("maxTokens", maxTokens, MaxBudgetTokens)
	if err != nil {
		return nil, err
	}
	ratioMilli, err := milliTokens("tokenRatio", tokenRatio, math.MaxInt32)
	if err != nil {
		return nil, err
	}
	return &TokenBucket{maxMilli: maxMilli, ratioMilli: ratioMilli}, nil
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

func (b *TokenBucket) size() int64 {
	if b.maxMilli == 0 {
		return DefaultMaxTokens * milli
	}
	return b.maxMilli
}

func (b *TokenBucket) refill() int64 {
	if b.ratioMilli == 0 {
		return DefaultTokenRatio * milli
	}
	return b.ratioMilli
}

// Allow reports whether a retry may be sent now (more than maxTokens/2
// tokens remain), and counts it in Stats as a retry allowed or denied.
func (b *TokenBucket) Allow() bool {
	ok := b.allows()
	if ok {
		b.allowed.Add(1)
	} else {
		b.denied.Add(1)
	}
	return ok
}

// allows reports whether more than half of maxTokens remain.
func (b *TokenBucket) allows() bool {
	full := b.size()
	// tokens > max/2, in integers without rounding: 2*(max-spent) > max.
	return 2*(full-b.spent.Load()) > full
}

func (b *TokenBucket) peekRetry() bool {
	ok := b.allows()
	if !ok {
		b.denied.Add(1)
	}
	return ok
}

// Record reports the outcome of one attempt: nil for success, which gives
// back tokenRatio; a failure takes one token, unless it is marked with
// Permanent.
func (b *TokenBucket) Record(err error) {
	b.requests.Add(1)
	switch {
	case err == nil:
		b.add(-b.refill())
	case !isPermanent(err):
		b.failures.Add(1)
		b.add(milli)
	default:
		b.failures.Add(1)
	}
}

// add adds d milli-tokens to what the bucket is missing, within
// [0, maxTokens].
func (b *TokenBucket) add(d int64) {
	full := b.size()
	for {
		old := b.spent.Load()
		n := min(max(old+d, 0), full)
		if n == old || b.spent.CompareAndSwap(old, n) {
			return
		}
	}
}

// tokens returns how many tokens the bucket holds, for tests.
func (b *TokenBucket) tokens() float64 { return float64(b.size()-b.spent.Load()) / milli }

// Stats returns the counters, each read atomically but not all at once.
func (b *TokenBucket) Stats() Stats {
	return Stats{
		Requests:       b.requests.Load(),
		Failures:       b.failures.Load(),
		RetriesAllowed: b.allowed.Load(),
		RetriesDenied:  b.denied.Load(),
	}
}

// Stats are the counters of a retry budget since it was created.
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

// RetryRatio returns RetriesAllowed / Requests: the share of the traffic
// that was retries, when Allow is called once before every retry and every
// attempt is recorded, as Do and Transport do. It is the
// retry-amplification SLI: near 10% in a healthy fleet; alarm when it stays
// above about 20%. It returns 0 before any request is recorded.
func (s Stats) RetryRatio() float64 {
	if s.Requests == 0 {
		return 0
	}
	return float64(s.RetriesAllowed) / float64(s.Requests)
}

// isPermanent reports whether err, or an error it wraps, was marked with
// Permanent, without allocating.
func isPermanent(err error) bool { return core.IsPermanent(err) }

var errFailure = errors.New("budget: failure")
