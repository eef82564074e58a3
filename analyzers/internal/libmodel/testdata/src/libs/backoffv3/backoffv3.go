// Package backoffv3 pins cenkalti/backoff v3, whose Retry takes the
// operation and a BackOff as v4's does.
package backoffv3

import (
	"context"
	"net/http"
	"time"

	"github.com/cenkalti/backoff/v3"

	"libs/remote"
)

func get() error {
	_, err := http.Get("http://example.com")
	return err
}

// Safe: local work, jittered, bounded, bound to the context.
func safe(ctx context.Context) error {
	return backoff.Retry(remote.Local, backoff.WithContext(backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 3), ctx))
}

// Unknown: the backoff comes from the caller.
func param(b backoff.BackOff) error {
	return backoff.Retry(get, b)
}

// Stop never retries.
func stop() error {
	return backoff.Retry(get, &backoff.StopBackOff{})
}

func constant(ctx context.Context) error {
	b := backoff.NewConstantBackOff(time.Second) // want `retrysleep: backoff.ConstantBackOff waits the same delay between attempts`
	return backoff.Retry(remote.Local, backoff.WithContext(backoff.WithMaxRetries(b, 3), ctx))
}

func noBudget(ctx context.Context) error {
	return backoff.Retry(get, backoff.WithContext(backoff.NewExponentialBackOff(), ctx)) // want `retrybudget: backoff.Retry around a remote call consults no retry budget`
}
