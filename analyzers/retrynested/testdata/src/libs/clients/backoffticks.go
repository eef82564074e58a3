package clients

import (
	"context"
	"log"

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

// BackoffPolicyVar: the same with the policy built in a variable and
// the operation's error a named result.
func BackoffPolicyVar(ctx context.Context, c *tickstore.Client, name string) (int64, error) {
	var n int64
	b := backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 10)
	b = backoff.WithContext(b, ctx)
	err := backoff.Retry( // want `library retry retries a call that already retries`
		func() (err error) {
			n, err = c.Stat(ctx, name)
			return
		},
		b,
	)
	return n, err
}

// BackoffLogsInner: the operation only logs the client's failure and
// returns an error of its own by a bare return: the client's retries are
// no layer of this retry.
func BackoffLogsInner(ctx context.Context, c *tickstore.Client, name string, check func() error) error {
	return backoff.Retry(func() (err error) {
		if _, serr := c.Stat(ctx, name); serr != nil {
			log.Print(serr)
		}
		err = check()
		return
	}, backoff.WithContext(backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 10), ctx))
}
