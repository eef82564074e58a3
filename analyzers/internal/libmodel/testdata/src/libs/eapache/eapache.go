package eapache

import (
	"context"
	"net/http"
	"time"

	"github.com/eapache/go-resiliency/retrier"

	"libs/remote"
)

// Safe: jitter, a context, a budget.
func safe(ctx context.Context) error {
	r := retrier.New(retrier.ExponentialBackoff(3, 100*time.Millisecond), nil)
	r.SetJitter(0.5)
	return r.RunCtx(ctx, func(ctx context.Context) error {
		if err := remote.Limiter.Wait(ctx); err != nil {
			return err
		}
		return remote.Fetch(ctx)
	})
}

// Safe: no context in scope, bounded by the backoff slice.
func safeRun() error {
	r := retrier.New(retrier.LimitedExponentialBackoff(5, time.Second, 10*time.Second), retrier.DefaultClassifier{})
	r.SetJitter(0.25)
	return r.Run(remote.Local)
}

func noJitter(ctx context.Context) error {
	r := retrier.New(retrier.ExponentialBackoff(3, time.Second), nil) // want `retryjitter: retrier.ExponentialBackoff without SetJitter grows without jitter`
	return r.RunCtx(ctx, func(ctx context.Context) error { return remote.Local() })
}

func constant() error {
	r := retrier.New(retrier.ConstantBackoff(3, time.Second), nil) // want `retrysleep: retrier.ConstantBackoff without SetJitter waits the same delay`
	return r.Run(remote.Local)
}

func infinite() error {
	r := retrier.New(retrier.ConstantBackoff(1, time.Second), nil).WithInfiniteRetry()
	r.SetJitter(0.2)
	return r.Run(remote.Local) // want `retrybudget: retrier with WithInfiniteRetry and no deadline`
}

func noContext(ctx context.Context) error {
	r := retrier.New(retrier.ExponentialBackoff(3, time.Second), nil)
	r.SetJitter(0.2)
	return r.Run(func() error { // want `retrydeadline: retrier.Run never observes ctx` `retrybudget: retrier.Run around a remote call consults no retry budget`
		_, err := http.Get("http://example.com")
		return err
	})
}
