package backoffv2

import (
	"context"
	"time"

	"github.com/cenkalti/backoff"

	"libs/remote"
)

type service struct {
	b backoff.BackOff
}

// A backoff from a struct field is unknown.
func (s *service) field(ctx context.Context) error {
	return backoff.Retry(remote.Local, s.b)
}

// A backoff built by a helper is unknown.
func helper(ctx context.Context) error {
	return backoff.Retry(remote.Local, newBackoff(ctx))
}

func newBackoff(ctx context.Context) backoff.BackOff {
	return backoff.WithContext(backoff.NewExponentialBackOff(), ctx)
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

// No retries at all.
func never(ctx context.Context) error {
	return backoff.Retry(remote.Local, backoff.WithContext(backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 0), ctx))
}

// A ticker the caller drives is not a Retry call.
func ticker(ctx context.Context) {
	t := backoff.NewTicker(backoff.NewExponentialBackOff())
	defer t.Stop()
	for range t.C {
		if remote.Local() == nil {
			return
		}
	}
}
