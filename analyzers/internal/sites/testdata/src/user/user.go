// Package user calls the helpers of another package: their summaries
// arrive as facts.
package user

import (
	"context"

	"helper"
)

func send(ctx context.Context) error { return nil }

func Send(ctx context.Context) error {
	return helper.WrapCtx(ctx, send) // want `helper call deadline=unknown`
}

func SendWith(ctx context.Context, c *helper.Client) error {
	return c.Do(ctx, send) // want `helper call`
}

// Forward is a wrapper across the package boundary.
func Forward(ctx context.Context, op func(context.Context) error) error { // want `retries params \[1\]`
	return helper.WrapCtx(ctx, op)
}

// Once is not a retry.
func Once(ctx context.Context) error {
	return helper.Once(func() error { return send(ctx) })
}
