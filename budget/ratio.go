package budget

import (
	"fmt"
	"math"
	"sync"
	"time"
)

// Defaults of a zero RatioBudget, from Finagle's RetryBudget.
const (
	// DefaultRetryPercent is the share of requests that may be retries.
	DefaultRetryPercent = 0.2
	// DefaultMinRetriesPerSecond is the reserve that lets a quiet client
	// retry even with few requests to earn retries from.
	DefaultMinRetriesPerSecond = 10
	// DefaultRatioWindow is how long a request counts towards the budget.
	DefaultRatioWindow = 10 * time.Second
)

// Limits NewRatioBudget enforces. The window's are Finagle's (its ttl must
// be in [1s, 60s]). Finagle lets percentCanRetry go to 1000 (100 000%);
// here a share above 1, more retries than first tries, is refused, since
// with at most MaxAttempts attempts such a budget never binds.
const (
	MinRatioWindow  = time.Second
	MaxRatioWindow  = 60 * time.Second
	MaxRetryPercent = 1.0
)

// ratioSlices is how many buckets a RatioBudget's window is cut into.
const ratioSlices = 10

type ratioSlice struct {
	epoch     int64
	firsts    uint64 // outcomes recorded that were not a granted retry's
	retries   uint64
	populated bool
}

// RatioBudget is a retry budget in the style of Finagle and Linkerd: over a
// sliding window, retries may be at most a fixed share of the requests, plus
// a reserve of a minimum number of retries per second so that a client with
// little traffic can still retry now and then.
//
// Precisely, Allow grants a retry when, counting the window that ends now
// (kept in 10 slices), retries+1 <= percent·firsts + minPerSecond·window.
// Only first tries earn retries, as in Finagle, so a 20% budget allows
// retries up to 20% of first tries: Record counts an outcome as a first
// try's unless a granted retry's outcome is still due.
// Unlike Budget, Allow spends: each true return counts as a retry in the
// window. Requests and retries leave the window when it slides past them.
//
// The zero value is usable: 20% of requests, 10 retries per second, over
// 10 seconds. A RatioBudget is safe for concurrent use; it takes a mutex per
// call. It must not be copied after first use.
type RatioBudget struct {
	percent      float64
	minPerSecond float64
	window       time.Duration
	set          bool // false: the zero value, use the defaults

	mu       sync.Mutex
	slices   [ratioSlices]ratioSlice
	pending  uint64 // granted retries whose outcome is not recorded yet
	requests uint64
	failures uint64
	allowed  uint64
	denied   uint64
}

// NewRatioBudget returns a RatioBudget that allows retries up to percent of
// the requests in the last window (0.2 means 20%), plus minPerSecond retries
// per second of window whatever the traffic.
//
// It returns an error naming the parameter when percent or minPerSecond is
// negative, NaN or infinite, when both are zero (no retry could ever be
// allowed), when percent exceeds MaxRetryPercent (1, that is 100%), or when
// window is outside [1s, 60s] as in Finagle. It never clamps.
func NewRatioBudget(percent, minPerSecond float64, window time.Duration) (*RatioBudget, error) {
	for _, p := range []struct {
		name string
		v    float64
	}{{"percent", percent}, {"minPerSecond", minPerSecond}} {
		if math.IsNaN(p.v) || math.IsInf(p.v, 0) {
			return nil, fmt.Errorf("budget: invalid %s %v: must be a finite number", p.name, p.v)
		}
		if p.v < 0 {
			return nil, fmt.Errorf("budget: invalid %s %v: must not be negative", p.name, p.v)
		}
	}
	if percent == 0 && minPerSecond == 0 {
		return nil, fmt.Errorf("budget: invalid percent 0 with minPerSecond 0: no retry could ever be allowed")
	}
	if percent > MaxRetryPercent {
		return nil, fmt.Errorf("budget: invalid percent %v: must not exceed %v (every first try retried once)", percent, MaxRetryPercent)
	}
	if window < MinRatioWindow || window > MaxRatioWindow {
		return nil, fmt.Errorf("budget: invalid window %v: must be in [%v, %v]", window, MinRatioWindow, MaxRatioWindow)
	}
	return &RatioBudget{percent: percent, minPerSecond: minPerSecond, window: window, set: true}, nil
}

func (r *RatioBudget) params() (percent, minPerSecond float64, window time.Duration) {
	if !r.set {
		return DefaultRetryPercent, DefaultMinRetriesPerSecond, DefaultRatioWindow
	}
	return r.percent, r.minPerSecond, r.window
}

// Allow reports whether a retry may be sent now, and if so counts it in the
// window. It is AllowAt(time.Now()).
func (r *RatioBudget) Allow() bool { return r.AllowAt(time.Now()) }

// AllowAt is Allow at the time now, for callers that manage the clock.
// Times must not go backwards by more than the window.
func (r *RatioBudget) AllowAt(now time.Time) bool {
	percent, minPerSecond, window := r.params()
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.grantLocked(now, percent, minPerSecond, window) {
		r.denied++
		return false
	}
	r.slice(now, window).retries++
	r.pending++
	r.allowed++
	return true
}

// grantLocked reports whether one more retry fits in the window ending now.
// Only first tries earn retries (Finagle deposits on requests, withdraws on
// retries).
func (r *RatioBudget) grantLocked(now time.Time, percent, minPerSecond float64, window time.Duration) bool {
	firsts, retries := r.countLocked(now, window)
	limit := percent*float64(firsts) + minPerSecond*window.Seconds()
	return float64(retries)+1 <= limit
}

// peekRetry is Allow without counting or spending a grant; a denial is
// counted.
func (r *RatioBudget) peekRetry() bool {
	percent, minPerSecond, window := r.params()
	now := time.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.grantLocked(now, percent, minPerSecond, window) {
		return true
	}
	r.denied++
	return false
}

// Record reports the outcome of one attempt. It is RecordAt(time.Now(), err).
func (r *RatioBudget) Record(err error) { r.RecordAt(time.Now(), err) }

// RecordAt is Record at the time now. Every outcome, success or failure,
// counts as a request that earns retry share.
func (r *RatioBudget) RecordAt(now time.Time, err error) {
	_, _, window := r.params()
	r.mu.Lock()
	defer r.mu.Unlock()
	// The outcome of a granted retry earns nothing: as many outcomes as
	// retries were granted (and are still in the window) are taken for
	// theirs, whatever order they arrive in.
	_, inWindow := r.countLocked(now, window)
	r.pending = min(r.pending, inWindow)
	if r.pending > 0 {
		r.pending--
	} else {
		r.slice(now, window).firsts++
	}
	r.requests++
	if err != nil {
		r.failures++
	}
}

// RecordSuccess is Record(nil).
func (r *RatioBudget) RecordSuccess() { r.Record(nil) }

// RecordFailure records a failed attempt.
func (r *RatioBudget) RecordFailure() { r.Record(errFailure) }

// Stats returns the counters since the RatioBudget was created (not just
// the window), read together under the lock.
func (r *RatioBudget) Stats() Stats {
	r.mu.Lock()
	defer r.mu.Unlock()
	return Stats{Requests: r.requests, Failures: r.failures, RetriesAllowed: r.allowed, RetriesDenied: r.denied}
}

func ratioEpoch(now time.Time, window time.Duration) int64 {
	w := window / ratioSlices
	if w <= 0 {
		w = 1
	}
	return now.UnixNano() / int64(w)
}

func (r *RatioBudget) slice(now time.Time, window time.Duration) *ratioSlice {
	e := ratioEpoch(now, window)
	s := &r.slices[uint64(e)%ratioSlices]
	if !s.populated || s.epoch != e {
		*s = ratioSlice{epoch: e, populated: true}
	}
	return s
}

func (r *RatioBudget) countLocked(now time.Time, window time.Duration) (firsts, retries uint64) {
	e := ratioEpoch(now, window)
	for i := range r.slices {
		s := &r.slices[i]
		if s.populated && s.epoch <= e && s.epoch > e-ratioSlices {
			firsts += s.firsts
			retries += s.retries
		}
	}
	return firsts, retries
}
