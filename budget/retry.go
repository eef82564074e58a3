package budget

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/retrylint/retrylint/budget/internal/core"
)

// Attempt limits of Do, DoValue and Transport.
const (
	// DefaultAttempts is how many attempts a call makes at most by default:
	// the first and two retries, as the SRE book recommends.
	DefaultAttempts = 3
	// MaxAttempts is the hard ceiling on attempts per call. Larger requests
	// are lowered to it: past a handful of attempts a retry mostly adds load
	// to a dependency that is not coming back within the call.
	MaxAttempts = 10
	// DefaultMaxRetryAfter is the longest server pushback (RetryAfter, or an
	// HTTP Retry-After header) that is honoured as given; longer pushbacks
	// are clamped to it, so a wrong or hostile header cannot park a caller
	// for hours. The context deadline still applies: a pushback that would
	// end past it gives up at once with ReasonDeadline.
	DefaultMaxRetryAfter = 30 * time.Second
)

// Reason says why Do gave up.
type Reason int

const (
	// ReasonAttempts: every allowed attempt failed.
	ReasonAttempts Reason = iota + 1
	// ReasonBudget: the budget refused the retry (the retry budget is
	// exhausted).
	ReasonBudget
	// ReasonDeadline: the context's deadline passed, or the next wait would
	// have ended after it, so the wait was not started.
	ReasonDeadline
	// ReasonCanceled: the context was canceled.
	ReasonCanceled
	// ReasonPermanent: the operation returned an error marked with Permanent.
	ReasonPermanent
	// ReasonBreakerOpen: the circuit breaker refused the attempt.
	ReasonBreakerOpen
)

// String returns a short phrase such as "retry budget exhausted".
func (r Reason) String() string {
	switch r {
	case ReasonAttempts:
		return "attempts exhausted"
	case ReasonBudget:
		return "retry budget exhausted"
	case ReasonDeadline:
		return "deadline exceeded"
	case ReasonCanceled:
		return "context canceled"
	case ReasonPermanent:
		return "permanent error"
	case ReasonBreakerOpen:
		return "circuit breaker open"
	}
	return "Reason(" + strconv.Itoa(int(r)) + ")"
}

// Error is the error Do and DoValue return when they give up. It wraps the
// last failure, so errors.Is and errors.As reach the operation's own error;
// in addition errors.Is reports true for context.DeadlineExceeded when
// Reason is ReasonDeadline, for context.Canceled when it is ReasonCanceled,
// and for ErrBreakerOpen when it is ReasonBreakerOpen.
type Error struct {
	// Reason says why no further attempt was made.
	Reason Reason
	// Attempts is how many times the operation ran (0 if it never did).
	Attempts int
	// Err is the last failure, without the Permanent or RetryAfter
	// wrappers. When the operation never ran it is the context's error or
	// ErrBreakerOpen.
	Err error
}

// Error formats the reason, the attempt count and the last failure.
func (e *Error) Error() string {
	s := "budget: gave up after " + strconv.Itoa(e.Attempts) + " attempt"
	if e.Attempts != 1 {
		s += "s"
	}
	s += " (" + e.Reason.String() + ")"
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the last failure and, for ReasonDeadline,
// ReasonCanceled and ReasonBreakerOpen, the condition the Reason names
// (context.DeadlineExceeded, context.Canceled, ErrBreakerOpen), so that
// errors.Is finds either.
func (e *Error) Unwrap() []error {
	var cond error
	switch e.Reason {
	case ReasonDeadline:
		cond = context.DeadlineExceeded
	case ReasonCanceled:
		cond = context.Canceled
	case ReasonBreakerOpen:
		cond = ErrBreakerOpen
	}
	switch {
	case cond == nil || cond == e.Err:
		return []error{e.Err}
	case e.Err == nil:
		return []error{cond}
	}
	return []error{e.Err, cond}
}

// IsPermanent reports whether err, or an error it wraps, was marked with
// Permanent.
func IsPermanent(err error) bool { return isPermanent(err) }

// Permanent marks err as not worth retrying: Do stops at once and returns an
// *Error with ReasonPermanent wrapping err. Use it for failures that a retry
// cannot fix, such as a malformed request or a missing permission. Permanent
// returns nil when err is nil. The mark survives wrapping with %w.
func Permanent(err error) error { return core.MarkPermanent(err) }

type retryAfterError struct {
	err error
	d   time.Duration
}

func (e *retryAfterError) Error() string { return e.err.Error() }
func (e *retryAfterError) Unwrap() error { return e.err }

// RetryAfter marks err as server pushback: the next attempt must wait at
// least d (the backoff delay is used when it is longer). The wait is clamped
// to DefaultMaxRetryAfter (30s) (a Transport: its MaxRetryAfter), and a
// negative d counts as zero. The context deadline still rules: if the wait
// would end past it, Do gives up with ReasonDeadline instead of waiting.
// RetryAfter returns nil when err is nil. The mark survives wrapping with %w.
func RetryAfter(err error, d time.Duration) error {
	if err == nil {
		return nil
	}
	return &retryAfterError{err, d}
}

// pushback returns the RetryAfter duration carried by err, if any.
func pushback(err error) (time.Duration, bool) {
	var ra *retryAfterError
	if errors.As(err, &ra) {
		return ra.d, true
	}
	return 0, false
}

// unmark strips the Permanent and RetryAfter wrappers from the outside of err.
func unmark(err error) error {
	for {
		if inner, ok := core.UnmarkPermanent(err); ok {
			err = inner
			continue
		}
		switch e := err.(type) {
		case *retryAfterError:
			err = e.err
		default:
			return err
		}
	}
}

// clampPushback bounds a pushback to [0, max].
func clampPushback(d, max time.Duration) time.Duration {
	if max <= 0 {
		max = DefaultMaxRetryAfter
	}
	if d < 0 {
		return 0
	}
	if d > max {
		return max
	}
	return d
}

// Option configures one call of Do or DoValue. Options are values that may be
// built once and reused by any number of calls.
type Option struct {
	// One option sets one field of the call's config: kind says which.
	// It is data, not a closure, so that applying it lets the call's
	// state stay on the stack.
	kind     optionKind
	attempts int
	budget   RetryBudget
	backoff  Backoff
	breaker  *Breaker
	onRetry  func(attempt int, err error, delay time.Duration)
}

type optionKind uint8

const (
	optNone optionKind = iota
	optAttempts
	optBudget
	optBackoff
	optBreaker
	optOnRetry
)

// applyTo sets the field of c that o carries.
func (o Option) applyTo(c *config) {
	switch o.kind {
	case optAttempts:
		c.attempts = o.attempts
	case optBudget:
		c.budget = o.budget
	case optBackoff:
		c.backoff = o.backoff
	case optBreaker:
		c.breaker = o.breaker
	case optOnRetry:
		c.onRetry = o.onRetry
	}
}

type config struct {
	attempts int
	budget   RetryBudget
	backoff  Backoff
	breaker  *Breaker
	onRetry  func(attempt int, err error, delay time.Duration)
}

// WithAttempts sets the most attempts a call makes, the first included.
// Zero or negative means DefaultAttempts (3); values above MaxAttempts (10)
// are lowered to 10. WithAttempts(1) disables retries.
func WithAttempts(n int) Option {
	switch {
	case n <= 0:
		n = DefaultAttempts
	case n > MaxAttempts:
		n = MaxAttempts
	}
	return Option{kind: optAttempts, attempts: n}
}

// WithBudget sets the budget consulted before every retry and told about
// every attempt's outcome. Share one RetryBudget among all calls to the
// same dependency; a budget per call limits nothing. Nil, or no WithBudget,
// means one Adaptive shared by every such call in the process: a failing
// dependency then starves the retries of every other, so give each
// dependency its own.
func WithBudget(b RetryBudget) Option {
	return Option{kind: optBudget, budget: b}
}

// WithBackoff sets the delay policy between attempts; the default is the
// zero Backoff (full jitter, 100ms base, 10s cap).
func WithBackoff(b Backoff) Option {
	return Option{kind: optBackoff, backoff: b}
}

// WithBreaker puts a circuit breaker in front of every attempt: an attempt
// the breaker refuses is not made, and the call gives up with
// ReasonBreakerOpen. Every attempt's outcome is recorded into the breaker.
// Nil means no breaker.
func WithBreaker(br *Breaker) Option {
	return Option{kind: optBreaker, breaker: br}
}

// OnRetry sets a hook called before each wait, with the 1-based number of
// the attempt that just failed, its error, and the delay about to be waited.
// It runs on the calling goroutine; keep it short.
func OnRetry(f func(attempt int, err error, delay time.Duration)) Option {
	return Option{kind: optOnRetry, onRetry: f}
}

// shared is the budget of calls given none: the library's safe default, an
// Adaptive, rather than unbounded retries.
var shared Adaptive

// Do runs op until it succeeds, and retries it while all of these hold:
// fewer than the attempt cap have run (3 by default, at most 10), the error
// is not marked Permanent, the context is not done, the budget allows the
// retry, and the wait before it, the backoff delay or a longer RetryAfter
// pushback (clamped to 30 s), ends before the context's deadline. A wait
// that would end past the deadline is not started. Waits are timers raced
// against ctx.Done().
//
// Every attempt's outcome is recorded into the budget, and into the Breaker
// if one is set. The budget is consulted once before each retry, never
// before the first attempt. With a Breaker, every attempt, the first
// included, must be allowed by it.
//
// Do returns nil when an attempt succeeds, and otherwise an *Error whose
// Reason says why it gave up and which wraps the last failure. op receives
// ctx unchanged; bound each attempt inside op (context.WithTimeout), since
// Do bounds the waits, not the attempts themselves. An attempt that runs out
// of its own time is the dependency's failure and may be retried; one ended
// by ctx is recorded nowhere.
//
// Do is safe to call concurrently; its per-call state lives in the call.
func Do(ctx context.Context, op func(context.Context) error, opts ...Option) error {
	c := call{config: config{attempts: DefaultAttempts}}
	for _, o := range opts {
		o.applyTo(&c.config)
	}
	if c.budget == nil {
		c.budget = &shared
	}
	for {
		if err := ctx.Err(); err != nil {
			return c.giveUp(ctxReason(err), c.orLast(err))
		}
		err, stop := c.attempt(ctx, op)
		if stop != nil || err == nil {
			return stop
		}
		if stop = c.wait(ctx, err); stop != nil {
			return stop
		}
	}
}

// call is the state of one call of Do.
type call struct {
	config
	seq      *Sequence
	last     error
	attempts int
}

// giveUp returns the *Error that ends the call.
func (c *call) giveUp(r Reason, err error) error {
	return &Error{Reason: r, Attempts: c.attempts, Err: err}
}

// orLast returns the last failure if there was one, and err otherwise.
func (c *call) orLast(err error) error {
	if c.last != nil {
		return c.last
	}
	return err
}

func ctxReason(err error) Reason {
	if errors.Is(err, context.DeadlineExceeded) {
		return ReasonDeadline
	}
	return ReasonCanceled
}

// attempt makes one attempt, if the breaker and, for a retry, the budget
// let it through, and records its outcome. It returns the attempt's error
// and, when the call ends without success, the error Do returns.
func (c *call) attempt(ctx context.Context, op func(context.Context) error) (err, stop error) {
	var permit Permit
	if c.breaker != nil {
		p, ok := c.breaker.Admit()
		if !ok {
			return nil, c.giveUp(ReasonBreakerOpen, c.orLast(ErrBreakerOpen))
		}
		permit = p
	}
	// A retry is counted when it is sent, not when it was planned: the
	// breaker may have refused it since.
	if c.attempts > 0 && !commitRetry(c.budget) {
		permit.release()
		return nil, c.giveUp(ReasonBudget, c.last)
	}
	c.attempts++
	err = op(ctx)
	if err != nil && ctx.Err() != nil {
		// The caller's own context ended the attempt: that says nothing
		// about the dependency, so nothing is recorded.
		permit.release()
		return err, c.giveUp(ctxReason(ctx.Err()), unmark(err))
	}
	permit.Done(err)
	c.budget.Record(err)
	if err == nil {
		return nil, nil
	}
	c.last = unmark(err)
	switch {
	case isPermanent(err):
		return err, c.giveUp(ReasonPermanent, c.last)
	case c.attempts >= c.config.attempts:
		return err, c.giveUp(ReasonAttempts, c.last)
	}
	return err, nil
}

// wait waits before the retry of a failure err, and returns the error Do
// returns when the call ends instead.
func (c *call) wait(ctx context.Context, err error) error {
	if c.seq == nil {
		c.seq = c.backoff.Start()
	}
	delay := c.seq.Next()
	if pb, ok := pushback(err); ok {
		delay = max(delay, clampPushback(pb, DefaultMaxRetryAfter))
	}
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) <= delay {
		return c.giveUp(ReasonDeadline, c.last)
	}
	if !peekRetry(c.budget) {
		return c.giveUp(ReasonBudget, c.last)
	}
	if c.onRetry != nil {
		c.onRetry(c.attempts, c.last, delay)
	}
	if err := Sleep(ctx, delay); err != nil {
		return c.giveUp(ctxReason(err), c.last)
	}
	return nil
}

// retryPeeker is implemented by the package's budgets: peekRetry reports
// whether Allow would grant a retry now without counting a grant, and
// counts a denial.
type retryPeeker interface {
	peekRetry() bool
}

// peekRetry asks l whether a retry may be planned; commitRetry counts it as
// sent. For a budget of another kind Allow is asked once, when planning.
func peekRetry(l RetryBudget) bool {
	if p, ok := l.(retryPeeker); ok {
		return p.peekRetry()
	}
	return l.Allow()
}

func commitRetry(l RetryBudget) bool {
	if _, ok := l.(retryPeeker); ok {
		return l.Allow()
	}
	return true
}

// DoValue is Do for an operation that returns a value: it returns the value
// of the first successful attempt, or the zero T and an *Error when it gives
// up. It retries under the same rules as Do.
func DoValue[T any](ctx context.Context, op func(context.Context) (T, error), opts ...Option) (T, error) {
	var v T
	err := Do(ctx, func(ctx context.Context) error {
		r, err := op(ctx)
		if err == nil {
			v = r
		}
		return err
	}, opts...)
	if err != nil {
		var zero T
		return zero, err
	}
	return v, nil
}
