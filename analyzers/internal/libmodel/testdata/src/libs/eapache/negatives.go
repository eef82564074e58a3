package eapache

import (
	"context"

	"github.com/eapache/go-resiliency/retrier"

	"libs/remote"
)

// A retrier from the caller is unknown.
func param(ctx context.Context, r *retrier.Retrier) error {
	return r.Run(remote.Local)
}

// A jitter from configuration counts as jitter.
func configuredJitter(ctx context.Context, j float64) error {
	r := retrier.New(retrier.ConstantBackoff(3, 10), nil)
	r.SetJitter(j)
	return r.RunCtx(ctx, func(context.Context) error { return remote.Local() })
}
