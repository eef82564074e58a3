package clients

import (
	"context"

	"github.com/cenkalti/backoff/v4"

	"libs/tickstore"
)

// BackoffAroundTicks: cenkalti backoff's 11 attempts around a request of
// a client that retries on its own channel of attempt ticks.
func BackoffAroundTicks(ctx context.Context, c *tickstore.Client, name string) (int64, error) {
	var n int64
	err := backoff.Retry(func() error { // want `library retry retries a call that already retries`
		var err error
		n, err = c.Stat(ctx, name)
		return err
	}, backoff.WithContext(backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 10), ctx))
	return n, err
}
