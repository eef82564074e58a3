package backoffv4

import (
	"context"
	"time"

	"github.com/cenkalti/backoff/v4"

	"libs/remote"
)

type service struct {
	b backoff.BackOff
}

// A backoff from a struct field is unknown.
func (s *service) field(ctx context.Context) error {
	return backoff.Retry(remote.Local, s.b)
}

// A backoff chosen on two paths is unknown.
func twoPaths(ctx context.Context, fast bool) error {
	var b backoff.BackOff
	if fast {
		b = backoff.NewConstantBackOff(time.Millisecond)
	} else {
		b = &backoff.ZeroBackOff{}
	}
	return backoff.Retry(remote.Local, b)
}

// A backoff built by a helper is unknown.
func helper(ctx context.Context) error {
	return backoff.Retry(remote.Local, newBackoff(ctx))
}

func newBackoff(ctx context.Context) backoff.BackOff {
	return backoff.WithContext(backoff.NewExponentialBackOff(), ctx)
}

// A closure retrying with a backoff of the enclosing function: unknown from
// inside the closure.
func closure(ctx context.Context) error {
	b := backoff.WithContext(&backoff.ZeroBackOff{}, ctx)
	done := make(chan error, 1)
	go func() {
		done <- backoff.Retry(remote.Local, b)
	}()
	return <-done
}

// A MaxElapsedTime from configuration is a limit we cannot judge.
func configured(ctx context.Context, limit time.Duration) error {
	b := backoff.NewExponentialBackOff()
	b.MaxElapsedTime = limit
	return backoff.Retry(remote.Local, backoff.WithContext(b, ctx))
}

// Stop never retries.
func stop() error {
	return backoff.Retry(remote.Local, &backoff.StopBackOff{})
}

// A remote op through a closure variable that consults a budget.
func budgetVar(ctx context.Context) error {
	op := func() error {
		if err := remote.Limiter.Wait(ctx); err != nil {
			return backoff.Permanent(err)
		}
		return remote.Fetch(ctx)
	}
	return backoff.Retry(op, backoff.WithContext(backoff.NewExponentialBackOff(), ctx))
}

// A value literal passed by address to the library is followed.
func valueLiteral(ctx context.Context) error {
	b := backoff.ExponentialBackOff{InitialInterval: time.Second, Multiplier: 2, MaxElapsedTime: time.Minute, Clock: backoff.SystemClock} // want `retryjitter: backoff.ExponentialBackOff with RandomizationFactor 0`
	return backoff.Retry(remote.Local, backoff.WithContext(&b, ctx))
}

// A value whose address escapes elsewhere is not.
func escapes(ctx context.Context, tune func(*backoff.ExponentialBackOff)) error {
	b := backoff.ExponentialBackOff{InitialInterval: time.Second, Multiplier: 2, MaxElapsedTime: time.Minute, Clock: backoff.SystemClock}
	tune(&b)
	return backoff.Retry(remote.Local, backoff.WithContext(&b, ctx))
}

// No retries at all.
func zeroRetries(ctx context.Context) error {
	return backoff.Retry(remote.Local, backoff.WithMaxRetries(&backoff.ZeroBackOff{}, 0))
}
