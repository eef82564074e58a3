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

// The clock reading's amortisation: between two readings at most
// maxStride outcomes of each kind, and at most maxStaleGrants grants, are
// decided on the older reading. The stride is chosen at each reading so
// that it spans about window/strideFraction at the rate last measured.
const (
	maxStride      = 256
	maxStaleGrants = 8
	strideFraction = 64
)

// Adaptive is the adaptive retry budget: retries granted in the window
// ending now stay within ratio of the successful first tries in it, plus a
// floor of one unearned retry every so often. The zero value uses the
// defaults. It is safe for concurrent use.
//
// Every method takes the clock as a function and calls it only now and
// then (a reading): before a call that finds a counter at the stride set
// at the last reading (or maxStaleGrants grants past it), before a grant
// from the floor, and in Tokens. Between readings the decisions use the
// window as of the last reading, and the outcomes and grants since it are
// dated at it; see budget.Adaptive for what that allows.
type Adaptive struct {
	ratio     float64
	window    time.Duration
	freeEvery time.Duration // < 0: no floor; 0: the default

	_ pad
	// The view: what the last reading published, read without a lock.
	seq   atomic.Uint64
	views [4]view
	// A counter at its next* value asks for a reading.
	nextOK, nextFail, nextDenied, nextGrant atomic.Uint64

	// The counters since creation. ok and fail count the outcomes not
	// taken for a granted retry; taken and takenFail those that were.
	_      pad
	ok     atomic.Uint64
	_      pad
	fail   atomic.Uint64
	_      pad
	grants atomic.Uint64 // retries granted from the earned share
	_      pad
	mark   atomic.Uint64 // outcomes taken for grants, moved up past grants that left the window
	_      pad
	denied atomic.Uint64
	_      pad
	free   atomic.Uint64 // retries granted from the floor
	// lastFree is when the floor last granted a retry (ns on the reading's
	// scale), 0 if it never did.
	lastFree         atomic.Int64
	taken, takenFail atomic.Uint64
	_                pad
	mu               sync.Mutex // held by the goroutine reading the clock
	origin           time.Time  // the first reading
	originNs, lastNs int64      // ns of the first and the last reading
	last             counts     // the counters at the last reading
	est              counts     // the counters at the last stride estimate
	estNs            int64      // when it was made
	cur              uint64     // the stride
	lastEpoch        int64
	snaps            [budgetSlices + 1]snap // counters at the start of recent slices
	initialized      bool
}

type pad [64]byte

// view is what a reading publishes: the counters at the start of the
// window (the earned share, the grants from it, all grants) and the time.
type view struct {
	okBase, grantBase, allBase atomic.Uint64
	at                         atomic.Int64
}

type counts struct{ ok, fail, denied, grants, all uint64 }

type snap struct {
	epoch int64
	c     counts
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

// load returns the last reading's view: the counters at the start of its
// window and its time (0 before the first reading).
func (b *Adaptive) load() (okBase, grantBase, allBase uint64, at int64) {
	for {
		s := b.seq.Load()
		v := &b.views[s%uint64(len(b.views))]
		okBase, grantBase, allBase, at = v.okBase.Load(), v.grantBase.Load(), v.allBase.Load(), v.at.Load()
		// The slot is rewritten only for seq s+len(views), which is
		// published after s+len(views)-1.
		if b.seq.Load()-s < uint64(len(b.views))-1 {
			return okBase, grantBase, allBase, at
		}
	}
}

// Allow reports whether a retry may be sent now, takes it if so, and
// counts the decision.
func (b *Adaptive) Allow(clock func() time.Time) bool { return b.decide(clock, true) }

// Peek is Allow without taking or counting a grant; a denial is counted.
func (b *Adaptive) Peek(clock func() time.Time) bool { return b.decide(clock, false) }

// decide decides a retry, taking it when take is set.
func (b *Adaptive) decide(clock func() time.Time, take bool) bool {
	if b.grants.Load() >= b.nextGrant.Load() || b.denied.Load() >= b.nextDenied.Load() {
		b.read(clock, false)
	}
	ratio, _, every := b.params()
	okBase, grantBase, _, at := b.load()
	for {
		g := b.grants.Load()
		if float64(g-grantBase)+1 > ratio*float64(b.ok.Load()-okBase) {
			break
		}
		if !take || b.grants.CompareAndSwap(g, g+1) {
			return true
		}
	}
	if every > 0 && b.floorDue(at, every) && b.takeFloor(clock, every, take) {
		return true
	}
	b.denied.Add(1)
	return false
}

// floorDue reports whether the floor may grant a retry as of the reading
// at: never granted yet, or every has passed since.
func (b *Adaptive) floorDue(at int64, every time.Duration) bool {
	last := b.lastFree.Load()
	return last == 0 || at-last >= int64(every)
}

// takeFloor reads the clock and grants a retry from the floor if it is
// due then, taking it when take is set.
func (b *Adaptive) takeFloor(clock func() time.Time, every time.Duration, take bool) bool {
	now := b.read(clock, true)
	last := b.lastFree.Load()
	if last != 0 && now-last < int64(every) {
		return false
	}
	if !take {
		return true
	}
	if !b.lastFree.CompareAndSwap(last, now) {
		return false // another call took it
	}
	b.free.Add(1)
	return true
}

// Record records one attempt's outcome: nil for success. A success earns
// retry share unless it is the outcome of a granted retry (as many
// outcomes as retries were granted in the window are taken for theirs, in
// whatever order they arrive).
func (b *Adaptive) Record(clock func() time.Time, err error) {
	if b.ok.Load() >= b.nextOK.Load() || b.fail.Load() >= b.nextFail.Load() {
		b.read(clock, false)
	}
	if b.grants.Load()+b.free.Load() != b.mark.Load() && b.takeOutcome(err) {
		return
	}
	if err == nil {
		b.ok.Add(1)
	} else {
		b.fail.Add(1)
	}
}

// takeOutcome takes the outcome err for a granted retry, if one in the
// window is still waiting for its outcome, and reports whether it did.
func (b *Adaptive) takeOutcome(err error) bool {
	_, _, allBase, _ := b.load()
	for {
		m := b.mark.Load()
		all := b.grants.Load() + b.free.Load()
		if all <= max(m, allBase) {
			// Every grant left the window with no outcome taken for it:
			// move the mark up so that the next outcomes skip this path.
			if m < all {
				b.mark.CompareAndSwap(m, all)
			}
			return false
		}
		if b.mark.CompareAndSwap(m, max(m, allBase)+1) {
			break
		}
	}
	b.taken.Add(1)
	if err != nil {
		b.takenFail.Add(1)
	}
	return true
}

// read reads the clock and publishes the window as of then; it returns the
// reading in ns. Unless wait is set it leaves the reading to a goroutine
// already taking one, and returns 0.
func (b *Adaptive) read(clock func() time.Time, wait bool) int64 {
	if wait {
		b.mu.Lock()
	} else if !b.mu.TryLock() {
		return 0
	}
	defer b.mu.Unlock()
	now := b.ns(clock())
	_, window, _ := b.params()
	slice := int64(window / budgetSlices)
	e := now / slice
	c := counts{ok: b.ok.Load(), fail: b.fail.Load(), denied: b.denied.Load(), grants: b.grants.Load()}
	c.all = c.grants + b.free.Load()
	if !b.initialized || e > b.lastEpoch {
		// What happened since the last reading is dated then: the slices
		// after the last reading's, up to this one, start with the
		// counters as they are now.
		from := e - budgetSlices
		if b.initialized {
			from = max(from, b.lastEpoch+1)
		}
		for x := from; x <= e; x++ {
			b.snaps[uint64(x)%uint64(len(b.snaps))] = snap{epoch: x, c: c}
		}
		b.lastEpoch = e
	}
	base := b.snaps[uint64(e-budgetSlices+1)%uint64(len(b.snaps))].c
	stride := b.stride(c, now, window)
	b.last, b.lastNs, b.initialized = c, now, true

	n := b.seq.Load() + 1
	v := &b.views[n%uint64(len(b.views))]
	v.okBase.Store(base.ok)
	v.grantBase.Store(base.grants)
	v.allBase.Store(base.all)
	v.at.Store(now)
	b.seq.Store(n)
	// A call that finds a counter at its next value reads the clock
	// before it decides or counts.
	b.nextOK.Store(c.ok + stride - 1)
	b.nextFail.Store(c.fail + stride - 1)
	b.nextDenied.Store(c.denied + stride - 1)
	b.nextGrant.Store(c.grants + min(stride, maxStaleGrants) - 1)
	return now
}

// ns returns t in ns since the Unix epoch, measured on t's monotonic clock
// from the first reading when it has one, and never before the last
// reading. Called with mu held.
func (b *Adaptive) ns(t time.Time) int64 {
	if !b.initialized {
		b.origin, b.originNs = t, t.UnixNano()
		return b.originNs
	}
	return max(b.originNs+int64(t.Sub(b.origin)), b.lastNs)
}

// stride returns how many outcomes of a kind may go before the next
// reading. It is re-estimated once at least window/strideFraction has
// passed since the last estimate: as many outcomes as came in that span at
// the rate measured over it, at least 1 and at most maxStride. Called with
// mu held.
func (b *Adaptive) stride(c counts, now int64, window time.Duration) uint64 {
	span := int64(window / strideFraction)
	if !b.initialized {
		b.est, b.estNs, b.cur = c, now, 1
		return 1
	}
	if elapsed := now - b.estNs; elapsed >= span {
		l := b.est
		events := (c.ok - l.ok) + (c.fail - l.fail) + (c.denied - l.denied) + (c.grants - l.grants)
		b.cur = min(max(uint64(float64(events)*float64(span)/float64(elapsed)), 1), maxStride)
		b.est, b.estNs = c, now
	}
	return b.cur
}

// Tokens reads the clock and returns how many retries the traffic earned
// and not yet spent in the window ending then, not counting the floor.
func (b *Adaptive) Tokens(clock func() time.Time) float64 {
	ratio, _, _ := b.params()
	b.read(clock, true)
	okBase, grantBase, _, _ := b.load()
	earned, retries := b.ok.Load()-okBase, b.grants.Load()-grantBase
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
	ok, fail, taken, takenFail := b.ok.Load(), b.fail.Load(), b.taken.Load(), b.takenFail.Load()
	return ok + fail + taken, fail + takenFail, b.grants.Load() + b.free.Load(), b.denied.Load()
}
