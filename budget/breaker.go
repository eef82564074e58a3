package budget

import (
	"errors"
	"strconv"
	"sync"
	"time"
)

// ErrBreakerOpen is the error a Breaker stands for when it refuses an
// attempt. Do returns an *Error with ReasonBreakerOpen that matches it with
// errors.Is.
var ErrBreakerOpen = errors.New("budget: circuit breaker is open")

// Defaults of a zero BreakerConfig, from the seed pattern.
const (
	// DefaultBreakerFailureRatio: open when more than half the requests
	// in the window failed.
	DefaultBreakerFailureRatio = 0.5
	// DefaultBreakerMinRequests: never open on fewer requests than this,
	// so that two failures out of three cannot open the breaker.
	DefaultBreakerMinRequests = 20
	// DefaultBreakerWindow is the span over which outcomes are counted.
	DefaultBreakerWindow = 10 * time.Second
	// DefaultBreakerCooldown is how long an open breaker refuses
	// everything before it lets a probe through.
	DefaultBreakerCooldown = 5 * time.Second
)

// breakerSlices is how many buckets the sliding window is cut into.
const breakerSlices = 10

// BreakerConfig configures a Breaker. Zero fields take the defaults: open
// when more than 50% of the requests in the last 10s failed and at least 20
// were seen, stay open 5s, then let one probe through.
type BreakerConfig struct {
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
	// Now returns the current time; nil means time.Now. Inject a fake
	// clock for tests. It is called with the breaker's lock held.
	Now func() time.Time
	// OnStateChange, if set, is called after every state change, outside
	// the breaker's lock.
	OnStateChange func(from, to BreakerState)
}

// BreakerState is the state of a Breaker.
type BreakerState int

const (
	// BreakerClosed lets every attempt through and watches the error rate.
	BreakerClosed BreakerState = iota
	// BreakerOpen refuses every attempt until the cooldown ends.
	BreakerOpen
	// BreakerHalfOpen has let a single probe through and waits for its
	// outcome: success closes the breaker, failure opens it again.
	BreakerHalfOpen
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

type breakerSlice struct {
	epoch     int64 // slice number since the Unix epoch
	requests  uint64
	failures  uint64
	populated bool // whether epoch is set
}

// Breaker is a circuit breaker for one dependency. While closed it counts
// outcomes in a sliding window; when more than FailureRatio of at least
// MinRequests outcomes failed, it opens and refuses every attempt for
// Cooldown, so a dead dependency gets no traffic at all rather than budgeted
// retries. Then it lets exactly one probe through (half-open): a success
// closes it with an empty window, a failure opens it for another Cooldown.
//
// Use Allow before an attempt and Record after it, or pass the Breaker to
// Do with WithBreaker. Outcomes recorded while open, and while half-open
// before the probe reports, are ignored except the first in half-open,
// which is taken as the probe's. If the probe never reports, another probe
// is let through after a further Cooldown.
//
// A Breaker is safe for concurrent use; it takes a mutex per call. The zero
// value is usable with the default configuration. A Breaker must not be
// copied after first use.
type Breaker struct {
	cfg BreakerConfig

	mu       sync.Mutex
	state    BreakerState
	openedAt time.Time // when it opened, or when the probe was let through
	probing  bool
	slices   [breakerSlices]breakerSlice
}

// NewBreaker returns a closed Breaker. Zero fields of cfg take the defaults
// documented on BreakerConfig; invalid values are replaced by the defaults.
func NewBreaker(cfg BreakerConfig) *Breaker {
	return &Breaker{cfg: cfg}
}

func (b *Breaker) now() time.Time {
	if b.cfg.Now != nil {
		return b.cfg.Now()
	}
	return time.Now()
}

func (b *Breaker) window() time.Duration {
	if b.cfg.Window <= 0 {
		return DefaultBreakerWindow
	}
	return b.cfg.Window
}

func (b *Breaker) cooldown() time.Duration {
	if b.cfg.Cooldown <= 0 {
		return DefaultBreakerCooldown
	}
	return b.cfg.Cooldown
}

func (b *Breaker) minRequests() int {
	if b.cfg.MinRequests <= 0 {
		return DefaultBreakerMinRequests
	}
	return b.cfg.MinRequests
}

func (b *Breaker) ratio() float64 {
	r := b.cfg.FailureRatio
	if !(r > 0 && r < 1) {
		return DefaultBreakerFailureRatio
	}
	return r
}

// Allow reports whether an attempt may be made now. While open it returns
// false until the cooldown has passed, then true exactly once (the probe)
// and false again until the probe's outcome is recorded.
func (b *Breaker) Allow() bool {
	b.mu.Lock()
	from := b.state
	ok := b.allowLocked(b.now())
	to := b.state
	b.mu.Unlock()
	b.changed(from, to)
	return ok
}

func (b *Breaker) allowLocked(now time.Time) bool {
	switch b.state {
	case BreakerClosed:
		return true
	case BreakerOpen:
		if now.Sub(b.openedAt) < b.cooldown() {
			return false
		}
		b.state = BreakerHalfOpen
		b.probing = true
		b.openedAt = now
		return true
	default: // half-open
		if b.probing && now.Sub(b.openedAt) < b.cooldown() {
			return false
		}
		b.probing = true // the probe was lost: let another through
		b.openedAt = now
		return true
	}
}

// Record reports the outcome of an attempt. A nil error and an error marked
// with Permanent count as successes: the dependency answered. Any other error
// counts as a failure.
func (b *Breaker) Record(err error) {
	failed := err != nil && !isPermanent(err)
	b.mu.Lock()
	from := b.state
	b.recordLocked(b.now(), failed)
	to := b.state
	b.mu.Unlock()
	b.changed(from, to)
}

func (b *Breaker) recordLocked(now time.Time, failed bool) {
	switch b.state {
	case BreakerOpen:
		return
	case BreakerHalfOpen:
		b.probing = false
		if failed {
			b.state = BreakerOpen
			b.openedAt = now
			return
		}
		b.state = BreakerClosed
		b.slices = [breakerSlices]breakerSlice{}
		return
	}
	s := b.slice(now)
	s.requests++
	if failed {
		s.failures++
	}
	req, fail := b.countLocked(now)
	if req >= uint64(b.minRequests()) && float64(fail) > b.ratio()*float64(req) {
		b.state = BreakerOpen
		b.openedAt = now
		b.slices = [breakerSlices]breakerSlice{}
	}
}

func (b *Breaker) epoch(now time.Time) int64 {
	w := b.window() / breakerSlices
	if w <= 0 {
		w = 1
	}
	return now.UnixNano() / int64(w)
}

// slice returns the current slice, emptied if it held an older one.
func (b *Breaker) slice(now time.Time) *breakerSlice {
	e := b.epoch(now)
	s := &b.slices[uint64(e)%breakerSlices]
	if !s.populated || s.epoch != e {
		*s = breakerSlice{epoch: e, populated: true}
	}
	return s
}

// countLocked sums the slices inside the window ending now.
func (b *Breaker) countLocked(now time.Time) (requests, failures uint64) {
	e := b.epoch(now)
	for i := range b.slices {
		s := &b.slices[i]
		if s.populated && s.epoch <= e && s.epoch > e-breakerSlices {
			requests += s.requests
			failures += s.failures
		}
	}
	return requests, failures
}

func (b *Breaker) changed(from, to BreakerState) {
	if from != to && b.cfg.OnStateChange != nil {
		b.cfg.OnStateChange(from, to)
	}
}

// State returns the current state. An open breaker whose cooldown has passed
// still reports BreakerOpen until Allow lets the probe through.
func (b *Breaker) State() BreakerState {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.state
}

// Counts returns the requests and failures in the sliding window now. The
// window is emptied whenever the breaker opens or closes.
func (b *Breaker) Counts() (requests, failures uint64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.countLocked(b.now())
}
