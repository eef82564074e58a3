// Package rpc wraps a retry library in a helper of its own, the way a
// client retries every call through one function.
package rpc

import (
	"context"
	"net/http"

	"github.com/cenkalti/backoff/v5"
	"golang.org/x/time/rate"
)

type client struct {
	hc      *http.Client
	base    string
	limiter *rate.Limiter
}

// retryCall hands op to backoff.Retry: the one budget finding for its
// callers' remote calls stands here.
func retryCall[T any](ctx context.Context, op backoff.Operation[T]) (T, error) {
	return backoff.Retry(ctx, op, backoff.WithMaxTries(5)) // want `retry helper has no retry budget \(2 calls pass it a remote call\)`
}

func (c *client) get(ctx context.Context, path string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+path, nil)
	if err != nil {
		return 0, err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}

func (c *client) Users(ctx context.Context) (int, error) {
	return retryCall(ctx, func() (int, error) { return c.get(ctx, "/users") })
}

func (c *client) Groups(ctx context.Context) (int, error) {
	return retryCall(ctx, func() (int, error) { return c.get(ctx, "/groups") })
}

// Look-alike: local work through the helper.
func (c *client) Parse(ctx context.Context) (int, error) {
	return retryCall(ctx, func() (int, error) { return 0, nil })
}

// guardedCall: each attempt waits on a limiter; callers need no budget.
func guardedCall[T any](ctx context.Context, l *rate.Limiter, op backoff.Operation[T]) (T, error) {
	return backoff.Retry(ctx, func() (T, error) {
		if err := l.Wait(ctx); err != nil {
			var zero T
			return zero, backoff.Permanent(err)
		}
		return op()
	}, backoff.WithMaxTries(5))
}

func (c *client) Roles(ctx context.Context) (int, error) {
	return guardedCall(ctx, c.limiter, func() (int, error) { return c.get(ctx, "/roles") })
}

// Look-alike: a helper whose callers pass budgeted operations.
func (c *client) Teams(ctx context.Context) (int, error) {
	return retryCallOther(ctx, func() (int, error) {
		if err := c.limiter.Wait(ctx); err != nil {
			return 0, err
		}
		return c.get(ctx, "/teams")
	})
}

func retryCallOther[T any](ctx context.Context, op backoff.Operation[T]) (T, error) {
	return backoff.Retry(ctx, op, backoff.WithMaxTries(3))
}
