package goretry

import (
	"context"
	"time"

	"github.com/sethvargo/go-retry"
)

// A custom Backoff is unknown.
func custom(ctx context.Context) error {
	b := retry.BackoffFunc(func() (time.Duration, bool) { return time.Second, false })
	return retry.Do(ctx, b, op)
}

// A chain rebuilt step by step is followed no further than it is certain.
func steps(ctx context.Context) error {
	b := retry.NewExponential(time.Second)
	b = retry.WithMaxRetries(3, b)
	return retry.Do(ctx, b, op)
}

// A context from a struct is unknown: no deadline judgement.
type worker struct{ ctx context.Context }

func (w *worker) run() error {
	return retry.Do(w.ctx, retry.WithFullJitter(retry.NewExponential(time.Second)), op)
}

// An operation that never wraps its error in RetryableError never retries.
func neverRetryable() error {
	return retry.Fibonacci(context.Background(), time.Second, func(ctx context.Context) error {
		return nil
	})
}

// No retries at all.
func zeroRetries(ctx context.Context) error {
	return retry.Do(ctx, retry.WithMaxRetries(0, retry.NewConstant(time.Second)), op)
}
