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

// Shapes the model reads since the blind corpus: the fix wraps the same
// delay argument in each.

type limits struct{ base, max time.Duration }

func (l *limits) cappedByConfig(op func() error) error {
	d := l.base
	for i := 0; i < 5; i++ {
		if err := op(); err == nil {
			return nil
		}
		time.Sleep(d) // want `backoff grows without jitter`
		d = min(d*2, l.max)
	}
	return errors.New("gave up")
}

type queue struct{ c chan int }

func (q *queue) offer(v int) bool {
	select {
	case q.c <- v:
		return true
	default:
		return false
	}
}

func (q *queue) offerAll(vs []int) {
	for _, v := range vs {
		backoff := 5 * time.Millisecond
		for {
			if q.offer(v) {
				break
			}
			time.Sleep(backoff) // want `backoff grows without jitter`
			backoff = min(backoff*2, time.Second)
		}
	}
}

func rising(op func() error) error {
	var err error
	for _, d := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second} {
		if err = op(); err == nil {
			return nil
		}
		time.Sleep(d) // want `backoff grows without jitter`
	}
	return err
}
