package budget

import (
	"container/list"
	"math"
	"math/rand/v2"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Guard defaults.
const (
	DefaultGuardQueueWait    = 500 * time.Millisecond
	DefaultGuardRetryRatio   = 0.2
	DefaultGuardMinRetryRate = 10
	DefaultGuardRetryWindow  = 10 * time.Second
	DefaultGuardRetryAfter   = 2 * time.Second
)

// maxHeaderTimeout bounds the deadline a caller can announce; longer values
// are treated as this long (they only matter for scheduling anyway).
const maxHeaderTimeout = time.Hour

// GuardConfig configures a Guard or an Admission. The zero value is usable:
// every zero field takes the default named in its comment.
type GuardConfig struct {
	// MaxConcurrent is how many requests may run at once. Zero or negative
	// means 4×GOMAXPROCS; set it to what the service can really do in
	// parallel (connection pool size, worker count).
	MaxConcurrent int
	// MaxQueue is how many requests may wait for a slot. Zero means
	// MaxConcurrent; negative means no queue (shed whatever cannot run at
	// once).
	MaxQueue int
	// MaxQueueWait is the longest a request waits in the queue before it is
	// shed. Zero or negative means 500ms. Keep it well below your callers'
	// timeout: work started after the caller gave up is wasted.
	MaxQueueWait time.Duration
	// RetryRatio caps admitted retries at this fraction of the first tries
	// that arrived over RetryWindow (plus MinRetryRate). Zero or NaN means
	// 0.2 (Envoy's and GEP-3388's default, above a 10% client budget so
	// budgeted clients are never refused by it); negative admits no
	// retries beyond MinRetryRate; +Inf disables the cap.
	RetryRatio float64
	// MinRetryRate is how many retries per second are always admissible,
	// so a quiet server still lets the odd retry through. Zero means 10
	// (Finagle's default reserve); negative means none.
	MinRetryRate float64
	// RetryWindow is the span of the sliding window (10 slices) over which
	// retries and first tries are counted. Zero or negative means 10s.
	RetryWindow time.Duration

	// AttemptHeader names the header carrying the retry number (absent, 0
	// or malformed: a first try). Empty means the AttemptHeader constant;
	// "-" means ignore it (everything is a first try).
	AttemptHeader string
	// TimeoutHeader names the header carrying the caller's remaining
	// deadline in milliseconds. Empty means the TimeoutHeader constant; "-"
	// means ignore it.
	TimeoutHeader string

	// ShedStatus is the status of shed responses. Zero means 503 Service
	// Unavailable; 429 Too Many Requests is the other sensible choice.
	ShedStatus int
	// RetryAfter is the centre of the Retry-After sent with shed responses:
	// each response draws uniformly from the whole seconds in
	// [RetryAfter/2, 3·RetryAfter/2],
	// each rounded to the nearest second (at least 1), so 1s, 2s or 3s by
	// default. Zero or negative means 2s.
	RetryAfter time.Duration

	// Now returns the current time; nil means time.Now. Guard reads it on
	// arrival, when a slot frees and when a wait ends.
	Now func() time.Time
	// Rand returns a uniform number in [0, 1) for the Retry-After jitter;
	// nil means math/rand/v2. It is called with the admission lock held.
	Rand func() float64
	// OnShed, if set, is called (outside any lock) for every request Guard
	// sheds, before the response is written.
	OnShed func(r *http.Request, reason ShedReason)
}

// ShedReason says why a request was shed.
type ShedReason int

const (
	// ShedQueueFull: no slot and no room in the queue, or pushed out of a
	// full queue by a fresher or higher-priority request.
	ShedQueueFull ShedReason = iota + 1
	// ShedRetryBudget: a retry over the server-side retry ratio.
	ShedRetryBudget
	// ShedExpired: the caller's propagated deadline passed before the
	// request could run; it never reaches the handler.
	ShedExpired
	// ShedQueueTimeout: waited MaxQueueWait in the queue without a slot.
	ShedQueueTimeout
	// ShedCanceled: the caller went away (request context done) while the
	// request was queued.
	ShedCanceled
)

// String returns the reason as a metric label: "queue_full",
// "retry_budget", "expired", "queue_timeout" or "canceled".
func (r ShedReason) String() string {
	switch r {
	case ShedQueueFull:
		return "queue_full"
	case ShedRetryBudget:
		return "retry_budget"
	case ShedExpired:
		return "expired"
	case ShedQueueTimeout:
		return "queue_timeout"
	case ShedCanceled:
		return "canceled"
	}
	return "ShedReason(" + strconv.Itoa(int(r)) + ")"
}

// TicketStatus is where a request stands in an Admission.
type TicketStatus int

const (
	// TicketQueued: waiting for a slot.
	TicketQueued TicketStatus = iota + 1
	// TicketRunning: holds a slot; call Admission.Done when it finishes.
	TicketRunning
	// TicketShed: refused; Reason says why. It holds no slot.
	TicketShed
	// TicketDone: ran and released its slot.
	TicketDone
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
	status TicketStatus
	reason ShedReason
	elem   *list.Element
}

// Status returns the ticket's status and, when shed, the reason.
func (t *Ticket) Status() (TicketStatus, ShedReason) {
	t.a.mu.Lock()
	defer t.a.mu.Unlock()
	return t.status, t.reason
}

// GuardStats are an Admission's counters since it was created, plus two
// gauges. Every arrival ends up admitted (run) or shed, or is still queued or
// running.
type GuardStats struct {
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
func (s GuardStats) Shed() uint64 {
	return s.ShedQueueFull + s.ShedRetryBudget + s.ShedExpired + s.ShedQueueTimeout + s.ShedCanceled
}

// RetryRatio returns admitted retries / admitted requests (0 when none).
func (s GuardStats) RetryRatio() float64 {
	if s.Admitted == 0 {
		return 0
	}
	return float64(s.AdmittedRetries) / float64(s.Admitted)
}

// String formats the counters on one line.
func (s GuardStats) String() string {
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
		r ShedReason
	}{{s.ShedQueueFull, ShedQueueFull}, {s.ShedRetryBudget, ShedRetryBudget}, {s.ShedExpired, ShedExpired}, {s.ShedQueueTimeout, ShedQueueTimeout}, {s.ShedCanceled, ShedCanceled}} {
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

const guardSlices = 10

type guardSlice struct {
	epoch          int64
	first, retries float64
}

// Admission is the scheduling core of Guard without any HTTP or clock: every
// method takes the current time, so a simulation can drive it with a virtual
// clock and get exactly the decisions the middleware makes. It is safe for
// concurrent use.
//
// Life of a request: Arrive returns a Ticket that is running, queued or shed.
// A running ticket must be handed back with Done when its work ends; Done
// starts the next queued ticket, if any. A queued ticket leaves the queue
// when Done picks it, when a fresher request pushes it out (Arrive returns
// it as evicted), or when its owner gives up on it with Cancel, which it
// should do at Ticket's WaitLimit.
type Admission struct {
	mu  sync.Mutex
	cfg GuardConfig // resolved

	maxConc, maxQueue int
	running           int
	first, retries    list.List // queued tickets, oldest at Front
	slices            [guardSlices]guardSlice
	stats             GuardStats
}

// NewAdmission returns an Admission with cfg's limits (zero fields take the
// defaults documented on GuardConfig; the HTTP fields are ignored).
func NewAdmission(cfg GuardConfig) *Admission {
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
		cfg.MaxQueueWait = DefaultGuardQueueWait
	}
	if cfg.RetryRatio == 0 || math.IsNaN(cfg.RetryRatio) {
		cfg.RetryRatio = DefaultGuardRetryRatio
	}
	if cfg.RetryRatio < 0 {
		cfg.RetryRatio = 0
	}
	switch {
	case cfg.MinRetryRate == 0 || math.IsNaN(cfg.MinRetryRate):
		cfg.MinRetryRate = DefaultGuardMinRetryRate
	case cfg.MinRetryRate < 0:
		cfg.MinRetryRate = 0
	}
	if cfg.RetryWindow <= 0 {
		cfg.RetryWindow = DefaultGuardRetryWindow
	}
	if cfg.RetryWindow < guardSlices {
		cfg.RetryWindow = guardSlices // one nanosecond per slice at least
	}
	if cfg.RetryAfter <= 0 {
		cfg.RetryAfter = DefaultGuardRetryAfter
	}
	if cfg.ShedStatus == 0 {
		cfg.ShedStatus = http.StatusServiceUnavailable
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
func (a *Admission) Config() GuardConfig { return a.cfg }

// Arrive registers a request arriving at now: retry says whether the caller
// marked it as a retry, deadline is when the caller stops waiting (zero:
// unknown). The returned ticket is running (go ahead, then call Done),
// queued (wait until Done picks it or WaitLimit passes) or shed (answer at
// once; Status gives the reason). evicted, when not nil, is a queued ticket
// pushed out to make room, now shed with ShedQueueFull; its owner must be
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
		a.shedLocked(t, ShedExpired)
		return t, nil
	}
	s := a.sliceLocked(now)
	if retry {
		f, r := a.windowLocked(now)
		if r+1 > a.cfg.RetryRatio*f+a.cfg.MinRetryRate*a.cfg.RetryWindow.Seconds() {
			a.shedLocked(t, ShedRetryBudget)
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
			a.shedLocked(t, ShedQueueFull)
			return t, nil
		}
		evicted = victim.Value.(*Ticket)
		a.unqueueLocked(evicted)
		a.shedLocked(evicted, ShedQueueFull)
	}
	t.status = TicketQueued
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
// shed (ShedExpired, ShedQueueTimeout) and returned in dropped; their
// owners must be told. next, when not nil, is now running. Done on a ticket
// that is not running does nothing.
func (a *Admission) Done(now time.Time, t *Ticket) (next *Ticket, dropped []*Ticket) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if t.status != TicketRunning {
		return nil, nil
	}
	t.status = TicketDone
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
			a.shedLocked(c, ShedExpired)
			dropped = append(dropped, c)
		case now.Sub(c.Arrived) >= a.cfg.MaxQueueWait:
			a.shedLocked(c, ShedQueueTimeout)
			dropped = append(dropped, c)
		default:
			a.runLocked(c)
			return c, dropped
		}
	}
	return nil, dropped
}

// Cancel takes a queued ticket out of the queue at now, shedding it as
// ShedExpired when its deadline has passed, ShedCanceled when canceled is
// true, ShedQueueTimeout otherwise. It reports whether it did: false means
// the ticket had already left the queue (it runs, or was shed) and its owner
// will be or has been told by whoever moved it.
func (a *Admission) Cancel(now time.Time, t *Ticket, canceled bool) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if t.status != TicketQueued {
		return false
	}
	a.unqueueLocked(t)
	switch {
	case !t.Deadline.IsZero() && !t.Deadline.After(now):
		a.shedLocked(t, ShedExpired)
	case canceled:
		a.shedLocked(t, ShedCanceled)
	default:
		a.shedLocked(t, ShedQueueTimeout)
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
func (a *Admission) Stats() GuardStats {
	a.mu.Lock()
	defer a.mu.Unlock()
	s := a.stats
	s.Running = a.running
	s.QueueLen = a.first.Len() + a.retries.Len()
	return s
}

func (a *Admission) runLocked(t *Ticket) {
	t.status = TicketRunning
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

func (a *Admission) shedLocked(t *Ticket, r ShedReason) {
	t.status, t.reason = TicketShed, r
	if t.Retry {
		a.stats.ShedRetries++
	}
	switch r {
	case ShedQueueFull:
		a.stats.ShedQueueFull++
	case ShedRetryBudget:
		a.stats.ShedRetryBudget++
	case ShedExpired:
		a.stats.ShedExpired++
	case ShedQueueTimeout:
		a.stats.ShedQueueTimeout++
	case ShedCanceled:
		a.stats.ShedCanceled++
	}
}

func (a *Admission) epoch(now time.Time) int64 {
	return now.UnixNano() / int64(a.cfg.RetryWindow/guardSlices)
}

// sliceLocked returns the window slice for now, recycling a stale one.
func (a *Admission) sliceLocked(now time.Time) *guardSlice {
	e := a.epoch(now)
	s := &a.slices[int(uint64(e)%guardSlices)]
	if s.epoch != e {
		*s = guardSlice{epoch: e}
	}
	return s
}

// windowLocked returns the first tries and admitted retries counted in the
// window ending at now.
func (a *Admission) windowLocked(now time.Time) (first, retries float64) {
	e := a.epoch(now)
	for i := range a.slices {
		s := &a.slices[i]
		if s.epoch > e-guardSlices && s.epoch <= e {
			first += s.first
			retries += s.retries
		}
	}
	return first, retries
}

// Guard is server-side load shedding and admission control: an
// http.Handler middleware (NewGuard, then Wrap) that keeps a service serving
// fresh requests near its capacity while it is overloaded, instead of
// working through a backlog for callers that have given up.
//
// A retry budget caps what the clients you own send; a circuit breaker stops
// them calling a dependency that is down. Neither does anything for a storm
// from clients you do not own, nor for the backlog a stall leaves behind:
// that is the server's job, and Guard's. (GUARDRAILS.md compares the three
// with the numbers of the retrystorm simulation.) A Guard
//
//   - runs at most MaxConcurrent requests at once and parks the excess in a
//     bounded queue (MaxQueue entries, at most MaxQueueWait each), so a
//     burst is absorbed briefly and work never piles up unbounded;
//   - serves the queue newest first (LIFO), first tries before retries: a
//     fresh first try is the request whose caller most likely still waits,
//     a retry is extra load, and the oldest entry is the one whose caller
//     most likely gave up. When the queue is full the oldest retry (else,
//     for an arriving first try, the oldest first try) is shed to make room;
//   - drops, without running it, a request whose propagated deadline (the
//     TimeoutHeader, remaining milliseconds counted from arrival) has
//     passed: work for a caller that has gone is what turns a two-second
//     stall into a latched outage;
//   - admits retries (AttemptHeader > 0) only while they stay under
//     RetryRatio of the first tries that arrived over a sliding window
//     (default 20% over 10 s, plus MinRetryRate per second): a server-side
//     retry budget for clients without one. It applies whether or not a
//     slot is free;
//   - answers every request it sheds at once with ShedStatus (503 by
//     default) and a jittered Retry-After (1–3 s by default), so shed
//     callers neither hang nor come back in lockstep.
//
// The headers are hints any client can forge, used for scheduling only:
// they decide order and early drops, never authorization and never how long
// a handler may run (the handler's context is not given the caller's
// deadline). Malformed values count as "first try, no deadline"; announced
// deadlines beyond an hour count as an hour.
//
// Set MaxQueueWait below your callers' timeout, MaxConcurrent to what the
// service can really do in parallel. The decisions are made by Admission, a
// clock-free core that takes the time as an argument; Guard drives it with
// GuardConfig.Now (the wall clock by default; waits use real timers) and
// the retrystorm simulation drives the same code on a virtual clock.
//
// One Guard's limits are shared by every handler it wraps. Stats returns
// its counters: admitted, queued, shed by reason, retry ratio.
type Guard struct {
	adm                          *Admission
	now                          func() time.Time
	attemptHeader, timeoutHeader string
	status                       int
	onShed                       func(*http.Request, ShedReason)
}

// NewGuard returns a Guard with cfg's limits; the zero GuardConfig gives
// 4×GOMAXPROCS concurrent requests, as many queued for at most 500ms, and
// retries held to 20% of first tries.
func NewGuard(cfg GuardConfig) *Guard {
	g := &Guard{
		adm:           NewAdmission(cfg),
		now:           cfg.Now,
		attemptHeader: headerName(cfg.AttemptHeader, AttemptHeader),
		timeoutHeader: headerName(cfg.TimeoutHeader, TimeoutHeader),
		onShed:        cfg.OnShed,
	}
	g.status = g.adm.cfg.ShedStatus
	if g.now == nil {
		g.now = time.Now
	}
	return g
}

// Admission returns the guard's scheduling core (for its stats and limits).
func (g *Guard) Admission() *Admission { return g.adm }

// Stats returns a snapshot of the guard's counters.
func (g *Guard) Stats() GuardStats { return g.adm.Stats() }

// Wrap returns a handler that runs h under the guard's admission control.
// Shed requests never reach h: they get ShedStatus with a Retry-After and a
// one-line text body.
func (g *Guard) Wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		now := g.now()
		retry, deadline := g.classify(r, now)
		wake := make(chan struct{})
		t, evicted := g.adm.Arrive(now, retry, deadline, wake)
		signal(evicted)
		st, reason := t.Status()
		if st == TicketQueued {
			st, reason = g.wait(r, t, wake)
		}
		if st != TicketRunning {
			g.shed(w, r, reason)
			return
		}
		defer func() {
			next, dropped := g.adm.Done(g.now(), t)
			signal(next)
			for _, d := range dropped {
				signal(d)
			}
		}()
		h.ServeHTTP(w, r)
	})
}

// wait blocks until queued ticket t is started or shed, its wait limit
// passes, or the request is canceled, and returns its final status.
func (g *Guard) wait(r *http.Request, t *Ticket, wake chan struct{}) (TicketStatus, ShedReason) {
	d := g.adm.WaitLimit(t).Sub(g.now())
	if d < 0 {
		d = 0
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-wake:
	case <-timer.C:
		if !g.adm.Cancel(g.now(), t, false) {
			<-wake // lost the race: whoever moved t closes wake
		}
	case <-r.Context().Done():
		if !g.adm.Cancel(g.now(), t, true) {
			<-wake
		}
	}
	return t.Status()
}

// signal tells the owner of a ticket that left the queue.
func signal(t *Ticket) {
	if t == nil {
		return
	}
	if ch, ok := t.Value.(chan struct{}); ok {
		close(ch)
	}
}

// classify reads the scheduling hints. Malformed or absent headers mean a
// first try without a deadline; a non-positive timeout means the caller has
// already given up.
func (g *Guard) classify(r *http.Request, now time.Time) (retry bool, deadline time.Time) {
	if g.attemptHeader != "" {
		if v := r.Header.Get(g.attemptHeader); v != "" {
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			retry = err == nil && n > 0
		}
	}
	if g.timeoutHeader != "" {
		if v := r.Header.Get(g.timeoutHeader); v != "" {
			if ms, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil {
				d := maxHeaderTimeout
				if ms < int64(maxHeaderTimeout/time.Millisecond) {
					d = time.Duration(ms) * time.Millisecond
				}
				if d <= 0 {
					deadline = now
				} else {
					deadline = now.Add(d)
				}
			}
		}
	}
	return retry, deadline
}

func (g *Guard) shed(w http.ResponseWriter, r *http.Request, reason ShedReason) {
	if g.onShed != nil {
		g.onShed(r, reason)
	}
	h := w.Header()
	h.Set("Retry-After", strconv.FormatInt(int64(g.adm.RetryAfter()/time.Second), 10))
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(g.status)
	_, _ = w.Write([]byte("overloaded: request shed (" + reason.String() + ")\n"))
}
