package backoffv5

import (
	"context"
	"net/http"
	"time"

	"github.com/cenkalti/backoff/v5"

	"libs/remote"
)

func op() (int, error) { return 0, remote.Local() }

func get() (*http.Response, error) { return http.Get("http://example.com") }

// Safe: the defaults (jittered NewExponentialBackOff, 15 min elapsed limit)
// under the caller's context.
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

// Safe: a Background context is bounded by the default MaxElapsedTime.
func safeBackground() error {
	_, err := backoff.Retry(context.Background(), op, backoff.WithBackOff(backoff.NewExponentialBackOff()))
	return err
}

// Safe: a local backoff with jitter, passed in the next statement.
func safeLocal(ctx context.Context) error {
	b := backoff.NewExponentialBackOff()
	b.InitialInterval = 100 * time.Millisecond
	_, err := backoff.Retry(ctx, op, backoff.WithBackOff(b), backoff.WithMaxElapsedTime(time.Minute))
	return err
}

// Unknown: a backoff from the caller.
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
