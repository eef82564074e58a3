package a

import (
	"context"
	"errors"
	"math"
	"time"
)

func doubling(op func() error) error {
	delay := 100 * time.Millisecond
	for i := 0; i < 5; i++ {
		if err := op(); err == nil {
			return nil
		}
		time.Sleep(delay) // want `backoff grows without jitter: clients that failed together retry together`
		delay *= 2
	}
	return errors.New("gave up")
}

func shifted(ctx context.Context, op func(context.Context) error) error {
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

func pow(op func() error) error {
	for i := 0; i < 5; i++ {
		if err := op(); err == nil {
			return nil
		}
		time.Sleep(time.Duration(math.Pow(2, float64(i))) * time.Second) // want `backoff grows without jitter`
	}
	return errors.New("gave up")
}

func backoff(n int) time.Duration { return 50 * time.Millisecond << n }

func helper(op func() error) error {
	for i := 0; i < 5; i++ {
		if err := op(); err == nil {
			return nil
		}
		time.Sleep(backoff(i)) // want `backoff grows without jitter`
	}
	return errors.New("gave up")
}

// fixed delays are retrysleep's business.
func fixed(op func() error) error {
	for i := 0; i < 5; i++ {
		if err := op(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// Polling with growing delays: no failed operation is retried.
func pollGrowing(ready func() bool) {
	d := time.Millisecond
	for !ready() {
		time.Sleep(d)
		d *= 2
	}
}
