package handed

import (
	"context"
	"errors"
	"net/http"
	"time"
)

// send retries the request it is handed.
func send(c *http.Client, req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		resp, err := c.Do(req)
		if err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, errors.New("gave up")
}

func charge(ctx context.Context, c *http.Client, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil) // want `POST request is re-sent by a retry loop without an idempotency key`
	if err != nil {
		return err
	}
	resp, err := send(c, req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func chargeKeyed(ctx context.Context, c *http.Client, url, key string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", key)
	resp, err := send(c, req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func get(ctx context.Context, c *http.Client, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := send(c, req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
