// Package inventory calls the stock service through the shared wire
// helpers and the in-house retry helper.
package inventory

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"time"

	"example.com/corpus/internal/retryutil"
	"example.com/corpus/internal/wire"
)

// Client is a stock service client.
type Client struct {
	base       string
	hc         *http.Client
	RetryDelay time.Duration
}

// Level is a stock level.
type Level struct {
	SKU   string `json:"sku"`
	Count int    `json:"count"`
}

// Stock retries the cross-package network helper, 200ms apart.
func (c *Client) Stock(sku string) (Level, error) {
	var lastErr error
	for i := 0; i < 3; i++ {
		var l Level
		err := wire.GetJSON(c.hc, c.base+"/v1/stock/"+sku, &l)
		if err == nil {
			return l, nil
		}
		lastErr = err
		time.Sleep(200 * time.Millisecond)
	}
	return Level{}, lastErr
}

func (c *Client) ping() error {
	resp, err := c.hc.Get(c.base + "/healthz")
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Warmup retries a health check through the generic helper with a
// constant delay.
func (c *Client) Warmup() error {
	return retryutil.Do(3, time.Second, func() error {
		return c.ping()
	})
}

// Publish renames a local snapshot into place; Windows virus scanners
// hold files open, hence the retry.
func Publish(tmp, final string) error {
	return retryutil.Do(5, 50*time.Millisecond, func() error {
		return os.Rename(tmp, final)
	})
}

// Refresh retries through the generic helper with the delay the caller
// configured: the delay is unknown, the missing budget is not.
func (c *Client) Refresh() error {
	return retryutil.Do(3, c.RetryDelay, func() error {
		return c.ping()
	})
}

// Reserve POSTs a reservation from a closure the generic helper retries;
// no key.
func (c *Client) Reserve(sku string, qty int) error {
	body := []byte(fmt.Sprintf(`{"sku":%q,"qty":%d}`, sku, qty))
	return retryutil.Do(3, time.Second, func() error {
		req, err := http.NewRequest(http.MethodPost, c.base+"/v1/reservations", bytes.NewReader(body))
		if err != nil {
			return err
		}
		resp, err := c.hc.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	})
}

// Release POSTs with a key minted once, from the same kind of closure.
func (c *Client) Release(reservation string) error {
	key := newKey()
	return retryutil.Do(3, time.Second, func() error {
		req, err := http.NewRequest(http.MethodPost, c.base+"/v1/reservations/"+reservation+"/release", nil)
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", key)
		resp, err := c.hc.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	})
}

// Hold POSTs a hold and mints its key inside the closure: once per
// attempt.
func (c *Client) Hold(sku string) error {
	return retryutil.Do(3, time.Second, func() error {
		req, err := http.NewRequest(http.MethodPost, c.base+"/v1/holds/"+sku, nil)
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", newKey())
		resp, err := c.hc.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	})
}

func newKey() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Levels reads all levels through the generic value helper, half a
// second apart.
func (c *Client) Levels(ctx context.Context) ([]Level, error) {
	return retryutil.Value(ctx, 3, 500*time.Millisecond, func(ctx context.Context) ([]Level, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/v1/stock", nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.hc.Do(req)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		var out []Level
		return out, json.NewDecoder(resp.Body).Decode(&out)
	})
}
