package fix

import (
	"context"
	"errors"
	"net/http"
	"time"
)

type LedgerClient struct{ c *http.Client }

func (l *LedgerClient) Balance(ctx context.Context, url string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	for i := 0; i < 3; i++ { // want `retry loop has no retry budget`
		resp, err := l.c.Do(req)
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

func (l *LedgerClient) Ping(ctx context.Context, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodHead, url, nil)
	if err != nil {
		return err
	}
	var lastErr error
	for attempt := range 3 { // want `retry loop has no retry budget`
		resp, err := l.c.Do(req)
		if err == nil {
			return resp.Body.Close()
		}
		lastErr = err
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(attempt) * time.Second):
		}
	}
	return lastErr
}
