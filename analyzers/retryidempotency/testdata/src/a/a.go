package a

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"
)

func post(url string, body []byte) error {
	for i := 0; i < 3; i++ {
		resp, err := http.Post(url, "application/json", bytes.NewReader(body)) // want `POST request is re-sent by a retry loop without an idempotency key`
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

func patch(ctx context.Context, c *http.Client, url string, body []byte) error {
	for i := 0; i < 3; i++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPatch, url, bytes.NewReader(body))
		if err != nil {
			return err
		}
		resp, err := c.Do(req) // want `PATCH request is re-sent by a retry loop without an idempotency key`
		if err == nil {
			resp.Body.Close()
			return nil
		}
	}
	return errors.New("gave up")
}

func mintedInLoop(ctx context.Context, c *http.Client, url string) error {
	for i := 0; i < 3; i++ {
		req, err := http.NewRequestWithContext(ctx, "POST", url, nil)
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", strconv.FormatInt(time.Now().UnixNano(), 10)) // want `idempotency key is minted on every attempt`
		resp, err := c.Do(req)
		if err == nil {
			resp.Body.Close()
			return nil
		}
	}
	return errors.New("gave up")
}

func keyed(ctx context.Context, c *http.Client, url, key string) error {
	for i := 0; i < 3; i++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
		if err != nil {
			return err
		}
		req.Header.Set("X-Idempotency-Key", key)
		resp, err := c.Do(req)
		if err == nil {
			resp.Body.Close()
			return nil
		}
	}
	return errors.New("gave up")
}

func put(ctx context.Context, c *http.Client, url string) error {
	for i := 0; i < 3; i++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPut, url, nil)
		if err != nil {
			return err
		}
		resp, err := c.Do(req)
		if err == nil {
			resp.Body.Close()
			return nil
		}
	}
	return errors.New("gave up")
}

// A single POST after the retried GET succeeds is not re-sent.
func notifyOnce(url string) error {
	for i := 0; i < 3; i++ {
		resp, err := http.Get(url)
		if err != nil {
			continue
		}
		resp.Body.Close()
		r, err := http.Post(url, "text/plain", nil)
		if err == nil {
			r.Body.Close()
		}
		return err
	}
	return errors.New("gave up")
}

// The method is not a constant: cannot tell.
func dynamic(ctx context.Context, c *http.Client, method, url string) error {
	for i := 0; i < 3; i++ {
		req, err := http.NewRequestWithContext(ctx, method, url, nil)
		if err != nil {
			return err
		}
		resp, err := c.Do(req)
		if err == nil {
			resp.Body.Close()
			return nil
		}
	}
	return errors.New("gave up")
}

// The method held in a local set once.
func localMethod(ctx context.Context, c *http.Client, url string) error {
	method := http.MethodPost
	for i := 0; i < 3; i++ {
		req, err := http.NewRequestWithContext(ctx, method, url, nil)
		if err != nil {
			return err
		}
		resp, err := c.Do(req) // want `POST request is re-sent by a retry loop without an idempotency key`
		if err == nil {
			resp.Body.Close()
			return nil
		}
	}
	return errors.New("gave up")
}

// A method variable assigned twice: cannot tell.
func twoMethods(ctx context.Context, c *http.Client, url string, create bool) error {
	method := http.MethodPut
	if create {
		method = http.MethodPost
	}
	for i := 0; i < 3; i++ {
		req, err := http.NewRequestWithContext(ctx, method, url, nil)
		if err != nil {
			return err
		}
		resp, err := c.Do(req)
		if err == nil {
			resp.Body.Close()
			return nil
		}
	}
	return errors.New("gave up")
}

// Any header name ending in Idempotency-Key is a key, in any case (SPEC,
// settled 2026-12-06): a vendor's prefix does not hide it.
func vendorKeyed(ctx context.Context, c *http.Client, url, key string) error {
	for i := 0; i < 3; i++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
		if err != nil {
			return err
		}
		req.Header.Set("k6-idempotency-key", key)
		resp, err := c.Do(req)
		if err == nil {
			resp.Body.Close()
			return nil
		}
	}
	return errors.New("gave up")
}

// A name that only contains the words is not one.
func idempotencyKeyID(ctx context.Context, c *http.Client, url, key string) error {
	for i := 0; i < 3; i++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key-Id", key)
		resp, err := c.Do(req) // want `POST request is re-sent by a retry loop without an idempotency key`
		if err == nil {
			resp.Body.Close()
			return nil
		}
	}
	return errors.New("gave up")
}
