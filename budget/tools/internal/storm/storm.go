// Package storm is a deterministic discrete-event simulation of the retry
// storm in the Retry Budget pattern: a fleet of clients calls one service
// running near 70% of its capacity, the service stalls for two seconds, and
// the clients' retry policy decides whether the service is back a moment
// after the stall or stays down.
//
// The clients are driven by the real budget.Adaptive, budget.TokenBucket
// and budget.Breaker (on the virtual clock, through their clock-taking
// core, budget/internal/core) and budget.Backoff (its
// Rand drawn from the run's seeded source), in the order budget.Do uses
// them; a shedding server is the real admission core of shed.Guard. Nothing
// in the model depends on the policy's name.
//
// # The model
//
// Server: Workers parallel workers, each request needs an exponentially
// distributed service time with mean ServiceTime, so capacity is
// Workers/ServiceTime requests per second (10 000/s by default). A plain
// server keeps what it cannot start in a FIFO queue of QueueLimit entries
// (5 s of work by default, an accept backlog plus a worker-pool queue) and
// refuses arrivals when it is full, at once. It cannot tell whether the
// caller is still waiting: it works on every request it dequeued, including
// the ones whose caller timed out long ago. A shedding server has the same
// workers behind the Guard's admission core instead: MaxConcurrent =
// Workers, and the shed.Config defaults for the rest unless set (a queue as long as Workers,
// 500 ms longest queue wait, retries held to 20% of first tries). During the
// stall (StallAt, for StallFor) no work progresses; requests keep arriving,
// queueing and, behind the guard, timing out of its queue.
//
// Clients: Clients callers issue calls as a Poisson stream totalling
// Load×capacity per second (the base demand), spread over Pods processes; the
// callers of one process share one Budget and one Breaker (as
// budget.DefaultBudget and the Transport's per-host budget are shared).
// Calls are open-loop: a caller starts its next call whether or not the last
// one has ended, so Clients matters only through that grouping.
// Every attempt times out after Timeout; the caller then abandons it (the
// server does not know). A call has no overall deadline; it makes at most
// Attempts attempts (3, the library's default, for every policy); between
// attempts the policy's backoff applies, the budget is consulted after the
// failure is recorded, the breaker before every attempt, and a Retry-After
// pushback is honoured by clients that use the library. Clients that use
// the library also send the retry-number and remaining-deadline headers the
// Guard schedules by; naive clients send neither, so against them the
// shedding server has only its concurrency limit, its short newest-first
// queue and its bounded queue wait. A refusal or a shed costs the server
// nothing in the model.
//
// Measures, from server arrivals and call outcomes in Step-wide bins:
// load amplification is the arrivals over the trailing second divided by
// the base demand of a second; goodput is the calls that succeeded from the
// stall's start to the horizon divided by the base demand over that span;
// the service has recovered at the first time after the stall's end from
// which, until the horizon, every bin has load ≤ 1.2× and ≥ 95% of the
// calls that ended in it succeeded. If that time is not followed by at
// least 5 s of horizon, the run is "latched".
package storm

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/retrylint/retrylint/budget"
	"github.com/retrylint/retrylint/budget/internal/admission"
	"github.com/retrylint/retrylint/budget/internal/core"
)

// Config holds the model's parameters. DefaultConfig gives the scenario.
type Config struct {
	Seed    uint64
	Clients int     // callers
	Pods    int     // processes, 0 for one per caller; the callers of one process share a Budget and a Breaker
	Load    float64 // base demand as a fraction of capacity

	Workers     int           // server parallelism
	ServiceTime time.Duration // mean service time per request (exponential)
	QueueLimit  int           // plain server's FIFO queue; arrivals beyond it are refused at once

	Timeout  time.Duration // client per-attempt timeout
	Attempts int           // ceiling on attempts per call (all policies but no-retry)

	// FailRate is the share of served requests that fail anyway (a
	// background of transient errors, answered after the service time).
	FailRate float64

	StallAt  time.Duration // when the stall starts
	StallFor time.Duration // how long the server makes no progress
	Horizon  time.Duration // simulated time
	Step     time.Duration // bin width of the series

	MaxTokens, TokenRatio float64 // the gRPC token-bucket variants (gRFC A6)

	// MinRetryRate is the floor of the adaptive budget of the library's
	// policies: retries a second a pod may send that its traffic did not
	// earn (budget.DefaultMinRetryRate, one every 5 s, by default).
	MinRetryRate float64

	// Shedding server (shed.Config): MaxConcurrent is Workers.
	GuardQueue     int
	GuardQueueWait time.Duration
	GuardRatio     float64
}

// DefaultConfig returns the scenario of the seed: 400 pods, each one caller
// with its own budget and breaker, a service at 70% of 10 000 req/s, 1 s
// client timeouts, 3 attempts per call, a 2 s stall at t=10s (after a full
// 10 s breaker window of history), a 30 s horizon, no background failures,
// and the library's defaults everywhere else.
func DefaultConfig() Config {
	return Config{
		Seed:        1,
		Clients:     400,
		Pods:        0, // one per caller
		Load:        0.7,
		Workers:     100,
		ServiceTime: 10 * time.Millisecond,
		QueueLimit:  50000,
		Timeout:     time.Second,
		Attempts:    budget.DefaultAttempts,
		StallAt:     10 * time.Second,
		StallFor:    2 * time.Second,
		Horizon:     30 * time.Second,
		Step:        100 * time.Millisecond,
		MaxTokens:   1000,
		TokenRatio:  0.1,

		MinRetryRate: budget.DefaultMinRetryRate,

		GuardQueue:     0, // shed.Config default: as many as Workers
		GuardQueueWait: admission.DefaultQueueWait,
		GuardRatio:     admission.DefaultRetryRatio,
	}
}

// adaptiveBudget returns a pod's budget for the DefaultBudget kind: the
// zero budget.Adaptive but for the floor, MinRetryRate. It is the
// library's own algorithm (budget.Adaptive wraps it with time.Now),
// driven on the simulation's clock.
func (c Config) adaptiveBudget() (*core.Adaptive, error) {
	b := new(core.Adaptive)
	if err := b.Init(budget.DefaultRetryRatio, c.MinRetryRate, budget.DefaultBudgetWindow); err != nil {
		return nil, err
	}
	return b, nil
}

// clockedBudget is a retry budget driven on the simulation's clock: it
// reads the clock it is given when it chooses to, as budget.Adaptive
// reads time.Now.
type clockedBudget interface {
	Allow(clock func() time.Time) bool
	Record(clock func() time.Time, err error)
}

// bucket drives a budget.TokenBucket, which never reads the clock.
type bucket struct{ *budget.TokenBucket }

func (b bucket) Allow(func() time.Time) bool          { return b.TokenBucket.Allow() }
func (b bucket) Record(_ func() time.Time, err error) { b.TokenBucket.Record(err) }

func (c Config) tokenBucket() clockedBudget {
	b, _ := budget.NewTokenBucket(c.MaxTokens, c.TokenRatio) // validated
	return bucket{b}
}

// Capacity returns the server's capacity in requests per second.
func (c Config) Capacity() float64 { return float64(c.Workers) / c.ServiceTime.Seconds() }

// PodCount returns how many processes the callers are spread over.
func (c Config) PodCount() int {
	if c.Pods == 0 {
		return c.Clients
	}
	return c.Pods
}

// Demand returns the base demand in calls per second.
func (c Config) Demand() float64 { return c.Load * c.Capacity() }

// StallEnd returns when the stall ends.
func (c Config) StallEnd() time.Duration { return c.StallAt + c.StallFor }

// Validate reports the first parameter out of range.
func (c Config) Validate() error {
	bad := func(name string, v any, want string) error {
		return fmt.Errorf("storm: %s = %v: must be %s", name, v, want)
	}
	pos := func(name string, d time.Duration) error {
		if d <= 0 {
			return bad(name, d, "> 0")
		}
		return nil
	}
	switch {
	case c.Clients < 1 || c.Clients > 1_000_000:
		return bad("clients", c.Clients, "in [1, 1000000]")
	case c.Pods < 0 || c.Pods > c.Clients:
		return bad("pods", c.Pods, "in [0, clients] (0: one per caller)")
	case !(c.Load > 0 && c.Load <= 3):
		return bad("load", c.Load, "in (0, 3]")
	case c.Workers < 1 || c.Workers > 100_000:
		return bad("workers", c.Workers, "in [1, 100000]")
	case c.QueueLimit < 0:
		return bad("queue", c.QueueLimit, ">= 0")
	case !(c.FailRate >= 0 && c.FailRate < 1):
		return bad("fail-rate", c.FailRate, "in [0, 1)")
	case c.Attempts < 1 || c.Attempts > budget.MaxAttempts:
		return bad("attempts", c.Attempts, fmt.Sprintf("in [1, %d]", budget.MaxAttempts))
	case c.StallAt < 0:
		return bad("stall-at", c.StallAt, ">= 0")
	case c.StallFor < 0:
		return bad("stall", c.StallFor, ">= 0")
	case c.GuardQueue < 0:
		return bad("guard-queue", c.GuardQueue, ">= 0")
	case !(c.GuardRatio > 0) || math.IsInf(c.GuardRatio, 0):
		return bad("guard-ratio", c.GuardRatio, "> 0 and finite")
	}
	for _, d := range []struct {
		n string
		d time.Duration
	}{{"service", c.ServiceTime}, {"timeout", c.Timeout}, {"horizon", c.Horizon}, {"step", c.Step}, {"guard-wait", c.GuardQueueWait}} {
		if err := pos(d.n, d.d); err != nil {
			return err
		}
	}
	if c.Horizon <= c.StallEnd() {
		return bad("horizon", c.Horizon, fmt.Sprintf("after the stall's end (%v)", c.StallEnd()))
	}
	if c.Step > time.Second || time.Second%c.Step != 0 {
		return bad("step", c.Step, "a divisor of 1s")
	}
	if c.Horizon/c.Step > 1_000_000 {
		return bad("step", c.Step, "at most a millionth of the horizon")
	}
	if c.Demand()*c.Horizon.Seconds() > 10_000_000 {
		return errors.New("storm: demand × horizon is over 10 million calls; shorten the horizon or lower the capacity")
	}
	if _, err := budget.NewTokenBucket(c.MaxTokens, c.TokenRatio); err != nil {
		return err
	}
	if _, err := c.adaptiveBudget(); err != nil {
		return err
	}
	return nil
}

// BudgetKind is the client retry budget of a policy.
type BudgetKind int

const (
	// NoBudget: callers retry up to the attempt cap.
	NoBudget BudgetKind = iota
	// DefaultBudget: each process has the library's zero budget.Adaptive,
	// as Do without WithBudget and the Transport's per-host budgets are.
	DefaultBudget
	// GRPCBudget: each process has a gRFC A6 token bucket of MaxTokens and
	// TokenRatio (budget.NewTokenBucket).
	GRPCBudget
	// SharedGRPCBudget: one gRFC A6 token bucket shared by every caller of
	// the fleet, which no real fleet of processes has.
	SharedGRPCBudget
)

// Policy is one combination of client retry policy and server behaviour.
type Policy struct {
	Name        string
	Description string
	// Attempts overrides Config.Attempts when positive.
	Attempts int
	// Backoff between attempts; nil retries at once.
	Backoff *budget.Backoff
	// Budget is the client retry budget.
	Budget BudgetKind
	// Breaker gives each process a circuit breaker (seed defaults).
	Breaker bool
	// Library: the clients use the budget library's Transport, so they mark
	// retries (AttemptHeader), propagate their deadline (TimeoutHeader) and
	// honour Retry-After. Naive clients do none of it.
	Library bool
	// Shedding runs the server behind the Guard's admission core.
	Shedding bool
}

// Policies returns the compared policies, in order.
func Policies() []Policy {
	noJitter := &budget.Backoff{Jitter: budget.NoJitter}
	full := &budget.Backoff{Jitter: budget.FullJitter}
	return []Policy{
		{Name: "no-retry", Description: "no retries (one attempt)", Attempts: 1},
		{Name: "naive", Description: "immediate retries"},
		{Name: "backoff", Description: "exponential backoff, no jitter", Backoff: noJitter},
		{Name: "jitter", Description: "full-jitter backoff alone", Backoff: full},
		{Name: "budget", Description: "library default: adaptive budget + full jitter", Backoff: full, Budget: DefaultBudget, Library: true},
		{Name: "budget+breaker", Description: "adaptive budget + full jitter + breaker", Backoff: full, Budget: DefaultBudget, Breaker: true, Library: true},
		{Name: "grpc-budget", Description: "1000-token gRPC bucket per pod + jitter", Backoff: full, Budget: GRPCBudget, Library: true},
		{Name: "grpc-shared", Description: "one 1000-token bucket for the fleet + jitter", Backoff: full, Budget: SharedGRPCBudget, Library: true},
		{Name: "shedding", Description: "shedding server, naive clients", Shedding: true},
		{Name: "shedding+budget", Description: "shedding server, budget + jitter clients", Backoff: full, Budget: DefaultBudget, Library: true, Shedding: true},
	}
}

// PolicyByName returns the named policy of Policies.
func PolicyByName(name string) (Policy, bool) {
	for _, p := range Policies() {
		if p.Name == name {
			return p, true
		}
	}
	return Policy{}, false
}

// Bin is one Step of the series.
type Bin struct {
	At        time.Duration // start of the bin
	Arrivals  int           // requests that reached the server (every attempt)
	Load      float64       // arrivals over the trailing second ÷ base demand of a second
	CallsOK   int           // calls that ended in success in this bin
	CallsFail int           // calls that ended in failure in this bin
	Wasted    int           // requests finished for a caller that had gone
	Shed      int           // requests refused or shed by the server
}

// Result is the outcome of one policy.
type Result struct {
	Name               string   `json:"name"`
	Description        string   `json:"description"`
	PeakAmplification  float64  `json:"peak_amplification"`
	MeanAmplification  float64  `json:"mean_amplification"`
	StallAmplification float64  `json:"stall_mean_amplification"` // mean over the stall and the 5 s after it
	RecoverySeconds    *float64 `json:"recovery_seconds"`
	Goodput            float64  `json:"goodput"`
	Calls              int      `json:"calls"`
	Retries            int      `json:"retries"`
	WastedWork         float64  `json:"wasted_work"` // share of the server's completed work done for callers that had gone
	Shed               int      `json:"shed"`
	Series             []Bin    `json:"-"`
}

// Latched reports whether the run did not recover within the horizon.
func (r Result) Latched() bool { return r.RecoverySeconds == nil }

// Health thresholds for recovery.
const (
	HealthyLoad    = 1.2
	HealthySuccess = 0.95
	ConfirmWindow  = 5 * time.Second
)

// RunAll runs every policy of ps with cfg.
func RunAll(cfg Config, ps []Policy) ([]Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	out := make([]Result, 0, len(ps))
	for _, p := range ps {
		r, err := Run(cfg, p)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// Run simulates one policy.
func Run(cfg Config, p Policy) (Result, error) {
	if err := cfg.Validate(); err != nil {
		return Result{}, err
	}
	s := newSim(cfg, p)
	s.run()
	return s.result(), nil
}

// epoch anchors the virtual clock for the library types that want a time.
var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

type evKind uint8

const (
	evCall evKind = iota
	evSend
	evTimeout
	evFinish
	evWaitLimit
)

type event struct {
	at   time.Duration
	seq  uint64
	kind evKind
	c    *call
	r    *request
}

type call struct {
	pod      int
	attempts int
	seq      *budget.Sequence
	live     *request // the attempt being waited for
	pushback time.Duration
}

type request struct {
	c      *call
	sent   time.Duration
	gone   bool // the caller stopped waiting (timeout) or got its answer
	ticket *admission.Ticket
	permit core.Permit // the breaker's, if any
}

type sim struct {
	cfg      Config
	p        Policy
	attempts int
	now      time.Duration

	heap []event
	seq  uint64
	// Timeouts all lie Timeout after a send, so they come due in the order
	// they were scheduled: a FIFO instead of the heap.
	timeouts []event
	thead    int

	arrRNG, svcRNG, cliRNG, srvRNG, failRNG *rand.Rand

	// plain server
	busy int
	fifo []*request
	head int
	// shedding server
	adm *admission.Admission

	budgets  []clockedBudget
	breakers []*core.Breaker
	backoff  budget.Backoff

	bins    []Bin
	calls   int
	retries int
	served  int
	wasted  int
	shed    int
}

var (
	errTimeout = errors.New("timeout")
	errShed    = errors.New("shed")
	errFailed  = errors.New("transient failure")
)

func newSim(cfg Config, p Policy) *sim {
	s := &sim{
		cfg:    cfg,
		p:      p,
		arrRNG: rand.New(rand.NewPCG(cfg.Seed, 1)),
		svcRNG: rand.New(rand.NewPCG(cfg.Seed, 2)),
		cliRNG: rand.New(rand.NewPCG(cfg.Seed, 3)),
		srvRNG: rand.New(rand.NewPCG(cfg.Seed, 4)),
		// Its own stream, so a background failure rate changes nothing
		// else that is drawn.
		failRNG: rand.New(rand.NewPCG(cfg.Seed, 5)),
		bins:    make([]Bin, int(cfg.Horizon/cfg.Step)),
	}
	for i := range s.bins {
		s.bins[i].At = time.Duration(i) * cfg.Step
	}
	s.attempts = cfg.Attempts
	if p.Attempts > 0 {
		s.attempts = p.Attempts
	}
	if p.Backoff != nil {
		s.backoff = *p.Backoff
		s.backoff.Rand = s.cliRNG.Float64
	}
	s.budgets = make([]clockedBudget, cfg.PodCount())
	s.breakers = make([]*core.Breaker, cfg.PodCount())
	var shared clockedBudget
	if p.Budget == SharedGRPCBudget {
		shared = cfg.tokenBucket()
	}
	for i := range s.budgets {
		switch p.Budget {
		case DefaultBudget:
			s.budgets[i], _ = cfg.adaptiveBudget() // validated
		case GRPCBudget:
			s.budgets[i] = cfg.tokenBucket()
		case SharedGRPCBudget:
			s.budgets[i] = shared
		}
		if p.Breaker {
			s.breakers[i] = new(core.Breaker) // the zero budget.Breaker's defaults
		}
	}
	if p.Shedding {
		s.adm = admission.New(admission.Config{
			MaxConcurrent: cfg.Workers,
			MaxQueue:      cfg.GuardQueue,
			MaxQueueWait:  cfg.GuardQueueWait,
			RetryRatio:    cfg.GuardRatio,
			Rand:          s.srvRNG.Float64,
		})
	}
	return s
}

func (s *sim) t() time.Time { return epoch.Add(s.now) }

func (s *sim) bin() *Bin {
	i := int(s.now / s.cfg.Step)
	if i < 0 || i >= len(s.bins) {
		return nil
	}
	return &s.bins[i]
}

// --- event heap (by time, then insertion order: deterministic) ---

func (s *sim) push(at time.Duration, k evKind, c *call, r *request) {
	s.seq++
	s.heap = append(s.heap, event{at: at, seq: s.seq, kind: k, c: c, r: r})
	h := s.heap
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !less(&h[i], &h[p]) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func less(a, b *event) bool {
	if a.at != b.at {
		return a.at < b.at
	}
	return a.seq < b.seq
}

func (s *sim) pop() event {
	h := s.heap
	top := h[0]
	n := len(h) - 1
	h[0] = h[n]
	h[n] = event{}
	h = h[:n]
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && less(&h[r], &h[l]) {
			m = r
		}
		if !less(&h[m], &h[i]) {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	s.heap = h
	return top
}

func (s *sim) run() {
	s.push(s.interarrival(), evCall, nil, nil)
	for len(s.heap) > 0 {
		var e event
		if s.thead < len(s.timeouts) && less(&s.timeouts[s.thead], &s.heap[0]) {
			e = s.timeouts[s.thead]
			s.timeouts[s.thead] = event{}
			s.thead++
			if s.thead > 4096 && s.thead*2 > len(s.timeouts) {
				s.timeouts = append(s.timeouts[:0], s.timeouts[s.thead:]...)
				s.thead = 0
			}
		} else {
			e = s.pop()
		}
		if e.at >= s.cfg.Horizon {
			break
		}
		s.now = e.at
		switch e.kind {
		case evCall:
			s.push(s.now+s.interarrival(), evCall, nil, nil)
			s.startCall()
		case evSend:
			s.attempt(e.c)
		case evTimeout:
			if !e.r.gone {
				e.r.gone = true
				s.fail(e.r.c, errTimeout)
			}
		case evFinish:
			s.finish(e.r)
		case evWaitLimit:
			if s.adm.Cancel(s.t(), e.r.ticket, false) {
				s.refuse(e.r)
			}
		}
	}
}

func (s *sim) interarrival() time.Duration {
	return time.Duration(s.arrRNG.ExpFloat64() / s.cfg.Demand() * float64(time.Second))
}

// --- clients (the order of budget.Do) ---

func (s *sim) startCall() {
	s.calls++
	c := &call{pod: s.arrRNG.IntN(s.cfg.Clients) % len(s.budgets)}
	s.attempt(c)
}

func (s *sim) attempt(c *call) {
	var permit core.Permit
	if br := s.breakers[c.pod]; br != nil {
		p, ok := br.AdmitAt(s.t())
		if !ok {
			s.endCall(false)
			return
		}
		permit = p
	}
	if c.attempts > 0 {
		s.retries++
	}
	c.attempts++
	r := &request{c: c, sent: s.now, permit: permit}
	c.live = r
	c.pushback = 0
	s.arrive(r)
	if !r.gone { // not answered at once
		s.seq++
		s.timeouts = append(s.timeouts, event{at: s.now + s.cfg.Timeout, seq: s.seq, kind: evTimeout, r: r})
	}
}

// respond delivers the server's answer to the caller, if it still waits.
func (s *sim) respond(r *request, err error, pushback time.Duration) {
	if r.gone {
		return
	}
	r.gone = true
	if err == nil {
		s.succeed(r.c)
		return
	}
	r.c.pushback = pushback
	s.fail(r.c, err)
}

func (s *sim) succeed(c *call) {
	c.live.permit.DoneAt(s.t(), nil)
	if b := s.budgets[c.pod]; b != nil {
		b.Record(s.t, nil)
	}
	s.endCall(true)
}

func (s *sim) fail(c *call, err error) {
	c.live.permit.DoneAt(s.t(), err)
	b := s.budgets[c.pod]
	if b != nil {
		b.Record(s.t, err)
	}
	if c.attempts >= s.attempts {
		s.endCall(false)
		return
	}
	var delay time.Duration
	if s.p.Backoff != nil {
		if c.seq == nil {
			c.seq = s.backoff.Start()
		}
		delay = c.seq.Next()
	}
	if s.p.Library && c.pushback > delay {
		delay = c.pushback
	}
	if b != nil && !b.Allow(s.t) {
		s.endCall(false)
		return
	}
	if delay == 0 {
		s.attempt(c)
		return
	}
	s.push(s.now+delay, evSend, c, nil)
}

func (s *sim) endCall(ok bool) {
	if b := s.bin(); b != nil {
		if ok {
			b.CallsOK++
		} else {
			b.CallsFail++
		}
	}
}

// --- server ---

func (s *sim) arrive(r *request) {
	if b := s.bin(); b != nil {
		b.Arrivals++
	}
	if s.adm != nil {
		var deadline time.Time
		retry := false
		if s.p.Library {
			deadline = epoch.Add(r.sent + s.cfg.Timeout)
			retry = r.c.attempts > 1
		}
		t, evicted := s.adm.Arrive(s.t(), retry, deadline, r)
		r.ticket = t
		// Act on r's own decision first: answering the evicted request may
		// make its caller retry at once, and that arrival may move r.
		switch st, _ := t.Status(); st {
		case admission.Running:
			s.start(r)
		case admission.Queued:
			s.push(s.adm.WaitLimit(t).Sub(epoch), evWaitLimit, nil, r)
		default:
			s.refuse(r)
		}
		if evicted != nil {
			s.refuse(evicted.Value.(*request))
		}
		return
	}
	if s.busy < s.cfg.Workers {
		s.busy++
		s.start(r)
		return
	}
	if len(s.fifo)-s.head >= s.cfg.QueueLimit {
		s.refuse(r)
		return
	}
	s.fifo = append(s.fifo, r)
}

// refuse answers r with a fast failure: a shed response with a jittered
// Retry-After from the guard, or a refused connection from a full plain
// queue.
func (s *sim) refuse(r *request) {
	s.shed++
	if b := s.bin(); b != nil {
		b.Shed++
	}
	var pushback time.Duration
	if s.adm != nil {
		pushback = s.adm.RetryAfter()
	}
	s.respond(r, errShed, pushback)
}

func (s *sim) start(r *request) {
	work := time.Duration(s.svcRNG.ExpFloat64() * float64(s.cfg.ServiceTime))
	s.push(s.stallAdjusted(s.now, work), evFinish, nil, r)
}

// stallAdjusted returns when work started at start ends, given that no work
// progresses during the stall.
func (s *sim) stallAdjusted(start, work time.Duration) time.Duration {
	a, e := s.cfg.StallAt, s.cfg.StallEnd()
	switch {
	case start >= e || start+work <= a:
		return start + work
	case start < a:
		return start + work + s.cfg.StallFor
	default:
		return e + work
	}
}

func (s *sim) finish(r *request) {
	s.served++
	if r.gone {
		s.wasted++
		if b := s.bin(); b != nil {
			b.Wasted++
		}
	}
	var err error
	if s.cfg.FailRate > 0 && s.failRNG.Float64() < s.cfg.FailRate {
		err = errFailed
	}
	s.respond(r, err, 0)
	if s.adm != nil {
		next, dropped := s.adm.Done(s.t(), r.ticket)
		for _, d := range dropped {
			s.refuse(d.Value.(*request))
		}
		if next != nil {
			s.start(next.Value.(*request))
		}
		return
	}
	if s.head < len(s.fifo) {
		n := s.fifo[s.head]
		s.fifo[s.head] = nil
		s.head++
		if s.head > 4096 && s.head*2 > len(s.fifo) {
			s.fifo = append(s.fifo[:0], s.fifo[s.head:]...)
			s.head = 0
		}
		s.start(n)
		return
	}
	s.busy--
}

// --- measures ---

func (s *sim) result() Result {
	cfg := s.cfg
	perSec := int(time.Second / cfg.Step)
	base := cfg.Demand()
	window := 0
	for i := range s.bins {
		window += s.bins[i].Arrivals
		if i >= perSec {
			window -= s.bins[i-perSec].Arrivals
		}
		span := min(i+1, perSec)
		s.bins[i].Load = float64(window) / (base * float64(span) * cfg.Step.Seconds())
	}
	res := Result{Name: s.p.Name, Description: s.p.Description, Calls: s.calls, Retries: s.retries, Shed: s.shed, Series: s.bins}
	first := int(cfg.StallAt / cfg.Step)
	stallEnd := int(cfg.StallEnd() / cfg.Step)
	arrivals, ok := 0, 0
	for i := first; i < len(s.bins); i++ {
		b := s.bins[i]
		res.PeakAmplification = max(res.PeakAmplification, b.Load)
		arrivals += b.Arrivals
		ok += b.CallsOK
	}
	span := (cfg.Horizon - cfg.StallAt).Seconds()
	res.MeanAmplification = float64(arrivals) / (base * span)
	res.Goodput = float64(ok) / (base * span)
	stallArr := 0
	stallBins := min(len(s.bins), stallEnd+5*perSec) - first
	for i := first; i < first+stallBins; i++ {
		stallArr += s.bins[i].Arrivals
	}
	res.StallAmplification = float64(stallArr) / (base * float64(stallBins) * cfg.Step.Seconds())
	if s.served > 0 {
		res.WastedWork = float64(s.wasted) / float64(s.served)
	}
	// Recovery: the first bin after the stall from which every bin is healthy.
	rec := len(s.bins)
	for i := len(s.bins) - 1; i >= stallEnd; i-- {
		if !healthy(s.bins[i]) {
			break
		}
		rec = i
	}
	if recAt := time.Duration(rec) * cfg.Step; rec < len(s.bins) && cfg.Horizon-recAt >= ConfirmWindow {
		v := (recAt - cfg.StallEnd()).Seconds()
		v = math.Round(v*1000) / 1000
		res.RecoverySeconds = &v
	}
	return res
}

func healthy(b Bin) bool {
	n := b.CallsOK + b.CallsFail
	if b.Load > HealthyLoad {
		return false
	}
	return n == 0 || float64(b.CallsOK) >= HealthySuccess*float64(n)
}
