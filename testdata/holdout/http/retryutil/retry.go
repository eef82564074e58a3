// Package retryutil holds small retry and polling helpers shared by the
// clients in this module.
package retryutil

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/retrylint/retrylint/budget"
)

// ErrGaveUp wraps the last error when Do runs out of attempts.
var ErrGaveUp = errors.New("retryutil: gave up")

// Do calls fn up to attempts times, waiting a full-jitter exponential delay
// (starting at base, capped at 10 s) between attempts and stopping when ctx
// is done.
func Do[T any](ctx context.Context, attempts int, base time.Duration, fn func(context.Context) (T, error)) (T, error) {
	var (
		zero T
		err  error
	)
	ceiling := base
	for i := 0; i < attempts; i++ {
		if i > 0 {
			// Full jitter: a random wait in [0, ceiling).
			if serr := budget.Sleep(ctx, rand.N(ceiling)); serr != nil {
				return zero, errors.Join(serr, err)
			}
			ceiling = min(ceiling*2, 10*time.Second)
		}
		var v T
		v, err = fn(ctx)
		if err == nil {
			return v, nil
		}
		if budget.IsPermanent(err) {
			return zero, err
		}
	}
	return zero, errors.Join(ErrGaveUp, err)
}

// Poll calls cond every interval until it reports done, returns an error,
// or ctx ends.
func Poll(ctx context.Context, interval time.Duration, cond func() (bool, error)) error {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		done, err := cond()
		if err != nil {
			return err
		}
		if done {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
}
