package shapes

import (
	"context"
	"net/http"
	"time"
)

// A loop over a source of retry ticks (the minio-go shape: for range
// c.newRetryTimer(ctx, ...)) is a retry loop: the source waits between
// attempts and decides when they end.

func retryTimer(ctx context.Context, n int) func(func(int) bool) {
	return func(yield func(int) bool) {
		for i := range n {
			if !yield(i) {
				return
			}
			select {
			case <-time.After(100 * time.Millisecond << i):
			case <-ctx.Done():
				return
			}
		}
	}
}

func sequence(n int) func(func(int) bool) {
	return func(yield func(int) bool) {
		for i := range n {
			if !yield(i) {
				return
			}
		}
	}
}

func executeMethod(ctx context.Context, c *http.Client, req *http.Request) (*http.Response, error) {
	var err error
	for range retryTimer(ctx, 10) { // want `retry site: shape=bare bound=unknown delay=unknown jitter=no ctx=unknown remote req=?`
		var resp *http.Response
		resp, err = c.Do(req.WithContext(ctx))
		if err == nil && resp.StatusCode < 500 {
			return resp, nil
		}
		if err == nil {
			resp.Body.Close()
		}
	}
	return nil, err
}

func executeNumbered(ctx context.Context, c *http.Client, req *http.Request) (*http.Response, error) {
	var err error
	for attempt := range retryTimer(ctx, 3) { // want `retry site: shape=bare bound=unknown delay=unknown jitter=no ctx=unknown remote req=?`
		_ = attempt
		var resp *http.Response
		if resp, err = c.Do(req.WithContext(ctx)); err == nil {
			return resp, nil
		}
	}
	return nil, err
}

// Look-alike: a plain sequence of numbers is a collection (each pass a
// shard of its own).
func perShard(ctx context.Context, c *http.Client, reqs []*http.Request) error {
	for i := range sequence(len(reqs)) {
		resp, err := c.Do(reqs[i].WithContext(ctx))
		if err != nil {
			return err
		}
		resp.Body.Close()
	}
	return nil
}
