// Package admission is the scheduling core of the shed package's Guard,
// without any HTTP or clock: every method takes the current time, so the
// retrystorm simulation (module budget/tools) drives it with a virtual clock
// and gets exactly the decisions the middleware makes.
package admission

import (
	"container/list"
	"math"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Defaults of a zero Config, documented on shed.Config.
const (
	DefaultQueueWait    = 500 * time.Millisecond
	DefaultRetryRatio   = 0.2
	DefaultMinRetryRate = 10
	DefaultRetryWindow  = 10 * time.Second
	DefaultRetryAfter   = 2 * time.Second
)

// Config holds an Admission's limits; shed.Config documents each field.
// Zero fields take the defaults.
type Config struct {
	MaxConcurrent int
	MaxQueue      int
	MaxQueueWait  time.Duration
	RetryRatio    float64
	MinRetryRate  float64
	RetryWindow   time.Duration
	RetryAfter    time.Duration
	Rand          func() float64 // called with the admission lock held
}

// Reason says why a request was shed.
type Reason int

const (
	// QueueFull: no slot and no room in the queue, or pushed out of a
	// full queue by a fresher or higher-priority request.
	QueueFull Reason = iota + 1
	// RetryBudget: a retry over the server-side retry ratio.
	RetryBudget
	// Expired: the caller's propagated deadline passed before the
	// request could run; it never reaches the handler.
	Expired
	// QueueTimeout: waited MaxQueueWait in the queue without a slot.
	QueueTimeout
	// Canceled: the caller went away (request context done) while the
	// request was queued.
	Canceled
)

// String returns the reason as a metric label: "queue_full",
// "retry_budget", "expired", "queue_timeout" or "canceled".
func (r Reason) String() string {
	switch r {
	case QueueFull:
		return "queue_full"
	case RetryBudget:
		return "retry_budget"
	case Expired:
		return "expired"
	case QueueTimeout:
		return "queue_timeout"
	case Canceled:
		return "canceled"
	}
	return "Reason(" + strconv.Itoa(int(r)) + ")"
}

// Status is where a request stands in an Admission.
type Status int

const (
	// Queued: waiting for a slot.
	Queued Status = iota + 1
	// Running: holds a slot; call Admission.Done when it finishes.
	Running
	// Shed: refused; Reason says why. It holds no slot.
	Shed
	// Done: ran and released its slot.
	Done
)

// Ticket is one request inside an Admission.
type Ticket struct {
	// Retry, Arrived and Deadline are what the request was admitted with;
	// a zero Deadline means none. They never change.
	Retry    bool
	Arrived  time.Time
	Deadline time.Time
	// Value is the caller's, passed to Arrive; Admission never looks at it.
	Value any

	a      *Admission
	status Status
	reason Reason
	elem   *list.Element
}

// Status returns the ticket's status and, when shed, the reason.
func (t *Ticket) Status() (Status, Reason) {
	t.a.mu.Lock()
	defer t.a.mu.Unlock()
	return t.status, t.reason
}

// Stats are an Admission's counters since it was created, plus two
// gauges; package shed exports it as shed.Stats. Every arrival ends up
// admitted (run) or shed, or is still queued or running.
type Stats struct {
	FirstTries      uint64 // first tries that arrived
	Retries         uint64 // retries that arrived
	Admitted        uint64 // requests that got a slot (ran), first tries and retries
	AdmittedRetries uint64 // retries among Admitted
	Queued          uint64 // requests that had to wait in the queue (then ran or were shed)

	ShedQueueFull    uint64
	ShedRetryBudget  uint64
	ShedExpired      uint64
	ShedQueueTimeout uint64
	ShedCanceled     uint64
	ShedRetries      uint64 // retries among the shed, whatever the reason

	Running  int // requests holding a slot now
	QueueLen int // requests waiting now
}

// Shed returns the total number of shed requests.
func (s Stats) Shed() uint64 {
	return s.ShedQueueFull + s.ShedRetryBudget + s.ShedExpired + s.ShedQueueTimeout + s.ShedCanceled
}

// RetryRatio returns admitted retries / admitted requests (0 when none).
func (s Stats) RetryRatio() float64 {
	if s.Admitted == 0 {
		return 0
	}
	return float64(s.AdmittedRetries) / float64(s.Admitted)
}

// String formats the counters on one line.
func (s Stats) String() string {
	var b strings.Builder
	b.WriteString("first=")
	b.WriteString(strconv.FormatUint(s.FirstTries, 10))
	b.WriteString(" retries=")
	b.WriteString(strconv.FormatUint(s.Retries, 10))
	b.WriteString(" admitted=")
	b.WriteString(strconv.FormatUint(s.Admitted, 10))
	b.WriteString(" admitted_retries=")
	b.WriteString(strconv.FormatUint(s.AdmittedRetries, 10))
	b.WriteString(" queued=")
	b.WriteString(strconv.FormatUint(s.Queued, 10))
	for _, r := range []struct {
		n uint64
		r Reason
	}{{s.ShedQueueFull, QueueFull}, {s.ShedRetryBudget, RetryBudget}, {s.ShedExpired, Expired}, {s.ShedQueueTimeout, QueueTimeout}, {s.ShedCanceled, Canceled}} {
		b.WriteString(" shed_")
		b.WriteString(r.r.String())
		b.WriteByte('=')
		b.WriteString(strconv.FormatUint(r.n, 10))
	}
	b.WriteString(" shed_retries=")
	b.WriteString(strconv.FormatUint(s.ShedRetries, 10))
	b.WriteString(" retry_ratio=")
	b.WriteString(strconv.FormatFloat(s.RetryRatio(), 'f', 3, 64))
	return b.String()
}

const nslices = 10

type slice struct {
	epoch          int64
	first, retries float64
}

// Admission decides, for each request that arrives, whether it runs now,
// waits in the queue or is shed. It is safe for concurrent use.
//
// Life of a request: Arrive returns a Ticket that is running, queued or shed.
// A running ticket must be handed back with Done when its work ends; Done
// starts the next queued ticket, if any. A queued ticket leaves the queue
// when Done picks it, when a fresher request pushes it out (Arrive returns
// it as evicted), or when its owner gives up on it with Cancel, which it
// should do at Ticket's WaitLimit.
type Admission struct {
	mu  sync.Mutex
	cfg Config // resolved

	maxConc, maxQueue int
	running           int
	first, retries    list.List // queued tickets, oldest at Front
	slices            [nslices]slice
	stats             Stats
}

// New returns an Admission with cfg's limits; zero fields take the
// defaults.
func New(cfg Config) *Admission {
	if cfg.MaxConcurrent <= 0 {
		cfg.MaxConcurrent = 4 * runtime.GOMAXPROCS(0)
	}
	switch {
	case cfg.MaxQueue == 0:
		cfg.MaxQueue = cfg.MaxConcurrent
	case cfg.MaxQueue < 0:
		cfg.MaxQueue = 0
	}
	if cfg.MaxQueueWait <= 0 {
		cfg.MaxQueueWait = DefaultQueueWait
	}
	if cfg.RetryRatio == 0 || math.IsNaN(cfg.RetryRatio) {
		cfg.RetryRatio = DefaultRetryRatio
	}
	if cfg.RetryRatio < 0 {
		cfg.RetryRatio = 0
	}
	switch {
	case cfg.MinRetryRate == 0 || math.IsNaN(cfg.MinRetryRate):
		cfg.MinRetryRate = DefaultMinRetryRate
	case cfg.MinRetryRate < 0:
		cfg.MinRetryRate = 0
	}
	if cfg.RetryWindow <= 0 {
		cfg.RetryWindow = DefaultRetryWindow
	}
	if cfg.RetryWindow < nslices {
		cfg.RetryWindow = nslices // one nanosecond per slice at least
	}
	if cfg.RetryAfter <= 0 {
		cfg.RetryAfter = DefaultRetryAfter
	}
	if cfg.Rand == nil {
		cfg.Rand = rand.Float64
	}
	a := &Admission{cfg: cfg, maxConc: cfg.MaxConcurrent, maxQueue: cfg.MaxQueue}
	a.first.Init()
	a.retries.Init()
	return a
}

// Config returns the configuration with the defaults filled in.
func (a *Admission) Config() Config { return a.cfg }

// Arrive registers a request arriving at now: retry says whether the caller
// marked it as a retry, deadline is when the caller stops waiting (zero:
// unknown). The returned ticket is running (go ahead, then call Done),
// queued (wait until Done picks it or WaitLimit passes) or shed (answer at
// once; Status gives the reason). evicted, when not nil, is a queued ticket
// pushed out to make room, now shed with QueueFull; its owner must be
// told.
func (a *Admission) Arrive(now time.Time, retry bool, deadline time.Time, value any) (t, evicted *Ticket) {
	t = &Ticket{Retry: retry, Arrived: now, Deadline: deadline, Value: value, a: a}
	a.mu.Lock()
	defer a.mu.Unlock()
	if retry {
		a.stats.Retries++
	} else {
		a.stats.FirstTries++
	}
	if !deadline.IsZero() && !deadline.After(now) {
		a.shedLocked(t, Expired)
		return t, nil
	}
	s := a.sliceLocked(now)
	if retry {
		f, r := a.windowLocked(now)
		if r+1 > a.cfg.RetryRatio*f+a.cfg.MinRetryRate*a.cfg.RetryWindow.Seconds() {
			a.shedLocked(t, RetryBudget)
			return t, nil
		}
	} else {
		s.first++
	}
	if a.running < a.maxConc {
		a.runLocked(t)
		if retry {
			s.retries++
		}
		return t, nil
	}
	if a.first.Len()+a.retries.Len() >= a.maxQueue {
		// Full: make room by dropping the oldest retry, else (for a first
		// try) the oldest first try; a retry never pushes out a first try.
		var victim *list.Element
		switch {
		case a.retries.Len() > 0:
			victim = a.retries.Front()
		case !retry && a.first.Len() > 0:
			victim = a.first.Front()
		}
		if victim == nil {
			a.shedLocked(t, QueueFull)
			return t, nil
		}
		evicted = victim.Value.(*Ticket)
		a.unqueueLocked(evicted)
		a.shedLocked(evicted, QueueFull)
	}
	t.status = Queued
	a.stats.Queued++
	if retry {
		s.retries++ // spends the retry allowance even if it never gets a slot
		t.elem = a.retries.PushBack(t)
	} else {
		t.elem = a.first.PushBack(t)
	}
	return t, evicted
}

// WaitLimit returns when a queued ticket must leave the queue if no slot
// came: MaxQueueWait after arrival, or its deadline if sooner.
func (a *Admission) WaitLimit(t *Ticket) time.Time {
	limit := t.Arrived.Add(a.cfg.MaxQueueWait)
	if !t.Deadline.IsZero() && t.Deadline.Before(limit) {
		limit = t.Deadline
	}
	return limit
}

// Done releases the slot of running ticket t at now and gives it to the
// best queued ticket: the newest first try, else the newest retry. Queued
// tickets found past their deadline or their MaxQueueWait on the way are
// shed (Expired, QueueTimeout) and returned in dropped; their
// owners must be told. next, when not nil, is now running. Done on a ticket
// that is not running does nothing.
func (a *Admission) Done(now time.Time, t *Ticket) (next *Ticket, dropped []*Ticket) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if t.status != Running {
		return nil, nil
	}
	t.status = Done
	a.running--
	for a.running < a.maxConc {
		e := a.first.Back()
		if e == nil {
			e = a.retries.Back()
		}
		if e == nil {
			break
		}
		c := e.Value.(*Ticket)
		a.unqueueLocked(c)
		switch {
		case !c.Deadline.IsZero() && !c.Deadline.After(now):
			a.shedLocked(c, Expired)
			dropped = append(dropped, c)
		case now.Sub(c.Arrived) >= a.cfg.MaxQueueWait:
			a.shedLocked(c, QueueTimeout)
			dropped = append(dropped, c)
		default:
			a.runLocked(c)
			return c, dropped
		}
	}
	return nil, dropped
}

// Cancel takes a queued ticket out of the queue at now, shedding it as
// Expired when its deadline has passed, Canceled when canceled is
// true, QueueTimeout otherwise. It reports whether it did: false means
// the ticket had already left the queue (it runs, or was shed) and its owner
// will be or has been told by whoever moved it.
func (a *Admission) Cancel(now time.Time, t *Ticket, canceled bool) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if t.status != Queued {
		return false
	}
	a.unqueueLocked(t)
	switch {
	case !t.Deadline.IsZero() && !t.Deadline.After(now):
		a.shedLocked(t, Expired)
	case canceled:
		a.shedLocked(t, Canceled)
	default:
		a.shedLocked(t, QueueTimeout)
	}
	return true
}

// RetryAfter draws the jittered Retry-After for a shed response: uniform
// over the whole seconds from RetryAfter/2 to 3·RetryAfter/2, each rounded
// to the nearest second and at least 1s. With the default of 2s it is 1s,
// 2s or 3s, each a third of the time, mean 2s.
func (a *Admission) RetryAfter() time.Duration {
	a.mu.Lock()
	r := a.cfg.Rand()
	a.mu.Unlock()
	if !(r >= 0 && r < 1) {
		r = 0.5
	}
	round := func(d time.Duration) int64 {
		s := int64((d + time.Second/2) / time.Second)
		return max(s, 1)
	}
	lo, hi := round(a.cfg.RetryAfter/2), round(a.cfg.RetryAfter*3/2)
	secs := lo + int64(r*float64(hi-lo+1))
	if secs > hi {
		secs = hi
	}
	return time.Duration(secs) * time.Second
}

// Stats returns a snapshot of the counters.
func (a *Admission) Stats() Stats {
	a.mu.Lock()
	defer a.mu.Unlock()
	s := a.stats
	s.Running = a.running
	s.QueueLen = a.first.Len() + a.retries.Len()
	return s
}

func (a *Admission) runLocked(t *Ticket) {
	t.status = Running
	a.running++
	a.stats.Admitted++
	if t.Retry {
		a.stats.AdmittedRetries++
	}
}

func (a *Admission) unqueueLocked(t *Ticket) {
	if t.Retry {
		a.retries.Remove(t.elem)
	} else {
		a.first.Remove(t.elem)
	}
	t.elem = nil
}

func (a *Admission) shedLocked(t *Ticket, r Reason) {
	t.status, t.reason = Shed, r
	if t.Retry {
		a.stats.ShedRetries++
	}
	switch r {
	case QueueFull:
		a.stats.ShedQueueFull++
	case RetryBudget:
		a.stats.ShedRetryBudget++
	case Expired:
		a.stats.ShedExpired++
	case QueueTimeout:
		a.stats.ShedQueueTimeout++
	case Canceled:
		a.stats.ShedCanceled++
	}
}

func (a *Admission) epoch(now time.Time) int64 {
	return now.UnixNano() / int64(a.cfg.RetryWindow/nslices)
}

// sliceLocked returns the window slice for now, recycling a stale one.
func (a *Admission) sliceLocked(now time.Time) *slice {
	e := a.epoch(now)
	s := &a.slices[int(uint64(e)%nslices)]
	if s.epoch != e {
		*s = slice{epoch: e}
	}
	return s
}

// windowLocked returns the first tries and admitted retries counted in the
// window ending at now.
func (a *Admission) windowLocked(now time.Time) (first, retries float64) {
	e := a.epoch(now)
	for i := range a.slices {
		s := &a.slices[i]
		if s.epoch > e-nslices && s.epoch <= e {
			first += s.first
			retries += s.retries
		}
	}
	return first, retries
}
