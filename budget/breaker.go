package budget

import (
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/retrylint/retrylint/budget/internal/core"
)

// ErrBreakerOpen is the error a Breaker stands for when it refuses an
// attempt. Do returns an *Error with ReasonBreakerOpen that matches it with
// errors.Is.
var ErrBreakerOpen = errors.New("budget: circuit breaker is open")

// Defaults of a zero Breaker, from the seed pattern.
const (
	// DefaultBreakerFailureRatio: open when more than half the requests
	// in the window failed.
	DefaultBreakerFailureRatio = core.DefaultBreakerFailureRatio
	// DefaultBreakerMinRequests: never open on fewer requests than this,
	// so that two failures out of three cannot open the breaker.
	DefaultBreakerMinRequests = core.DefaultBreakerMinRequests
	// DefaultBreakerWindow is the span over which outcomes are counted.
	DefaultBreakerWindow = core.DefaultBreakerWindow
	// DefaultBreakerCooldown is how long an open breaker refuses
	// everything before it lets a probe through.
	DefaultBreakerCooldown = core.DefaultBreakerCooldown
)

// BreakerState is the state of a Breaker.
type BreakerState int

const (
	// BreakerClosed lets every attempt through and watches the error rate.
	BreakerClosed = BreakerState(core.Closed)
	// BreakerOpen refuses every attempt until the cooldown ends.
	BreakerOpen = BreakerState(core.Open)
	// BreakerHalfOpen has let a single probe through and waits for its
	// outcome: success closes the breaker, failure opens it again.
	BreakerHalfOpen = BreakerState(core.HalfOpen)
)

// String returns "closed", "open" or "half-open".
func (s BreakerState) String() string {
	switch s {
	case BreakerClosed:
		return "closed"
	case BreakerOpen:
		return "open"
	case BreakerHalfOpen:
		return "half-open"
	}
	return "BreakerState(" + strconv.Itoa(int(s)) + ")"
}

// Breaker is a circuit breaker for one dependency. While closed it counts
// outcomes in a sliding window; when more than FailureRatio of at least
// MinRequests outcomes failed, it opens and refuses every attempt for
// Cooldown, so a dead dependency gets no traffic at all rather than
// budgeted retries. Then it lets exactly one probe through (half-open): a
// success closes it with an empty window, a failure opens it for another
// Cooldown. If the probe never reports, another probe is let through after
// a further Cooldown.
//
// Admit before an attempt and the Permit's Done after it, or pass the
// Breaker to Do with WithBreaker. Every state change starts a new
// generation, and a Permit reports only into the generation that admitted
// it: a request let through while closed that ends after the breaker
// opened, or while the probe is out, is not taken as the probe's outcome
// (gobreaker's rule).
//
// The zero Breaker is ready to use: open when more than 50% of the
// requests in the last 10s failed and at least 20 were seen, stay open 5s,
// then let one probe through. Zero or invalid fields take these defaults.
// The fields must not be changed after first use.
//
// A Breaker is safe for concurrent use; it takes a mutex per call. It must
// not be copied after first use.
type Breaker struct {
	// Name names the dependency in Stats. Empty is allowed.
	Name string
	// FailureRatio: the breaker opens when failures/requests in the window
	// is strictly greater than this. Zero or out-of-range (not in (0, 1))
	// means 0.5.
	FailureRatio float64
	// MinRequests is how many outcomes the window must hold before the
	// breaker can open. Zero or negative means 20.
	MinRequests int
	// Window is the span of the sliding window, kept in 10 slices. Zero or
	// negative means 10s.
	Window time.Duration
	// Cooldown is how long the breaker stays open before it lets a probe
	// through. Zero or negative means 5s.
	Cooldown time.Duration
	// IsExcluded reports whether an outcome says nothing about the
	// dependency and is not counted at all (a half-open probe that ends so
	// lets the next probe through). Nil means errors.Is(err,
	// context.Canceled): a canceled call was stopped by its caller. Do never
	// reports an attempt ended by its caller's own context.
	IsExcluded func(err error) bool
	// IsSuccessful reports whether a non-excluded outcome counts as a
	// success: the dependency answered. Nil means err == nil or an error
	// marked with Permanent (a bad request is an answer, not an outage).
	IsSuccessful func(err error) bool
	// OnStateChange, if set, is called after every state change, outside
	// the breaker's lock, one call at a time and in the order the changes
	// happened. It may run on the goroutine of a later call to the breaker
	// than the one that made the change; it may call the breaker.
	OnStateChange func(from, to BreakerState)

	once sync.Once
	c    core.Breaker
}

// BreakerStats are the counters of a Breaker since it was created.
type BreakerStats struct {
	Name     string
	State    BreakerState
	Requests uint64 // outcomes counted (excluded and stale ones are not)
	Failures uint64 // outcomes counted as failures
	Rejected uint64 // attempts refused because the breaker was open
	Opens    uint64 // times the breaker opened
}

// core returns the breaker's state machine, configured from the fields on
// first use.
func (b *Breaker) core() *core.Breaker {
	b.once.Do(func() {
		b.c.Cfg = core.BreakerConfig{
			FailureRatio: b.FailureRatio,
			MinRequests:  b.MinRequests,
			Window:       b.Window,
			Cooldown:     b.Cooldown,
			IsExcluded:   b.IsExcluded,
			IsSuccessful: b.IsSuccessful,
		}
		if f := b.OnStateChange; f != nil {
			b.c.Cfg.OnStateChange = func(from, to core.State) { f(BreakerState(from), BreakerState(to)) }
		}
	})
	return &b.c
}

// Permit is one attempt let through by Breaker.Admit. Report its outcome
// once with Done. The zero Permit's Done does nothing.
type Permit struct {
	p core.Permit
}

// Done reports the outcome of the attempt the Permit admitted: nil for
// success. It is ignored when the breaker has changed state since the
// Permit was issued. Calling Done more than once counts more than once.
func (p Permit) Done(err error) {
	if p.p != (core.Permit{}) { // the zero Permit reads no clock
		p.p.DoneAt(time.Now(), err)
	}
}

// release gives back a Permit whose attempt was not made: a probe's slot
// is freed for the next Admit, nothing is counted.
func (p Permit) release() { p.p.Release() }

// Admit reports whether an attempt may be made now and returns the Permit
// to report its outcome with. While open it refuses until the cooldown has
// passed, then admits exactly one probe and refuses again until the
// probe's Permit reports (or a further cooldown passes).
func (b *Breaker) Admit() (Permit, bool) {
	p, ok := b.core().AdmitAt(time.Now())
	return Permit{p}, ok
}

// Stats returns the counters and the current state, read together. An
// open breaker whose cooldown has passed still reports BreakerOpen until
// Admit lets the probe through.
func (b *Breaker) Stats() BreakerStats {
	s := b.core().Stats()
	return BreakerStats{
		Name: b.Name, State: BreakerState(s.State),
		Requests: s.Requests, Failures: s.Failures, Rejected: s.Rejected, Opens: s.Opens,
	}
}
