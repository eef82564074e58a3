package core

import (
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"
)

// Defaults of the zero Adaptive; package budget documents them.
const (
	DefaultRetryRatio   = 0.1
	DefaultBudgetWindow = time.Second
	DefaultMinRetryRate = 0.2
)

// budgetSlices is how many slices an Adaptive's window is cut into.
const budgetSlices = 10

// Adaptive is the adaptive retry budget: retries granted in the window
// ending now stay within ratio of the successful first tries in it, plus a
// floor of one unearned retry every so often. The zero value uses the
// defaults. It is safe for concurrent use.
type Adaptive struct {
	ratio     float64
	window    time.Duration
	freeEvery time.Duration // < 0: no floor; 0: the default
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

// Init sets the parameters of an unused Adaptive, or says which one is
// invalid: ratio must be in (0, 1], minPerSecond finite and >= 0, window in
// [100ms, 60s].
func (b *Adaptive) Init(ratio, minPerSecond float64, window time.Duration) error {
	switch {
	case !(ratio > 0 && ratio <= 1):
		return fmt.Errorf("budget: invalid ratio %v: must be in (0, 1]", ratio)
	case math.IsNaN(minPerSecond) || math.IsInf(minPerSecond, 0) || minPerSecond < 0:
		return fmt.Errorf("budget: invalid minPerSecond %v: must be a finite number >= 0", minPerSecond)
	case window < 100*time.Millisecond || window > time.Minute:
		return fmt.Errorf("budget: invalid window %v: must be in [100ms, 60s]", window)
	}
	every := time.Duration(-1)
	if minPerSecond > 0 {
		every = max(time.Duration(float64(time.Second)/minPerSecond), 1)
	}
	b.ratio, b.window, b.freeEvery = ratio, window, every
	return nil
}

func (b *Adaptive) params() (ratio float64, window, every time.Duration) {
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

// AllowAt reports whether a retry may be sent at now, takes it if so, and
// counts the decision.
func (b *Adaptive) AllowAt(now time.Time) bool {
	ok := b.grant(now, true)
	if ok {
		b.allowed.Add(1)
	} else {
		b.denied.Add(1)
	}
	return ok
}

// PeekAt is AllowAt without taking or counting a grant; a denial is
// counted.
func (b *Adaptive) PeekAt(now time.Time) bool {
	ok := b.grant(now, false)
	if !ok {
		b.denied.Add(1)
	}
	return ok
}

// grant decides a retry, taking it when take is set.
func (b *Adaptive) grant(now time.Time, take bool) bool {
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

// RecordAt records one attempt's outcome at now: nil for success. A
// success earns retry share unless it is the outcome of a granted retry (as
// many outcomes as retries were granted in the window are taken for
// theirs, in whatever order they arrive).
func (b *Adaptive) RecordAt(now time.Time, err error) {
	b.requests.Add(1)
	if err != nil {
		b.failures.Add(1)
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

func (b *Adaptive) epoch(now time.Time, window time.Duration) int64 {
	return now.UnixNano() / int64(window/budgetSlices)
}

func (b *Adaptive) slice(now time.Time, window time.Duration) *budgetSlice {
	e := b.epoch(now, window)
	s := &b.slices[uint64(e)%budgetSlices]
	if !s.populated || s.epoch != e {
		*s = budgetSlice{epoch: e, populated: true}
	}
	return s
}

func (b *Adaptive) countLocked(now time.Time, window time.Duration) (earned, retries, free uint64) {
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

// TokensAt returns how many retries the traffic earned and not yet spent
// in the window ending now, not counting the floor.
func (b *Adaptive) TokensAt(now time.Time) float64 {
	ratio, window, _ := b.params()
	b.mu.Lock()
	defer b.mu.Unlock()
	earned, retries, _ := b.countLocked(now, window)
	return max(math.Floor(ratio*float64(earned))-float64(retries), 0)
}

// Ratio returns the retry ratio in use.
func (b *Adaptive) Ratio() float64 {
	r, _, _ := b.params()
	return r
}

// Counts returns the counters since the budget was created: outcomes
// recorded, failures among them, retries allowed and denied.
func (b *Adaptive) Counts() (requests, failures, allowed, denied uint64) {
	return b.requests.Load(), b.failures.Load(), b.allowed.Load(), b.denied.Load()
}
