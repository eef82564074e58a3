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

// do builds the request with the method it is given and retries it.
func do(ctx context.Context, c *http.Client, method, url string, hdr http.Header) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		req, err := http.NewRequestWithContext(ctx, method, url, nil)
		if err != nil {
			return nil, err
		}
		for k, v := range hdr {
			req.Header[k] = v
		}
		resp, err := c.Do(req)
		if err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, errors.New("gave up")
}

func create(ctx context.Context, c *http.Client, url string) error {
	resp, err := do(ctx, c, http.MethodPost, url, nil) // want `POST request is re-sent by a retry loop without an idempotency key`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Headers passed in may carry the key: silent.
func createWithHeaders(ctx context.Context, c *http.Client, url string, h http.Header) error {
	resp, err := do(ctx, c, http.MethodPost, url, h)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func read(ctx context.Context, c *http.Client, url string) error {
	resp, err := do(ctx, c, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
