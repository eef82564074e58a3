package avast

import (
	"context"
	"net/http"
	"time"

	"github.com/avast/retry-go/v4"

	"libs/remote"
)

func get() error {
	_, err := http.Get("http://example.com")
	return err
}

// Safe: the defaults (10 attempts, backoff plus random jitter) under the
// caller's context, the op gated by a budget.
func safe(ctx context.Context) error {
	return retry.Do(func() error {
		if !remote.Limiter.Allow() {
			return retry.Unrecoverable(context.Canceled)
		}
		return remote.Fetch(ctx)
	}, retry.Context(ctx))
}

// Safe: full jitter, attempts, options in a slice literal.
func safeOptions(ctx context.Context) error {
	opts := []retry.Option{
		retry.Attempts(3),
		retry.DelayType(retry.FullJitterBackoffDelay),
		retry.MaxDelay(10 * time.Second),
		retry.Context(ctx),
	}
	return retry.Do(remote.Local, opts...)
}

// Safe: fixed delay plus random jitter is not fixed.
func safeFixedJitter(ctx context.Context) error {
	return retry.Do(remote.Local, retry.DelayType(retry.CombineDelay(retry.FixedDelay, retry.RandomDelay)), retry.Context(ctx))
}

// Safe: no context in scope, the default attempt cap.
func safeNoCtx() error {
	return retry.Do(remote.Local)
}

// Safe: a caller's context bounds UntilSucceeded.
func safeUntil(ctx context.Context) error {
	return retry.Do(remote.Local, retry.UntilSucceeded(), retry.Context(ctx))
}

// Unknown: options from the caller.
func param(ctx context.Context, opts ...retry.Option) error {
	return retry.Do(get, opts...)
}

func noJitter(ctx context.Context) error {
	return retry.Do(remote.Local, retry.DelayType(retry.BackOffDelay), retry.Context(ctx)) // want `retryjitter: retry.DelayType\(retry.BackOffDelay\) grows the delay without jitter`
}

func fixed(ctx context.Context) error {
	return retry.Do(remote.Local, retry.DelayType(retry.FixedDelay), retry.Context(ctx)) // want `retrysleep: retry.DelayType\(retry.FixedDelay\) waits the same delay`
}

func unbounded() error {
	return retry.Do(remote.Local, retry.Attempts(0)) // want `retrybudget: retry.Do with no attempt limit`
}

func unboundedBackground() error {
	ctx := context.Background()
	return retry.Do(remote.Local, retry.UntilSucceeded(), retry.Context(ctx)) // want `retrybudget: retry.Do with no attempt limit` `retrydeadline: retry.Context with a context made by context.Background has no deadline`
}

func noContext(ctx context.Context) error {
	return retry.Do(remote.Local, retry.Attempts(3)) // want `retrydeadline: retry.Do without retry.Context\(ctx\) waits on context.Background`
}

func noBudget(ctx context.Context) error {
	_, err := retry.DoWithData(func() (int, error) { return 0, remote.Fetch(ctx) }, retry.Context(ctx)) // want `retrybudget: retry.Do around a remote call consults no retry budget`
	return err
}
