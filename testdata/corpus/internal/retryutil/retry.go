// Package retryutil is the kind of small retry helper every codebase grows.
package retryutil

import (
	"context"
	"time"
)

// Do calls fn up to attempts times, waiting delay between attempts.
func Do(attempts int, delay time.Duration, fn func() error) error {
	var err error
	for i := 0; i < attempts; i++ {
		if err = fn(); err == nil {
			return nil
		}
		if i < attempts-1 {
			time.Sleep(delay)
		}
	}
	return err
}

// Exponential returns 100ms doubled n times, capped at ten seconds.
func Exponential(n int) time.Duration {
	d := 100 * time.Millisecond << n
	if d <= 0 || d > 10*time.Second {
		return 10 * time.Second
	}
	return d
}

// Value calls fn up to attempts times, waiting delay between attempts or
// until ctx is done, and returns its first successful value.
func Value[T any](ctx context.Context, attempts int, delay time.Duration, fn func(context.Context) (T, error)) (T, error) {
	var zero T
	var err error
	for i := 0; i < attempts; i++ {
		var v T
		if v, err = fn(ctx); err == nil {
			return v, nil
		}
		select {
		case <-ctx.Done():
			return zero, ctx.Err()
		case <-time.After(delay):
		}
	}
	return zero, err
}
