package netutil

import (
	"context"
	"fmt"
	"time"

	"github.com/retrylint/retrylint/budget"
)

// Retry calls fn up to attempts times, waiting delay between attempts.
func Retry(attempts int, delay time.Duration, fn func() error) error {
	var err error
	for i := 0; i < attempts; i++ {
		if err = fn(); err == nil {
			return nil
		}
		if i < attempts-1 {
			time.Sleep(delay)
		}
	}
	return fmt.Errorf("after %d attempts: %w", attempts, err)
}

// RetryBackoff calls fn up to four times, doubling the wait from 100ms.
func RetryBackoff[T any](fn func() (T, error)) (T, error) {
	var zero T
	var lastErr error
	for attempt := 0; attempt < 4; attempt++ {
		v, err := fn()
		if err == nil {
			return v, nil
		}
		lastErr = err
		time.Sleep(100 * time.Millisecond << attempt)
	}
	return zero, fmt.Errorf("retry: %w", lastErr)
}

// RetryValue calls fn up to attempts times under ctx, consulting b before
// each retry and waiting with full-jitter backoff.
func RetryValue[T any](ctx context.Context, b *budget.Adaptive, attempts int, fn func(context.Context) (T, error)) (T, error) {
	var zero T
	seq := budget.Backoff{}.Start()
	var err error
	for attempt := 1; attempt <= attempts; attempt++ {
		var v T
		v, err = fn(ctx)
		b.Record(err)
		if err == nil {
			return v, nil
		}
		if budget.IsPermanent(err) || attempt == attempts || !b.Allow() {
			break
		}
		if serr := budget.Sleep(ctx, seq.Next()); serr != nil {
			return zero, serr
		}
	}
	return zero, err
}
