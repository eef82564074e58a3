// Package backoffv7: cenkalti/backoff v7 keeps v5's entry point and
// options (SPEC: every major version is the same library).
package backoffv7

import (
	"context"
	"net/http"
	"time"

	"github.com/cenkalti/backoff/v7"

	"libs/remote"
)

func op() (int, error) { return 0, remote.Local() }

func get() (*http.Response, error) { return http.Get("http://example.com") }

// Safe: the jittered default backoff, the caller's context.
func safe(ctx context.Context) error {
	_, err := backoff.Retry(ctx, op)
	return err
}

// Safe: a budget consulted by the operation, tries capped.
func safeBudget(ctx context.Context) error {
	_, err := backoff.Retry(ctx, func() (int, error) {
		if err := remote.Limiter.Wait(ctx); err != nil {
			return 0, backoff.Permanent(err)
		}
		return 0, remote.Fetch(ctx)
	}, backoff.WithMaxTries(3))
	return err
}

// Safe: one try is no retry.
func once(ctx context.Context) error {
	_, err := backoff.Retry(ctx, get, backoff.WithMaxTries(1))
	return err
}

// Unknown: the backoff comes from the caller.
func param(ctx context.Context, b backoff.BackOff) error {
	_, err := backoff.Retry(ctx, get, backoff.WithBackOff(b), backoff.WithMaxTries(3))
	return err
}

func noJitter(ctx context.Context) error {
	b := &backoff.ExponentialBackOff{InitialInterval: time.Second, Multiplier: 2, MaxInterval: time.Minute} // want `retryjitter: backoff.ExponentialBackOff with RandomizationFactor 0 grows without jitter`
	_, err := backoff.Retry(ctx, op, backoff.WithBackOff(b))
	return err
}

func constant(ctx context.Context) error {
	_, err := backoff.Retry(ctx, op, backoff.WithBackOff(backoff.NewConstantBackOff(time.Second))) // want `retrysleep: backoff.ConstantBackOff waits the same delay between attempts`
	return err
}

func unbounded() error {
	ctx := context.Background()
	_, err := backoff.Retry(ctx, op, backoff.WithMaxElapsedTime(0)) // want `retrybudget: backoff.Retry with WithMaxElapsedTime\(0\) and no WithMaxTries has no bound` `retrydeadline: backoff.Retry under context.Background with WithMaxElapsedTime\(0\) has no deadline`
	return err
}

func noBudget(ctx context.Context) error {
	_, err := backoff.Retry(ctx, get, backoff.WithMaxTries(5)) // want `retrybudget: backoff.Retry around a remote call consults no retry budget`
	return err
}
