package k8s

import (
	"context"
	"net/http"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/util/retry"

	"libs/remote"
)

// The client-go defaults are jittered; a conflict retry around a remote
// call is a retry site like any other, which needs a budget (SPEC); the
// library sleeps with time.Sleep and never observes the caller's ctx,
// but its waits together stay under a second (4 × 10ms): a cancelled
// caller waits no longer than that.
func conflictCtx(ctx context.Context) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error { return remote.Fetch(ctx) }) // want `retrybudget: retry.RetryOnConflict around a remote call consults no retry budget`
}

// A backoff of its own whose waits together pass a second: cancellation
// waits them out.
func conflictLong(ctx context.Context) error {
	b := wait.Backoff{Duration: 100 * time.Millisecond, Factor: 2, Jitter: 0.5, Steps: 5}
	return retry.RetryOnConflict(b, func() error { return remote.Fetch(ctx) }) // want `retrydeadline: retry.RetryOnConflict sleeps with time.Sleep and never observes ctx` `retrybudget: retry.RetryOnConflict around a remote call consults no retry budget`
}

// Short waits of its own: 10ms + 20ms + 40ms, +50% at most.
func conflictShort(ctx context.Context) error {
	b := wait.Backoff{Duration: 10 * time.Millisecond, Factor: 2, Jitter: 0.5, Steps: 4}
	return retry.RetryOnConflict(b, func() error { return remote.Fetch(ctx) }) // want `retrybudget: retry.RetryOnConflict around a remote call consults no retry budget`
}

// A cap keeps ten waits of 50ms under a second.
func conflictCapped(ctx context.Context) error {
	b := wait.Backoff{Duration: 10 * time.Millisecond, Factor: 3, Jitter: 0.1, Steps: 10, Cap: 50 * time.Millisecond}
	return retry.RetryOnConflict(b, func() error { return remote.Fetch(ctx) }) // want `retrybudget: retry.RetryOnConflict around a remote call consults no retry budget`
}

// A backoff the code changes after building it: not known, so the
// clause holds.
func conflictChanged(ctx context.Context, steps int) error {
	b := wait.Backoff{Duration: 10 * time.Millisecond, Factor: 1, Jitter: 0.1, Steps: 3}
	b.Steps = steps
	return retry.RetryOnConflict(b, func() error { return remote.Fetch(ctx) }) // want `retrydeadline: retry.RetryOnConflict sleeps with time.Sleep and never observes ctx` `retrybudget: retry.RetryOnConflict around a remote call consults no retry budget`
}

// No context in scope to observe, and the operation's own: only the
// budget is missing.
func safeConflict() error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error { // want `retrybudget: retry.RetryOnConflict around a remote call consults no retry budget`
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		return remote.Fetch(ctx)
	})
}

// Safe: jitter, a context, a budget in the condition.
func safe(ctx context.Context) error {
	b := wait.Backoff{Duration: 100 * time.Millisecond, Factor: 2, Jitter: 0.5, Steps: 5, Cap: 10 * time.Second}
	return wait.ExponentialBackoffWithContext(ctx, b, func(ctx context.Context) (bool, error) {
		if !remote.Limiter.Allow() {
			return false, context.Canceled
		}
		return remote.Fetch(ctx) == nil, nil
	})
}

// Safe: OnError with the jittered default backoff on a local operation.
func safeOnError() error {
	return retry.OnError(retry.DefaultBackoff, func(error) bool { return true }, remote.Local)
}

// Unknown: a backoff from the caller.
func param(ctx context.Context, b wait.Backoff) error {
	return wait.ExponentialBackoffWithContext(ctx, b, func(ctx context.Context) (bool, error) { return true, nil })
}

func noJitter(ctx context.Context) error {
	b := wait.Backoff{Duration: time.Second, Factor: 2, Steps: 5} // want `retryjitter: wait.Backoff grows by Factor 2 without Jitter`
	return wait.ExponentialBackoffWithContext(ctx, b, func(ctx context.Context) (bool, error) { return true, nil })
}

func fixed() error {
	return retry.OnError(wait.Backoff{Duration: time.Second, Factor: 1, Steps: 5}, func(error) bool { return true }, remote.Local) // want `retrysleep: wait.Backoff with Factor 1 and no Jitter waits the same delay`
}

// DefaultBackoff waits 10ms + 50ms + 250ms, +10% at most: under a second.
func noContextShort(ctx context.Context) error {
	return wait.ExponentialBackoff(retry.DefaultBackoff, func() (bool, error) { return true, nil })
}

func noContext(ctx context.Context) error {
	b := wait.Backoff{Duration: time.Second, Factor: 2, Jitter: 0.5, Steps: 3}
	return wait.ExponentialBackoff(b, func() (bool, error) { return true, nil }) // want `retrydeadline: wait.ExponentialBackoff sleeps with time.Sleep and never observes ctx`
}

func noBudget() error {
	return retry.OnError(retry.DefaultBackoff, func(error) bool { return true }, func() error { // want `retrybudget: retry.OnError around a remote call consults no retry budget`
		_, err := http.Get("http://example.com")
		return err
	})
}

// Safe: the conflict retry consults a budget.
func conflictBudgeted(ctx context.Context) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if !remote.Limiter.Allow() {
			return context.Canceled
		}
		return remote.Fetch(ctx)
	})
}

// Safe: local work retried on conflict.
func conflictLocal(ctx context.Context) error {
	return retry.RetryOnConflict(retry.DefaultRetry, remote.Local)
}
