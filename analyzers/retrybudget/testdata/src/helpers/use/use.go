// Package use calls the helpers of lib from another package.
package use

import (
	"context"
	"net/http"

	"helpers/lib"
)

type client struct {
	hc   *http.Client
	base string
}

func (c *client) get(ctx context.Context, path string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+path, nil)
	if err != nil {
		return err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Three calls of lib.Each with remote operations: one finding, at the
// first, the others related.
func (c *client) Users(ctx context.Context) error {
	return lib.Each(ctx, func() error { return c.get(ctx, "/users") }) // want `retry helper has no retry budget \(3 calls pass it a remote call here\)`
}

func (c *client) Groups(ctx context.Context) error {
	return lib.Each(ctx, func() error { return c.get(ctx, "/groups") })
}

func (c *client) Roles(ctx context.Context) error {
	return lib.Each(ctx, func() error { return c.get(ctx, "/roles") })
}

// Local work through the same helper: not counted.
func (c *client) Parse(ctx context.Context) error {
	return lib.Each(ctx, func() error { return nil })
}

// lib.Do already carries its one finding at its loop, in lib (lib.Ping
// passes it a remote call): none here.
func (c *client) Health(ctx context.Context) error {
	return lib.Do(ctx, func() error { return c.get(ctx, "/health") })
}
