package core

import (
	"context"
	"errors"
	"sync"
	"time"
)

// Defaults of a zero BreakerConfig; package budget documents them.
const (
	DefaultBreakerFailureRatio = 0.5
	DefaultBreakerMinRequests  = 20
	DefaultBreakerWindow       = 10 * time.Second
	DefaultBreakerCooldown     = 5 * time.Second
)

// breakerSlices is how many buckets the sliding window is cut into.
const breakerSlices = 10

// State is a breaker's state; package budget's BreakerState has the same
// values.
type State int

// The states.
const (
	Closed State = iota
	Open
	HalfOpen
)

// BreakerConfig is package budget's Breaker fields; zero and invalid
// values mean the defaults.
type BreakerConfig struct {
	FailureRatio  float64
	MinRequests   int
	Window        time.Duration
	Cooldown      time.Duration
	IsExcluded    func(err error) bool
	IsSuccessful  func(err error) bool
	OnStateChange func(from, to State)
}

// BreakerStats are a breaker's counters.
type BreakerStats struct {
	State                               State
	Requests, Failures, Rejected, Opens uint64
}

type breakerSlice struct {
	epoch     int64 // slice number since the Unix epoch
	requests  uint64
	failures  uint64
	populated bool // whether epoch is set
}

type stateChange struct{ from, to State }

// Breaker is the circuit breaker of package budget with the clock taken
// by every method that reads it. Cfg must be set before first use and not
// changed after.
type Breaker struct {
	Cfg BreakerConfig

	mu         sync.Mutex
	state      State
	gen        uint64
	openedAt   time.Time // when it opened, or when the probe was let through
	probing    bool
	slices     [breakerSlices]breakerSlice
	pending    []stateChange
	delivering bool
	stats      BreakerStats
}

func (b *Breaker) window() time.Duration {
	if b.Cfg.Window <= 0 {
		return DefaultBreakerWindow
	}
	return b.Cfg.Window
}

func (b *Breaker) cooldown() time.Duration {
	if b.Cfg.Cooldown <= 0 {
		return DefaultBreakerCooldown
	}
	return b.Cfg.Cooldown
}

func (b *Breaker) minRequests() int {
	if b.Cfg.MinRequests <= 0 {
		return DefaultBreakerMinRequests
	}
	return b.Cfg.MinRequests
}

func (b *Breaker) ratio() float64 {
	r := b.Cfg.FailureRatio
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
	if b.Cfg.IsExcluded != nil {
		if b.Cfg.IsExcluded(err) {
			return true, false
		}
	} else if errors.Is(err, context.Canceled) {
		return true, false
	}
	if b.Cfg.IsSuccessful != nil {
		return false, !b.Cfg.IsSuccessful(err)
	}
	return false, !IsPermanent(err)
}

// Permit is one attempt let through by AdmitAt. The zero Permit's methods
// do nothing.
type Permit struct {
	b   *Breaker
	gen uint64
}

// DoneAt reports the outcome of the admitted attempt at now; it is ignored
// when the breaker has changed state since the Permit was issued.
func (p Permit) DoneAt(now time.Time, err error) {
	if p.b == nil {
		return
	}
	b := p.b
	b.mu.Lock()
	if p.gen == b.gen {
		b.recordLocked(now, err)
	}
	b.unlockAndNotify()
}

// Release gives back a Permit whose attempt was not made: a probe's slot
// is freed for the next AdmitAt, nothing is counted.
func (p Permit) Release() {
	if p.b == nil {
		return
	}
	p.b.mu.Lock()
	if p.gen == p.b.gen && p.b.state == HalfOpen {
		p.b.probing = false
	}
	p.b.mu.Unlock()
}

// AdmitAt reports whether an attempt may be made at now and returns the
// Permit to report its outcome with.
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

func (b *Breaker) allowLocked(now time.Time) bool {
	switch b.state {
	case Closed:
		return true
	case Open:
		if now.Sub(b.openedAt) < b.cooldown() {
			return false
		}
		b.setStateLocked(HalfOpen)
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

func (b *Breaker) recordLocked(now time.Time, err error) {
	excluded, failed := b.outcome(err)
	switch b.state {
	case Open:
		return
	case HalfOpen:
		if excluded {
			b.probing = false // the next AdmitAt sends a new probe
			return
		}
		b.count(failed)
		b.probing = false
		if failed {
			b.openLocked(now)
			return
		}
		b.setStateLocked(Closed)
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
	b.setStateLocked(Open)
	b.openedAt = now
	b.probing = false
	b.slices = [breakerSlices]breakerSlice{}
}

// setStateLocked moves to state to, starting a new generation and queueing
// the notification.
func (b *Breaker) setStateLocked(to State) {
	from := b.state
	if from == to {
		return
	}
	b.state = to
	b.gen++
	if to == Open {
		b.stats.Opens++
	}
	if b.Cfg.OnStateChange != nil {
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
		b.Cfg.OnStateChange(c.from, c.to)
		b.mu.Lock()
	}
	b.delivering = false
	b.mu.Unlock()
}

// OpenAt opens the breaker at now, whatever its state (tests and
// simulations force an outage with it).
func (b *Breaker) OpenAt(now time.Time) {
	b.mu.Lock()
	b.openLocked(now)
	b.unlockAndNotify()
}

// Stats returns the counters and the current state, read together.
func (b *Breaker) Stats() BreakerStats {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := b.stats
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

// CountsAt returns the requests and failures in the sliding window at now.
func (b *Breaker) CountsAt(now time.Time) (requests, failures uint64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.countLocked(now)
}

// RecordAt records an outcome into the current generation, whatever
// admitted it: the one-step form for tests, which cannot tell a straggler
// from the probe.
func (b *Breaker) RecordAt(now time.Time, err error) {
	b.mu.Lock()
	b.recordLocked(now, err)
	b.unlockAndNotify()
}
