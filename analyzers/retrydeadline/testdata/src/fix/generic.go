package fix

import (
	"context"
	"fmt"
	"time"
)

// A generic retry helper: giving up returns T's zero value, which nil is
// not.
func retry[T any](ctx context.Context, n int, fn func(context.Context) (T, error)) (T, error) {
	var (
		v   T
		err error
	)
	for i := 0; i < n; i++ {
		v, err = fn(ctx)
		if err == nil {
			return v, nil
		}
		time.Sleep(200 * time.Millisecond) // want `retry sleeps while ctx is in scope`
	}
	return v, fmt.Errorf("after %d attempts: %w", n, err)
}

// The type parameter's pointer.
func first[T any, P interface{ *T }](ctx context.Context, fn func(context.Context) (P, error)) (P, int, error) {
	for i := 0; i < 3; i++ {
		p, err := fn(ctx)
		if err == nil {
			return p, i, nil
		}
		time.Sleep(time.Second) // want `retry sleeps while ctx is in scope`
	}
	return nil, 0, fmt.Errorf("gave up")
}
