package fix

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
)

func charge(ctx context.Context, c *http.Client, url string, body []byte) error {
	for i := 0; i < 3; i++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := c.Do(req) // want `POST request is re-sent by a retry loop without an idempotency key`
		if err == nil {
			resp.Body.Close()
			return nil
		}
	}
	return errors.New("gave up")
}

// The http.Post shortcut is spelled out so the request can carry the key;
// no context in scope, so context.Background, as the shortcut has.
func shortcut(url string, body []byte) error {
	for i := 0; i < 3; i++ {
		resp, err := http.Post(url, "application/json", bytes.NewReader(body)) // want `POST request is re-sent`
		if err == nil {
			resp.Body.Close()
			return nil
		}
	}
	return errors.New("gave up")
}

func newKey() string { return "k" }

func mintedInLoop(ctx context.Context, c *http.Client, url string) error {
	for i := 0; i < 3; i++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", newKey()) // want `idempotency key is minted on every attempt`
		resp, err := c.Do(req)
		if err == nil {
			resp.Body.Close()
			return nil
		}
	}
	return errors.New("gave up")
}

// No fix: the key depends on the attempt.
func perAttempt(ctx context.Context, c *http.Client, url string) error {
	for i := 0; i < 3; i++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", fmt.Sprint(newKey(), i)) // want `idempotency key is minted on every attempt`
		resp, err := c.Do(req)
		if err == nil {
			resp.Body.Close()
			return nil
		}
	}
	return errors.New("gave up")
}
