// Package backoffv2 pins the unversioned path of cenkalti/backoff (v1 and
// v2, last v2.2.1+incompatible), whose Retry takes the operation and a
// BackOff as v4's does.
package backoffv2

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/cenkalti/backoff"

	"libs/remote"
)

func get() error {
	_, err := http.Get("http://example.com")
	return err
}

// Safe: jittered by default, capped, bound to the context, budgeted.
func safe(ctx context.Context) error {
	return backoff.Retry(func() error {
		if !remote.Limiter.Allow() {
			return backoff.Permanent(errors.New("budget"))
		}
		return remote.Fetch(ctx)
	}, backoff.WithContext(backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 3), ctx))
}

// Safe: no context in scope, local work, bounded by the default
// MaxElapsedTime.
func safeNoCtx() error {
	return backoff.Retry(remote.Local, backoff.NewExponentialBackOff())
}

// A database opened and pinged at start-up, retried on a constant backoff.
func constant(ctx context.Context) error {
	b := backoff.NewConstantBackOff(time.Second) // want `retrysleep: backoff.ConstantBackOff waits the same delay between attempts`
	return backoff.Retry(remote.Local, backoff.WithContext(backoff.WithMaxRetries(b, 15), ctx))
}

func noJitterField(ctx context.Context) error {
	b := backoff.NewExponentialBackOff()
	b.RandomizationFactor = 0 // want `retryjitter: backoff.ExponentialBackOff with RandomizationFactor 0`
	return backoff.RetryNotify(remote.Local, backoff.WithContext(b, ctx), nil)
}

func noContext(ctx context.Context) error {
	return backoff.Retry(remote.Local, backoff.NewExponentialBackOff()) // want `retrydeadline: backoff.Retry without backoff.WithContext never observes ctx`
}

func noBudget(ctx context.Context) error {
	return backoff.Retry(get, backoff.WithContext(backoff.NewExponentialBackOff(), ctx)) // want `retrybudget: backoff.Retry around a remote call consults no retry budget`
}

func unbounded() error {
	b := backoff.NewExponentialBackOff()
	b.MaxElapsedTime = 0 // want `retrybudget: backoff.Retry with no WithMaxRetries and no MaxElapsedTime has no bound`
	return backoff.Retry(remote.Local, b)
}
