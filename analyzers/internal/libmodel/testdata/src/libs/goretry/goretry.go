package goretry

import (
	"context"
	"net/http"
	"time"

	"github.com/sethvargo/go-retry"

	"libs/remote"
)

func op(ctx context.Context) error { return retry.RetryableError(remote.Local()) }

func get(ctx context.Context) error {
	_, err := http.Get("http://example.com")
	return retry.RetryableError(err)
}

// Safe: jittered, capped, under the caller's context.
func safe(ctx context.Context) error {
	b := retry.NewExponential(100 * time.Millisecond)
	b = retry.WithFullJitter(b)
	b = retry.WithMaxRetries(3, b)
	return retry.Do(ctx, b, op)
}

// Safe: a chain in one expression, Background bounded by WithMaxDuration.
func safeChain() error {
	ctx := context.Background()
	b := retry.WithMaxDuration(time.Minute, retry.WithJitterPercent(10, retry.NewFibonacci(time.Second)))
	return retry.Do(ctx, b, op)
}

// Safe: a budget in the operation.
func safeBudget(ctx context.Context) error {
	return retry.Do(ctx, retry.WithMaxRetries(3, retry.WithJitter(time.Second, retry.NewExponential(time.Second))), func(ctx context.Context) error {
		if err := remote.Limiter.Wait(ctx); err != nil {
			return err
		}
		return retry.RetryableError(remote.Fetch(ctx))
	})
}

// Safe: a constant delay with jitter is not fixed.
func safeConstantJitter(ctx context.Context) error {
	return retry.Do(ctx, retry.WithJitterPercent(20, retry.WithMaxRetries(5, retry.NewConstant(time.Second))), op)
}

// Unknown: a backoff from the caller.
func param(ctx context.Context, b retry.Backoff) error {
	return retry.Do(ctx, b, get)
}

func noJitter(ctx context.Context) error {
	b := retry.WithMaxRetries(3, retry.NewExponential(time.Second)) // want `retryjitter: retry.NewExponential backoff has no jitter`
	return retry.Do(ctx, b, op)
}

func constant(ctx context.Context) error {
	return retry.Do(ctx, retry.WithMaxRetries(3, retry.NewConstant(time.Second)), op) // want `retrysleep: retry.NewConstant waits the same delay`
}

func shorthand() error {
	ctx := context.Background()
	return retry.Fibonacci(ctx, time.Second, op) // want `retryjitter: retry.Fibonacci backoff has no jitter` `retrybudget: retry.Fibonacci with no WithMaxRetries and no WithMaxDuration has no bound` `retrydeadline: retry.Fibonacci under context.Background`
}

func noBudget(ctx context.Context) error {
	return retry.Do(ctx, retry.WithMaxRetries(3, retry.WithFullJitter(retry.NewExponential(time.Second))), get) // want `retrybudget: retry.Do around a remote call consults no retry budget`
}
