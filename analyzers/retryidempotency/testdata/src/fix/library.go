package fix

import (
	"context"
	"errors"
	"net/http"

	"github.com/retrylint/retrylint/budget"
)

// The library's own key, minted on every attempt, is still a new key per
// attempt: it moves out of the loop.
func libraryKeyInLoop(ctx context.Context, c *http.Client, url string) error {
	for i := 0; i < 3; i++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", budget.NewIdempotencyKey()) // want `idempotency key is minted on every attempt`
		resp, err := c.Do(req)
		if err == nil {
			resp.Body.Close()
			return nil
		}
	}
	return errors.New("gave up")
}

// Minted once before the loop: silent.
func libraryKeyOnce(ctx context.Context, c *http.Client, url string) error {
	key := budget.NewIdempotencyKey()
	for i := 0; i < 3; i++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", key)
		resp, err := c.Do(req)
		if err == nil {
			resp.Body.Close()
			return nil
		}
	}
	return errors.New("gave up")
}
