package shapes

import (
	"context"
	"errors"
	"net/http"
	"time"
)

// The model v3 decides these sites by the SPEC's definition; the walk
// describes them.

// A goto retry whose jump is guarded by a status test, not an error test.
func fetchAgain(c *http.Client, url string) (*http.Response, error) {
	tries := 0
again:
	resp, err := c.Get(url)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode == http.StatusServiceUnavailable && tries < 3 {
		resp.Body.Close()
		tries++
		time.Sleep(time.Second)
		goto again // want `retry site: shape=goto bound=counter delay=fixed jitter=no ctx=unknown remote$`
	}
	return resp, nil
}

// Look-alike: a goto that walks pages; the address advances each round.
func fetchPages(c *http.Client, urls []string) error {
	i := 0
next:
	resp, err := c.Get(urls[i])
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode == http.StatusOK && i+1 < len(urls) {
		i++
		goto next
	}
	return nil
}

// Look-alike: a test repeating a call it expects to fail; success
// panics, so no success leaves.
func mustFail(c *http.Client, url string) {
	for i := 0; i < 3; i++ {
		if _, err := c.Get(url); err == nil {
			panic("want a failure")
		}
		time.Sleep(time.Millisecond)
	}
}

// attempt is a generic retry helper: its own loop retries op.
func attempt(ctx context.Context, op func() error) error {
	var err error
	for i := 0; i < 4; i++ { // want `retry site: shape=counted bound=counter delay=growing jitter=no ctx=unknown consulted attempts=4$`
		if err = op(); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(i) * time.Second):
		}
	}
	return err
}

// withAttempts wraps the helper, handing it a closure that calls the
// operation it is given: a helper too.
func withAttempts(ctx context.Context, op func() error) error {
	return attempt(ctx, func() error {
		if err := op(); err != nil {
			return errors.Join(errors.New("call failed"), err)
		}
		return nil
	})
}

func pingThrough(ctx context.Context, c *http.Client, url string) error {
	return withAttempts(ctx, func() error { // want `retry site: shape=helper bound=unknown delay=unknown jitter=no ctx=unknown consulted remote$`
		resp, err := c.Get(url)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	})
}

// Look-alike: a function that runs its operation once, wrapping its error.
func runOnce(op func() error) error {
	if err := op(); err != nil {
		return errors.Join(errors.New("once"), err)
	}
	return nil
}

func pingOnly(c *http.Client, url string) error {
	return runOnce(func() error {
		resp, err := c.Get(url)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	})
}
