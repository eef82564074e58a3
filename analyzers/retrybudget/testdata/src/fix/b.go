package fix

import (
	"context"
	"errors"
	"net/http"
	"time"
)

func fetch(ctx context.Context, c *http.Client, req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ { // want `retry loop has no retry budget`
		resp, err := c.Do(req.WithContext(ctx))
		if err == nil {
			return resp, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Duration(i) * time.Second):
		}
	}
	return nil, errors.New("gave up")
}

func (l *LedgerClient) Again(ctx context.Context, req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ { // want `retry loop has no retry budget`
		resp, err := l.c.Do(req.WithContext(ctx))
		if err == nil {
			return resp, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Duration(i) * time.Second):
		}
	}
	return nil, errors.New("gave up")
}

// No fix: the call is not a statement of its own.
func inline(ctx context.Context, c *http.Client, req *http.Request) error {
	for i := 0; i < 3; i++ { // want `retry loop has no retry budget`
		if resp, err := c.Do(req.WithContext(ctx)); err == nil {
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
