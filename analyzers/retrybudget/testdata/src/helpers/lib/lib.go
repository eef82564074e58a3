// Package lib holds generic retry helpers and calls one of them itself.
package lib

import (
	"context"
	"net/http"
	"time"
)

// Do retries op three times: it consults no budget. A call in this
// package passes it a remote call, so the one finding stands here.
func Do(ctx context.Context, op func() error) error {
	var err error
	for i := 0; i < 3; i++ { // want `retry helper has no retry budget \(1 call passes it a remote call\)`
		if err = op(); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(i+1) * 100 * time.Millisecond):
		}
	}
	return err
}

// Ping passes Do a remote call through a closure kept in a variable.
func Ping(ctx context.Context, c *http.Client, url string) error {
	call := func() error {
		resp, err := c.Get(url)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}
	return Do(ctx, call)
}

// Local passes Do local work: no budget needed for it.
func Local(ctx context.Context) error {
	return Do(ctx, func() error { return nil })
}

// Each retries op twice; no call in this package passes it anything.
func Each(ctx context.Context, op func() error) error {
	var err error
	for i := 0; i < 2; i++ {
		if err = op(); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return err
}
