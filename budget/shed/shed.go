// Package shed is server-side load shedding: Guard, an http.Handler
// middleware that keeps a service serving fresh requests near its capacity
// while it is overloaded, instead of working through a backlog for callers
// that have given up.
//
// It is the server's half of the guardrails of package budget. A retry
// budget caps what the clients you own send, and a circuit breaker stops
// them calling a dependency that is down; neither does anything for a storm
// from clients you do not own, nor for the backlog a stall leaves behind.
// A Guard runs at most MaxConcurrent requests and queues at most MaxQueue
// more for at most MaxQueueWait (500 ms by default, to be set below the
// callers' timeout), serves the queue newest first and first tries before
// retries (by budget.AttemptHeader), drops a request whose propagated
// deadline (budget.TimeoutHeader) has passed without running it, admits
// retries only up to 20% of first tries over 10 s plus 10 a second, and
// answers what it sheds at once with 503 and a jittered Retry-After of 1 to
// 3 s, which budget.Transport honours.
//
// In the seed's drill (budget/README.md, simulated by module budget/tools
// on the same admission code) a Guard in front of the service brings even
// naive retrying clients back 0.8 s after a 2 s stall that latches the
// plain server; with budgeted clients it is back at once.
//
// The Guard reads the wall clock and waits with real timers; tests run it
// on fake time under testing/synctest.
package shed

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/retrylint/retrylint/budget"
	"github.com/retrylint/retrylint/budget/internal/admission"
	"github.com/retrylint/retrylint/budget/internal/header"
)

// Defaults of a zero Config.
const (
	// DefaultQueueWait is the longest a request waits for a slot.
	DefaultQueueWait = 500 * time.Millisecond
	// DefaultRetryRatio is the share of first tries that retries may be.
	DefaultRetryRatio = 0.2
	// DefaultMinRetryRate is how many retries a second are admissible
	// whatever the ratio.
	DefaultMinRetryRate = 10
	// DefaultRetryWindow is the span over which retries and first tries
	// are counted.
	DefaultRetryWindow = 10 * time.Second
	// DefaultRetryAfter is the centre of the jittered Retry-After.
	DefaultRetryAfter = 2 * time.Second
)

// maxHeaderTimeout bounds the deadline a caller can announce; longer values
// are treated as this long (they only matter for scheduling anyway).
const maxHeaderTimeout = time.Hour

// Config configures a Guard. The zero value is usable: every zero field
// takes the default named in its comment.
type Config struct {
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
	// or malformed: a first try). Empty means budget.AttemptHeader;
	// "-" means ignore it (everything is a first try).
	AttemptHeader string
	// TimeoutHeader names the header carrying the caller's remaining
	// deadline in milliseconds. Empty means budget.TimeoutHeader; "-"
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

	// Rand returns a uniform number in [0, 1) for the Retry-After jitter;
	// nil means math/rand/v2. It is called with the admission lock held.
	Rand func() float64
	// OnShed, if set, is called (outside any lock) for every request Guard
	// sheds, before the response is written.
	OnShed func(r *http.Request, reason Reason)
}

// Reason says why a request was shed.
type Reason int

// The reasons, the admission core's own.
const (
	// QueueFull: no slot and no room in the queue, or pushed out of a
	// full queue by a fresher or higher-priority request.
	QueueFull = Reason(admission.QueueFull)
	// RetryBudget: a retry over the server-side retry ratio.
	RetryBudget = Reason(admission.RetryBudget)
	// Expired: the caller's propagated deadline passed before the
	// request could run; it never reaches the handler.
	Expired = Reason(admission.Expired)
	// QueueTimeout: waited MaxQueueWait in the queue without a slot.
	QueueTimeout = Reason(admission.QueueTimeout)
	// Canceled: the caller went away (request context done) while the
	// request was queued.
	Canceled = Reason(admission.Canceled)
)

// String returns the reason as a metric label: "queue_full",
// "retry_budget", "expired", "queue_timeout" or "canceled".
func (r Reason) String() string { return admission.Reason(r).String() }

// Stats are a Guard's counters since it was created, plus two gauges.
// Every arrival ends up admitted (run) or shed, or is still queued or
// running. The type is the admission core's, so that the counters are
// defined once: FirstTries and Retries count arrivals; Admitted (first
// tries and retries that got a slot), AdmittedRetries and Queued (had to
// wait, then ran or were shed); ShedQueueFull, ShedRetryBudget,
// ShedExpired, ShedQueueTimeout and ShedCanceled count the shed by
// Reason, ShedRetries the retries among them; Running and QueueLen are
// the requests holding a slot and waiting now. Its methods: Shed (the
// total shed), RetryRatio (admitted retries / admitted requests, 0 when
// none) and String (the counters on one line).
type Stats = admission.Stats

// Guard is server-side load shedding and admission control: an
// http.Handler middleware (New, then Wrap) that keeps a service serving
// fresh requests near its capacity while it is overloaded, instead of
// working through a backlog for callers that have given up.
//
// A retry budget caps what the clients you own send; a circuit breaker stops
// them calling a dependency that is down. Neither does anything for a storm
// from clients you do not own, nor for the backlog a stall leaves behind:
// that is the server's job, and Guard's. (budget/GUARDRAILS.md compares the
// three with the numbers of the retrystorm simulation.) A Guard
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
// service can really do in parallel. The decisions are made by a
// clock-free core that takes the time as an argument; Guard drives it with
// the wall clock and real timers, and the retrystorm simulation drives the
// same code on a virtual clock.
//
// One Guard's limits are shared by every handler it wraps. Stats returns
// its counters: admitted, queued, shed by reason, retry ratio.
type Guard struct {
	adm                          *admission.Admission
	attemptHeader, timeoutHeader string
	status                       int
	onShed                       func(*http.Request, Reason)
}

// New returns a Guard with cfg's limits; the zero Config gives 4×GOMAXPROCS
// concurrent requests, as many queued for at most 500ms, and retries held
// to 20% of first tries.
func New(cfg Config) *Guard {
	g := &Guard{
		adm: admission.New(admission.Config{
			MaxConcurrent: cfg.MaxConcurrent,
			MaxQueue:      cfg.MaxQueue,
			MaxQueueWait:  cfg.MaxQueueWait,
			RetryRatio:    cfg.RetryRatio,
			MinRetryRate:  cfg.MinRetryRate,
			RetryWindow:   cfg.RetryWindow,
			RetryAfter:    cfg.RetryAfter,
			Rand:          cfg.Rand,
		}),
		attemptHeader: header.Name(cfg.AttemptHeader, budget.AttemptHeader),
		timeoutHeader: header.Name(cfg.TimeoutHeader, budget.TimeoutHeader),
		status:        cfg.ShedStatus,
		onShed:        cfg.OnShed,
	}
	if g.status == 0 {
		g.status = http.StatusServiceUnavailable
	}
	return g
}

// Stats returns a snapshot of the guard's counters.
func (g *Guard) Stats() Stats { return g.adm.Stats() }

// Wrap returns a handler that runs h under the guard's admission control.
// Shed requests never reach h: they get ShedStatus with a Retry-After and a
// one-line text body.
func (g *Guard) Wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		now := time.Now()
		retry, deadline := g.classify(r, now)
		wake := make(chan struct{})
		t, evicted := g.adm.Arrive(now, retry, deadline, wake)
		signal(evicted)
		st, reason := t.Status()
		if st == admission.Queued {
			st, reason = g.wait(r, t, wake)
		}
		if st != admission.Running {
			g.shed(w, r, Reason(reason))
			return
		}
		defer func() {
			next, dropped := g.adm.Done(time.Now(), t)
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
func (g *Guard) wait(r *http.Request, t *admission.Ticket, wake chan struct{}) (admission.Status, admission.Reason) {
	d := time.Until(g.adm.WaitLimit(t))
	if d < 0 {
		d = 0
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-wake:
	case <-timer.C:
		if !g.adm.Cancel(time.Now(), t, false) {
			<-wake // lost the race: whoever moved t closes wake
		}
	case <-r.Context().Done():
		if !g.adm.Cancel(time.Now(), t, true) {
			<-wake
		}
	}
	return t.Status()
}

// signal tells the owner of a ticket that left the queue.
func signal(t *admission.Ticket) {
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

func (g *Guard) shed(w http.ResponseWriter, r *http.Request, reason Reason) {
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
