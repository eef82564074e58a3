package fix

import (
	"context"
	"errors"
	"net/http"
	"time"
)

type result struct{ n int }

func sleepy(ctx context.Context, op func(context.Context) (result, error)) (result, error) {
	for i := 0; i < 3; i++ {
		r, err := op(ctx)
		if err == nil {
			return r, nil
		}
		// wait before the next attempt
		time.Sleep(500 * time.Millisecond) // want `retry sleeps while ctx is in scope`
	}
	return result{}, errors.New("gave up")
}

func noResults(ctx context.Context, op func(context.Context) error) {
	for i := 0; i < 3; i++ {
		if err := op(ctx); err == nil {
			return
		}
		time.Sleep(time.Second) // want `retry sleeps while ctx is in scope`
	}
}

func background(c *http.Client, url string) (*http.Response, error) {
	ctx := context.Background()
	for i := 0; i < 3; i++ { // want `retry loop runs without a deadline: its attempts run under a context with no deadline`
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.Do(req)
		if err == nil {
			return resp, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return nil, errors.New("gave up")
}

// No fix: the results do not end in error.
func noErrResult(ctx context.Context, op func(context.Context) error) bool {
	for i := 0; i < 3; i++ {
		if err := op(ctx); err == nil {
			return true
		}
		time.Sleep(time.Second) // want `retry sleeps while ctx is in scope`
	}
	return false
}

type feed struct{ ctx context.Context }

// The context is a local of the enclosing function, captured by the
// goroutine's literal: the wait gives up when it is done.
func (f *feed) start(op func(context.Context) error) {
	ctx := f.ctx
	go func() {
		for i := 0; i < 3; i++ {
			if err := op(ctx); err == nil {
				return
			}
			time.Sleep(time.Second) // want `retry sleeps while ctx is in scope`
		}
	}()
}
