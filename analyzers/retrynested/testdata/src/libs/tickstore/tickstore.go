// Package tickstore is an object-store client whose requests retry on a
// channel of attempt numbers that a goroutine feeds, waiting a growing,
// jittered delay between sends.
package tickstore

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

// tries sends up to n attempt numbers, waiting between them.
func (c *Client) tries(ctx context.Context, n int) <-chan int {
	ch := make(chan int)
	go func() {
		defer close(ch)
		for i := 0; i < n; i++ {
			select {
			case ch <- i:
			case <-ctx.Done():
				return
			}
			select {
			case <-time.After(time.Duration(rand.Int63n(int64(100 * time.Millisecond << i)))):
			case <-ctx.Done():
				return
			}
		}
	}()
	return ch
}

func (c *Client) send(ctx context.Context, method, path string) (*http.Response, error) {
	err := errors.New("no attempt")
	for range c.tries(ctx, 4) {
		var req *http.Request
		req, err = http.NewRequestWithContext(ctx, method, c.endpoint+path, nil)
		if err != nil {
			return nil, err
		}
		var resp *http.Response
		if resp, err = c.hc.Do(req); err == nil && resp.StatusCode < 500 {
			return resp, nil
		}
		if err == nil {
			resp.Body.Close()
			err = errors.New(resp.Status)
		}
	}
	return nil, err
}

// Stat reports an object's size.
func (c *Client) Stat(ctx context.Context, name string) (int64, error) {
	resp, err := c.send(ctx, http.MethodHead, "/"+name)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	return resp.ContentLength, nil
}
