package fix

import (
	"context"
	"errors"
	"time"
)

func doubling(op func() error) error {
	delay := 100 * time.Millisecond
	for i := 0; i < 5; i++ {
		if err := op(); err == nil {
			return nil
		}
		time.Sleep(delay) // want `backoff grows without jitter`
		delay *= 2
	}
	return errors.New("gave up")
}

func selectShift(ctx context.Context, op func(context.Context) error) error {
	for i := 0; i < 5; i++ {
		if err := op(ctx); err == nil {
			return nil
		}
		select { // want `backoff grows without jitter`
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond << i):
		}
	}
	return errors.New("gave up")
}
