package budget

import (
	"context"
	"errors"
	"strconv"
	"time"
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

// Unwrap returns the last failure.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is the condition named by the Reason:
// context.DeadlineExceeded, context.Canceled or ErrBreakerOpen.
func (e *Error) Is(target error) bool {
	switch e.Reason {
	case ReasonDeadline:
		return target == context.DeadlineExceeded
	case ReasonCanceled:
		return target == context.Canceled
	case ReasonBreakerOpen:
		return target == ErrBreakerOpen
	}
	return false
}

type permanentError struct{ err error }

func (e *permanentError) Error() string { return e.err.Error() }
func (e *permanentError) Unwrap() error { return e.err }

// Permanent marks err as not worth retrying: Do stops at once and returns an
// *Error with ReasonPermanent wrapping err. Use it for failures that a retry
// cannot fix, such as a malformed request or a missing permission. Permanent
// returns nil when err is nil. The mark survives wrapping with %w.
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return &permanentError{err}
}

// IsPermanent reports whether err, or an error it wraps, was marked with
// Permanent.
func IsPermanent(err error) bool { return isPermanent(err) }

type retryAfterError struct {
	err error
	d   time.Duration
}

func (e *retryAfterError) Error() string { return e.err.Error() }
func (e *retryAfterError) Unwrap() error { return e.err }

// RetryAfter marks err as server pushback: the next attempt must wait at
// least d (the backoff delay is used when it is longer). The wait is clamped
// to DefaultMaxRetryAfter (30s) or the WithMaxRetryAfter value, and a
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
		switch e := err.(type) {
		case *permanentError:
			err = e.err
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
	apply func(*config)
}

type config struct {
	attempts       int
	attemptTimeout time.Duration
	retryIf        func(error) bool
	name           string
	limiter        RetryBudget
	backoff        Backoff
	breaker        *Breaker
	maxRetryAfter  time.Duration
	onRetry        func(attempt int, err error, delay time.Duration)
	onGiveUp       func(err *Error)
}

// WithAttempts sets the most attempts a call makes, the first included.
// Zero or negative means DefaultAttempts (3); values above MaxAttempts (10)
// are lowered to 10. WithAttempts(1) disables retries.
func WithAttempts(n int) Option {
	return Option{func(c *config) {
		switch {
		case n <= 0:
			c.attempts = DefaultAttempts
		case n > MaxAttempts:
			c.attempts = MaxAttempts
		default:
			c.attempts = n
		}
	}}
}

// WithAttemptTimeout bounds each attempt: op receives a context that ends
// after d (or with the caller's). An attempt that runs out of its own time
// is a failure of the dependency and may be retried; one ended by the
// caller's context is not recorded at all. Zero or negative means no bound
// beyond the caller's context.
func WithAttemptTimeout(d time.Duration) Option {
	return Option{func(c *config) { c.attemptTimeout = d }}
}

// RetryIf sets the classifier of failures: an error for which f returns
// false is not retried, and is recorded like an error marked Permanent (it
// takes no token, and counts as an answer in the breaker). Errors marked
// Permanent are never retried, whatever f says. Nil means retry every
// error. f runs on the calling goroutine.
func RetryIf(f func(error) bool) Option {
	return Option{func(c *config) { c.retryIf = f }}
}

// WithBudget sets the budget consulted before every retry and told about
// every attempt's outcome. Nil means Named(name) with WithName, else
// DefaultBudget. Share one RetryBudget among all calls to the same
// dependency; a budget per call limits nothing.
func WithBudget(l RetryBudget) Option {
	return Option{func(c *config) { c.limiter = l }}
}

// WithBackoff sets the delay policy between attempts; the default is the
// zero Backoff (full jitter, 100ms base, 10s cap).
func WithBackoff(b Backoff) Option {
	return Option{func(c *config) { c.backoff = b }}
}

// WithBreaker puts a circuit breaker in front of every attempt: an attempt
// the breaker refuses is not made, and the call gives up with
// ReasonBreakerOpen. Every attempt's outcome is recorded into the breaker.
// Nil means no breaker.
func WithBreaker(br *Breaker) Option {
	return Option{func(c *config) { c.breaker = br }}
}

// WithMaxRetryAfter sets the clamp on RetryAfter pushback; zero or negative
// means DefaultMaxRetryAfter (30s).
func WithMaxRetryAfter(d time.Duration) Option {
	return Option{func(c *config) { c.maxRetryAfter = d }}
}

// OnRetry sets a hook called before each wait, with the 1-based number of
// the attempt that just failed, its error, and the delay about to be waited.
// It runs on the calling goroutine; keep it short.
func OnRetry(f func(attempt int, err error, delay time.Duration)) Option {
	return Option{func(c *config) { c.onRetry = f }}
}

// OnGiveUp sets a hook called with the *Error just before Do returns it. It
// is not called on success. It runs on the calling goroutine.
func OnGiveUp(f func(err *Error)) Option {
	return Option{func(c *config) { c.onGiveUp = f }}
}

// Do runs op until it succeeds, and retries it while all of these hold:
// fewer than the attempt cap have run (3 by default, at most 10), the error
// is not marked Permanent, the context is not done, the budget allows the
// retry (WithBudget, else Named(name) with WithName, else DefaultBudget), and the wait before it,
// the backoff delay or a longer RetryAfter pushback, ends before the
// context's deadline. A wait that would end past the deadline is not
// started. Waits are timers raced against ctx.Done().
//
// Every attempt's outcome is recorded into the budget, and into the Breaker
// if one is set. The budget is consulted once before each retry, never
// before the first attempt. With a Breaker, every attempt, the first
// included, must be allowed by it.
//
// Do returns nil when an attempt succeeds, and otherwise an *Error whose
// Reason says why it gave up and which wraps the last failure. op receives
// ctx unchanged; give it a deadline, since Do bounds the waits, not the
// attempts themselves.
//
// Do is safe to call concurrently; its per-call state lives in the call.
func Do(ctx context.Context, op func(context.Context) error, opts ...Option) error {
	c := config{attempts: DefaultAttempts}
	for _, o := range opts {
		if o.apply != nil {
			o.apply(&c)
		}
	}
	if c.limiter == nil {
		if c.name != "" {
			c.limiter = Named(c.name)
		} else {
			c.limiter = DefaultBudget
		}
	}
	var seq *Sequence
	var last error
	attempts := 0
	giveUp := func(r Reason, err error) error {
		e := &Error{Reason: r, Attempts: attempts, Err: err}
		if c.onGiveUp != nil {
			c.onGiveUp(e)
		}
		return e
	}
	ctxReason := func(err error) Reason {
		if errors.Is(err, context.DeadlineExceeded) {
			return ReasonDeadline
		}
		return ReasonCanceled
	}
	orCtx := func(err error) error {
		if last != nil {
			return last
		}
		return err
	}
	for {
		if err := ctx.Err(); err != nil {
			return giveUp(ctxReason(err), orCtx(err))
		}
		var permit Permit
		if c.breaker != nil {
			p, ok := c.breaker.Admit()
			if !ok {
				if last != nil {
					return giveUp(ReasonBreakerOpen, last)
				}
				return giveUp(ReasonBreakerOpen, ErrBreakerOpen)
			}
			permit = p
		}
		// A retry is counted when it is sent, not when it was planned:
		// the breaker may have refused it since.
		if attempts > 0 && !commitRetry(c.limiter) {
			permit.release()
			return giveUp(ReasonBudget, last)
		}
		attempts++
		err := c.run(ctx, op)
		if err != nil && ctx.Err() != nil {
			// The caller's own context ended the attempt: that says
			// nothing about the dependency, so nothing is recorded.
			permit.release()
			return giveUp(ctxReason(ctx.Err()), unmark(err))
		}
		if err != nil && c.retryIf != nil && !isPermanent(err) && !c.retryIf(unmark(err)) {
			err = Permanent(err)
		}
		permit.Done(err)
		c.limiter.Record(err)
		if err == nil {
			return nil
		}
		last = unmark(err)
		if isPermanent(err) {
			return giveUp(ReasonPermanent, last)
		}
		if attempts >= c.attempts {
			return giveUp(ReasonAttempts, last)
		}
		if seq == nil {
			seq = c.backoff.Start()
		}
		delay := seq.Next()
		if pb, ok := pushback(err); ok {
			if pb = clampPushback(pb, c.maxRetryAfter); pb > delay {
				delay = pb
			}
		}
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) <= delay {
			return giveUp(ReasonDeadline, last)
		}
		if !peekRetry(c.limiter) {
			return giveUp(ReasonBudget, last)
		}
		if c.onRetry != nil {
			c.onRetry(attempts, last, delay)
		}
		if err := Sleep(ctx, delay); err != nil {
			return giveUp(ctxReason(err), last)
		}
	}
}

// run makes one attempt, under the per-attempt timeout if one is set.
func (c *config) run(ctx context.Context, op func(context.Context) error) error {
	if c.attemptTimeout <= 0 {
		return op(ctx)
	}
	actx, cancel := context.WithTimeout(ctx, c.attemptTimeout)
	defer cancel()
	return op(actx)
}

// retryPeeker is implemented by the package's budgets, whose Allow counts
// (and in a RatioBudget spends): peekRetry reports whether Allow would
// grant a retry now without counting a grant, and counts a denial.
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
