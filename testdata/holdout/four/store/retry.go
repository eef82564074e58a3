package store

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"time"
)

func isTransient(err error) bool {
	return errors.Is(err, driver.ErrBadConn) || isSerializationFailure(err)
}

// withRetry runs op up to attempts times, waiting delay between attempts,
// as long as the error is transient.
func withRetry[T any](ctx context.Context, attempts int, delay time.Duration, op func(context.Context) (T, error)) (T, error) {
	var zero T
	var lastErr error
	for i := 0; i < attempts; i++ {
		v, err := op(ctx)
		if err == nil {
			return v, nil
		}
		if !isTransient(err) {
			return zero, err
		}
		lastErr = err
		time.Sleep(delay)
	}
	return zero, fmt.Errorf("after %d attempts: %w", attempts, lastErr)
}
