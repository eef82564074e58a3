package backoffv4

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/cenkalti/backoff/v4"

	"libs/remote"
)

func get() error {
	_, err := http.Get("http://example.com")
	return err
}

// Safe: the default exponential backoff is jittered, capped by
// MaxElapsedTime (15 min), bound to the context and the op consults a budget.
func safe(ctx context.Context) error {
	return backoff.Retry(func() error {
		if !remote.Limiter.Allow() {
			return backoff.Permanent(errors.New("budget"))
		}
		return remote.Fetch(ctx)
	}, backoff.WithContext(backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 3), ctx))
}

// Safe: configuration in a local variable, options, built in one statement
// and passed in the next.
func safeLocal(ctx context.Context) error {
	b := backoff.NewExponentialBackOff(backoff.WithMaxElapsedTime(time.Minute))
	bc := backoff.WithContext(b, ctx)
	return backoff.Retry(remote.Local, bc)
}

// Safe: no context in scope, bounded by the default MaxElapsedTime.
func safeNoCtx() error {
	return backoff.Retry(remote.Local, backoff.NewExponentialBackOff())
}

// Safe: a literal with RandomizationFactor set.
func safeLiteral(ctx context.Context) error {
	b := &backoff.ExponentialBackOff{
		InitialInterval:     100 * time.Millisecond,
		RandomizationFactor: 0.5,
		Multiplier:          2,
		MaxInterval:         10 * time.Second,
		MaxElapsedTime:      time.Minute,
		Stop:                backoff.Stop,
		Clock:               backoff.SystemClock,
	}
	return backoff.Retry(remote.Local, backoff.WithContext(b, ctx))
}

// Unknown: the backoff comes from the caller.
func param(ctx context.Context, b backoff.BackOff) error {
	return backoff.Retry(func() error { return remote.Fetch(ctx) }, b)
}

func noJitterLiteral(ctx context.Context) error {
	b := &backoff.ExponentialBackOff{InitialInterval: time.Second, Multiplier: 2, MaxInterval: time.Minute, MaxElapsedTime: time.Minute, Clock: backoff.SystemClock} // want `retryjitter: backoff.ExponentialBackOff with RandomizationFactor 0 grows without jitter: clients that failed together retry together`
	return backoff.Retry(remote.Local, backoff.WithContext(b, ctx))
}

func noJitterOption(ctx context.Context) error {
	b := backoff.NewExponentialBackOff(backoff.WithRandomizationFactor(0)) // want `retryjitter: backoff.ExponentialBackOff with RandomizationFactor 0`
	return backoff.Retry(remote.Local, backoff.WithContext(b, ctx))
}

func noJitterField(ctx context.Context) error {
	b := backoff.NewExponentialBackOff()
	b.RandomizationFactor = 0 // want `retryjitter: backoff.ExponentialBackOff with RandomizationFactor 0`
	return backoff.RetryNotify(remote.Local, backoff.WithContext(b, ctx), nil)
}

func constant(ctx context.Context) error {
	b := backoff.NewConstantBackOff(time.Second) // want `retrysleep: backoff.ConstantBackOff waits the same delay between attempts`
	return backoff.Retry(remote.Local, backoff.WithContext(backoff.WithMaxRetries(b, 3), ctx))
}

func zero() error {
	return backoff.Retry(remote.Local, backoff.WithMaxRetries(&backoff.ZeroBackOff{}, 3)) // want `retrysleep: backoff.ZeroBackOff retries without waiting`
}

func unbounded() error {
	b := backoff.NewExponentialBackOff()
	b.MaxElapsedTime = 0 // want `retrybudget: backoff.Retry with no WithMaxRetries and no MaxElapsedTime has no bound`
	return backoff.Retry(remote.Local, b)
}

func noContext(ctx context.Context) error {
	return backoff.Retry(remote.Local, backoff.NewExponentialBackOff()) // want `retrydeadline: backoff.Retry without backoff.WithContext never observes ctx`
}

func noBudget(ctx context.Context) error {
	return backoff.Retry(get, backoff.WithContext(backoff.NewExponentialBackOff(), ctx)) // want `retrybudget: backoff.Retry around a remote call consults no retry budget`
}

var pkgBackoff = &backoff.ExponentialBackOff{RandomizationFactor: 0, Multiplier: 2, MaxElapsedTime: time.Minute, Clock: backoff.SystemClock} // want `retryjitter: backoff.ExponentialBackOff with RandomizationFactor 0`

func packageVar(ctx context.Context) error {
	return backoff.Retry(remote.Local, backoff.WithContext(pkgBackoff, ctx))
}

// The policy is reassigned, so it is not followed; every value it takes is
// built by the library and none is its StopBackOff, so it retries, and the
// library has no budget: a remote operation needs one.
func reassigned(ctx context.Context) error {
	b := backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 10)
	b = backoff.WithContext(b, ctx)
	return backoff.Retry(func() error { return remote.Fetch(ctx) }, b) // want `retrybudget: backoff.Retry around a remote call consults no retry budget`
}

// Look-alike: the same with local work.
func reassignedLocal(ctx context.Context) error {
	b := backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 10)
	b = backoff.WithContext(b, ctx)
	return backoff.Retry(remote.Local, b)
}

// Look-alike: one of its values may be the StopBackOff (no retries).
func reassignedStop(ctx context.Context, off bool) error {
	var b backoff.BackOff = backoff.NewExponentialBackOff()
	if off {
		b = &backoff.StopBackOff{}
	}
	return backoff.Retry(func() error { return remote.Fetch(ctx) }, b)
}
