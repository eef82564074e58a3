package fix

import (
	"context"
	"errors"
	"net/http"
	"time"
)

// The guard goes after the per-attempt cancel, never before it.
func perAttempt(ctx context.Context, c *http.Client, url string) error {
	for i := 0; i < 3; i++ { // want `retry loop has no retry budget`
		actx, cancel := context.WithTimeout(ctx, time.Second)
		req, err := http.NewRequestWithContext(actx, http.MethodGet, url, nil)
		if err != nil {
			cancel()
			return err
		}
		resp, err := c.Do(req)
		cancel()
		if err == nil {
			return resp.Body.Close()
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(i) * time.Second):
		}
	}
	return errors.New("gave up")
}

// The cancel runs later: the guard goes after it, before the wait.
func cancelLater(ctx context.Context, c *http.Client, url string) error {
	for i := 0; i < 3; i++ { // want `retry loop has no retry budget`
		actx, cancel := context.WithTimeout(ctx, time.Second)
		req, err := http.NewRequestWithContext(actx, http.MethodGet, url, nil)
		if err != nil {
			cancel()
			return err
		}
		resp, err := c.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		cancel()
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(i) * time.Second):
		}
	}
	return errors.New("gave up")
}
