package budget

import (
	"context"
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
	// Name names the dependency in Stats and in expvar output. Empty is
	// allowed.
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

type stateChange struct{ from, to BreakerState }

// Breaker is a circuit breaker for one dependency. While closed it counts
// outcomes in a sliding window; when more than FailureRatio of at least
// MinRequests outcomes failed, it opens and refuses every attempt for
// Cooldown, so a dead dependency gets no traffic at all rather than budgeted
// retries. Then it lets exactly one probe through (half-open): a success
// closes it with an empty window, a failure opens it for another Cooldown.
// If the probe never reports, another probe is let through after a further
// Cooldown.
//
// Admit before an attempt and the Permit's Done after it, or pass the
// Breaker to Do with WithBreaker. Every state change starts a new
// generation, and a Permit reports only into the generation that admitted
// it: a request let through while closed that ends after the breaker
// opened, or while the probe is out, is not taken as the probe's outcome
// (gobreaker's rule). Allow and Record are the one-step form kept for old
// callers; Record cannot tell a straggler from the probe.
//
// The …At methods take the time, for callers that manage the clock (tests,
// simulations); the others read time.Now.
//
// A Breaker is safe for concurrent use; it takes a mutex per call. The zero
// value is usable with the default configuration. A Breaker must not be
// copied after first use.
type Breaker struct {
	cfg BreakerConfig

	mu         sync.Mutex
	state      BreakerState
	gen        uint64
	openedAt   time.Time // when it opened, or when the probe was let through
	probing    bool
	slices     [breakerSlices]breakerSlice
	pending    []stateChange
	delivering bool
	stats      BreakerStats
}

// BreakerStats are the counters of a Breaker since it was created or Reset.
type BreakerStats struct {
	Name     string
	State    BreakerState
	Requests uint64 // outcomes counted (excluded and stale ones are not)
	Failures uint64 // outcomes counted as failures
	Rejected uint64 // attempts refused because the breaker was open
	Opens    uint64 // times the breaker opened
}

// NewBreaker returns a closed Breaker. Zero fields of cfg take the defaults
// documented on BreakerConfig; invalid values are replaced by the defaults.
func NewBreaker(cfg BreakerConfig) *Breaker {
	return &Breaker{cfg: cfg}
}

// Name returns BreakerConfig.Name.
func (b *Breaker) Name() string { return b.cfg.Name }

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

// outcome classifies err: excluded, or failed or not.
func (b *Breaker) outcome(err error) (excluded, failed bool) {
	if err == nil {
		return false, false
	}
	if b.cfg.IsExcluded != nil {
		if b.cfg.IsExcluded(err) {
			return true, false
		}
	} else if errors.Is(err, context.Canceled) {
		return true, false
	}
	if b.cfg.IsSuccessful != nil {
		return false, !b.cfg.IsSuccessful(err)
	}
	return false, !isPermanent(err)
}

// Permit is one attempt let through by Breaker.Admit. Report its outcome
// once with Done. The zero Permit's Done does nothing.
type Permit struct {
	b   *Breaker
	gen uint64
}

// Done reports the outcome of the attempt the Permit admitted: nil for
// success. It is ignored when the breaker has changed state since the
// Permit was issued. Calling Done more than once counts more than once.
// It is DoneAt(time.Now(), err).
func (p Permit) Done(err error) { p.DoneAt(time.Now(), err) }

// DoneAt is Done at the time now.
func (p Permit) DoneAt(now time.Time, err error) {
	if p.b == nil {
		return
	}
	p.b.done(now, p.gen, err)
}

// Admit reports whether an attempt may be made now and returns the Permit
// to report its outcome with. While open it refuses until the cooldown has
// passed, then admits exactly one probe and refuses again until the
// probe's Permit reports (or a further cooldown passes). It is
// AdmitAt(time.Now()).
func (b *Breaker) Admit() (Permit, bool) { return b.AdmitAt(time.Now()) }

// AdmitAt is Admit at the time now.
func (b *Breaker) AdmitAt(now time.Time) (Permit, bool) {
	b.mu.Lock()
	ok := b.allowLocked(now)
	p := Permit{b: b, gen: b.gen}
	if !ok {
		b.stats.Rejected++
		p = Permit{}
	}
	b.unlockAndNotify()
	return p, ok
}

// Allow is Admit without the Permit, for callers that report with Record.
func (b *Breaker) Allow() bool { return b.AllowAt(time.Now()) }

// AllowAt is Allow at the time now.
func (b *Breaker) AllowAt(now time.Time) bool {
	_, ok := b.AdmitAt(now)
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
		b.setStateLocked(BreakerHalfOpen)
		b.probing = true
		b.openedAt = now
		return true
	default: // half-open
		if b.probing && now.Sub(b.openedAt) < b.cooldown() {
			return false
		}
		// The probe was lost (or excluded): let another through, in a
		// generation of its own so the lost one cannot report.
		b.gen++
		b.probing = true
		b.openedAt = now
		return true
	}
}

// Record reports the outcome of an attempt into the current generation: a
// failure, a success or an excluded outcome as BreakerConfig classifies it.
// It cannot tell an attempt admitted before the last state change from the
// current probe; prefer Admit and Permit.Done. It is
// RecordAt(time.Now(), err).
func (b *Breaker) Record(err error) { b.RecordAt(time.Now(), err) }

// RecordAt is Record at the time now.
func (b *Breaker) RecordAt(now time.Time, err error) {
	b.mu.Lock()
	b.recordLocked(now, err)
	b.unlockAndNotify()
}

// release gives back a Permit whose attempt was not made: a probe's slot is
// freed for the next Admit, nothing is counted.
func (p Permit) release() {
	if p.b == nil {
		return
	}
	p.b.mu.Lock()
	if p.gen == p.b.gen && p.b.state == BreakerHalfOpen {
		p.b.probing = false
	}
	p.b.mu.Unlock()
}

func (b *Breaker) done(now time.Time, gen uint64, err error) {
	b.mu.Lock()
	if gen == b.gen {
		b.recordLocked(now, err)
	}
	b.unlockAndNotify()
}

func (b *Breaker) recordLocked(now time.Time, err error) {
	excluded, failed := b.outcome(err)
	switch b.state {
	case BreakerOpen:
		return
	case BreakerHalfOpen:
		if excluded {
			b.probing = false // the next Admit sends a new probe
			return
		}
		b.count(failed)
		b.probing = false
		if failed {
			b.openLocked(now)
			return
		}
		b.setStateLocked(BreakerClosed)
		b.slices = [breakerSlices]breakerSlice{}
		return
	}
	if excluded {
		return
	}
	b.count(failed)
	s := b.slice(now)
	s.requests++
	if failed {
		s.failures++
	}
	req, fail := b.countLocked(now)
	if req >= uint64(b.minRequests()) && float64(fail) > b.ratio()*float64(req) {
		b.openLocked(now)
	}
}

func (b *Breaker) count(failed bool) {
	b.stats.Requests++
	if failed {
		b.stats.Failures++
	}
}

func (b *Breaker) openLocked(now time.Time) {
	b.setStateLocked(BreakerOpen)
	b.openedAt = now
	b.probing = false
	b.slices = [breakerSlices]breakerSlice{}
}

// setStateLocked moves to state to, starting a new generation and queueing
// the notification.
func (b *Breaker) setStateLocked(to BreakerState) {
	from := b.state
	if from == to {
		return
	}
	b.state = to
	b.gen++
	if to == BreakerOpen {
		b.stats.Opens++
	}
	if b.cfg.OnStateChange != nil {
		b.pending = append(b.pending, stateChange{from, to})
	}
}

// unlockAndNotify releases the lock and delivers the queued state changes
// in order. Only one goroutine delivers at a time; one that finds another
// delivering leaves its changes to it.
func (b *Breaker) unlockAndNotify() {
	if b.delivering || len(b.pending) == 0 {
		b.mu.Unlock()
		return
	}
	b.delivering = true
	for len(b.pending) > 0 {
		c := b.pending[0]
		b.pending = b.pending[1:]
		if len(b.pending) == 0 {
			b.pending = nil
		}
		b.mu.Unlock()
		b.cfg.OnStateChange(c.from, c.to)
		b.mu.Lock()
	}
	b.delivering = false
	b.mu.Unlock()
}

// Open opens the breaker now, whatever its state: it refuses attempts for a
// Cooldown and then probes as usual. It is OpenAt(time.Now()).
func (b *Breaker) Open() { b.OpenAt(time.Now()) }

// OpenAt is Open at the time now: the cooldown runs from now.
func (b *Breaker) OpenAt(now time.Time) {
	b.mu.Lock()
	b.openLocked(now)
	b.unlockAndNotify()
}

// Close closes the breaker now with an empty window.
func (b *Breaker) Close() {
	b.mu.Lock()
	b.setStateLocked(BreakerClosed)
	b.probing = false
	b.slices = [breakerSlices]breakerSlice{}
	b.unlockAndNotify()
}

// Reset closes the breaker, empties its window and zeroes its Stats.
func (b *Breaker) Reset() {
	b.mu.Lock()
	b.setStateLocked(BreakerClosed)
	b.probing = false
	b.slices = [breakerSlices]breakerSlice{}
	b.stats = BreakerStats{}
	b.unlockAndNotify()
}

// Stats returns the counters and the current state, read together.
func (b *Breaker) Stats() BreakerStats {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := b.stats
	s.Name = b.cfg.Name
	s.State = b.state
	return s
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

// State returns the current state. An open breaker whose cooldown has passed
// still reports BreakerOpen until Admit lets the probe through.
func (b *Breaker) State() BreakerState {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.state
}

// Counts returns the requests and failures in the sliding window now. The
// window is emptied whenever the breaker opens or closes. It is
// CountsAt(time.Now()).
func (b *Breaker) Counts() (requests, failures uint64) { return b.CountsAt(time.Now()) }

// CountsAt is Counts at the time now.
func (b *Breaker) CountsAt(now time.Time) (requests, failures uint64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.countLocked(now)
}
