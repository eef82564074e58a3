// Package objstore is an object-store client whose requests retry on a
// source of retry ticks, an iterator that waits between attempts.
package objstore

import (
	"context"
	"errors"
	"math/rand"
	"net/http"
	"time"
)

type Client struct {
	hc       *http.Client
	endpoint string
}

// attempts yields up to n attempt numbers, waiting a jittered, growing
// delay after each.
func (c *Client) attempts(ctx context.Context, n int) func(func(int) bool) {
	return func(yield func(int) bool) {
		for i := 0; i < n; i++ {
			if !yield(i) {
				return
			}
			d := time.Duration(rand.Int63n(int64(50 * time.Millisecond << i)))
			select {
			case <-time.After(d):
			case <-ctx.Done():
				return
			}
		}
	}
}

func (c *Client) do(ctx context.Context, method, path string) (*http.Response, error) {
	var err error
	for range c.attempts(ctx, 5) {
		req, rerr := http.NewRequestWithContext(ctx, method, c.endpoint+path, nil)
		if rerr != nil {
			return nil, rerr
		}
		var resp *http.Response
		resp, err = c.hc.Do(req)
		if err == nil && resp.StatusCode < 500 {
			return resp, nil
		}
		if err == nil {
			resp.Body.Close()
			err = errors.New(resp.Status)
		}
	}
	return nil, err
}

// Head reports an object's size.
func (c *Client) Head(ctx context.Context, name string) (int64, error) {
	resp, err := c.do(ctx, http.MethodHead, "/"+name)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	return resp.ContentLength, nil
}
