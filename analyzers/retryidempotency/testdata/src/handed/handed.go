package handed

import (
	"context"
	"errors"
	"fmt"
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

type api struct {
	base string
	hc   *http.Client
}

// A request builder of the code base: the method comes from its caller.
func (a *api) newRequest(ctx context.Context, method, path string) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, method, a.base+path, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	return req, nil
}

// A builder that mints the key itself, afresh on every call.
func (a *api) newKeyedRequest(ctx context.Context, method, path string) (*http.Request, error) {
	req, err := a.newRequest(ctx, method, path)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Idempotency-Key", newKey())
	return req, nil
}

func newKey() string { return fmt.Sprint(time.Now().UnixNano()) }

func (a *api) createCharge(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		req, err := a.newRequest(ctx, http.MethodPost, "/charges")
		if err != nil {
			return err
		}
		resp, err := a.hc.Do(req) // want `POST request is re-sent by a retry loop without an idempotency key`
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(budgetDelay(i))
	}
	return errors.New("gave up")
}

// The same builder for a GET: nothing to key.
func (a *api) getCharge(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		req, err := a.newRequest(ctx, http.MethodGet, "/charges/1")
		if err != nil {
			return err
		}
		resp, err := a.hc.Do(req)
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(budgetDelay(i))
	}
	return errors.New("gave up")
}

// The key set by the caller, minted once: silent.
func (a *api) createChargeKeyed(ctx context.Context) error {
	key := newKey()
	for i := 0; i < 3; i++ {
		req, err := a.newRequest(ctx, http.MethodPost, "/charges")
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", key)
		resp, err := a.hc.Do(req)
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(budgetDelay(i))
	}
	return errors.New("gave up")
}

// A builder minting the key, called on every attempt: a new key each time.
func (a *api) refund(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		req, err := a.newKeyedRequest(ctx, http.MethodPost, "/refunds") // want `idempotency key is minted on every attempt`
		if err != nil {
			return err
		}
		resp, err := a.hc.Do(req)
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(budgetDelay(i))
	}
	return errors.New("gave up")
}

// The keyed builder called once, its request re-sent: one key.
func (a *api) refundOnce(ctx context.Context) error {
	req, err := a.newKeyedRequest(ctx, http.MethodPost, "/refunds")
	if err != nil {
		return err
	}
	for i := 0; i < 3; i++ {
		resp, err := a.hc.Do(req)
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(budgetDelay(i))
	}
	return errors.New("gave up")
}

func budgetDelay(i int) time.Duration { return time.Duration(i) * time.Second }
