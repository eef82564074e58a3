// Package avastv5: retry-go v5 runs the operation through a Retrier built
// by New(opts...); the options are v4's.
package avastv5

import (
	"context"
	"time"

	"github.com/avast/retry-go/v5"

	"libs/remote"
)

// Safe: the defaults (10 attempts, backoff plus random jitter) under the
// caller's context, the op gated by a budget.
func safe(ctx context.Context) error {
	return retry.New(retry.Context(ctx)).Do(func() error {
		if !remote.Limiter.Allow() {
			return retry.Unrecoverable(context.Canceled)
		}
		return remote.Fetch(ctx)
	})
}

// Safe: v5's token-bucket throttle is a retry budget.
func throttled(ctx context.Context, t retry.ThrottleManager) error {
	return retry.New(retry.Context(ctx), retry.WithThrottle(t)).Do(func() error { return remote.Fetch(ctx) })
}

// Unknown: a retrier handed in; its options cannot be seen.
func given(ctx context.Context, r *retry.Retrier) error {
	return r.Do(func() error { return remote.Fetch(ctx) })
}

// A retrier in a variable, reused.
func noContext(ctx context.Context) error {
	r := retry.New(retry.Attempts(3), retry.DelayType(retry.FullJitterBackoffDelay))
	return r.Do(remote.Local) // want `retrydeadline: retry.Do without retry.Context\(ctx\) waits on context.Background`
}

func noContextNoOptions(ctx context.Context) error {
	return retry.New().Do(remote.Local) // want `retrydeadline: retry.Do without retry.Context\(ctx\) waits on context.Background`
}

func noJitter(ctx context.Context) error {
	return retry.New(retry.Context(ctx), retry.DelayType(retry.BackOffDelay)).Do(remote.Local) // want `retryjitter: retry.DelayType\(retry.BackOffDelay\) grows the delay without jitter`
}

func fixed(ctx context.Context) error {
	return retry.New(retry.Context(ctx), retry.Delay(time.Second), retry.DelayType(retry.FixedDelay)).Do(remote.Local) // want `retrysleep: retry.DelayType\(retry.FixedDelay\) waits the same delay between attempts`
}

func withData(ctx context.Context) (int, error) {
	return retry.NewWithData[int](retry.Context(ctx)).Do(func() (int, error) { return 0, remote.Fetch(ctx) }) // want `retrybudget: retry.Do around a remote call consults no retry budget`
}

func unbounded() error {
	return retry.New(retry.UntilSucceeded()).Do(remote.Local) // want `retrybudget: retry.Do with no attempt limit`
}
