package httpapi

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"

	"github.com/retrylint/retrylint/budget"
)

// Charge is a card charge.
type Charge struct {
	Amount   int64  `json:"amount"`
	Currency string `json:"currency"`
	Source   string `json:"source"`
}

func newKey() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// CreateCharge re-sends a POST with no idempotency key: a timeout after
// the server charged the card charges it twice.
func (c *Client) CreateCharge(ctx context.Context, ch Charge) error {
	body, err := json.Marshal(ch)
	if err != nil {
		return err
	}
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		if attempt > 0 {
			if !c.retries.Allow() {
				break
			}
			if err := budget.Sleep(ctx, c.backoff.Delay(attempt-1)); err != nil {
				return err
			}
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/charges", bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := c.hc.Do(req)
		c.retries.Record(err)
		if err != nil {
			lastErr = err
			continue
		}
		return decode(resp, nil)
	}
	return lastErr
}

// Refund mints its idempotency key on every attempt, which dedupes
// nothing.
func (c *Client) Refund(ctx context.Context, chargeID string) error {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		if attempt > 0 {
			if !c.retries.Allow() {
				break
			}
			if err := budget.Sleep(ctx, c.backoff.Delay(attempt-1)); err != nil {
				return err
			}
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/charges/"+chargeID+"/refund", nil)
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", newKey())
		resp, err := c.hc.Do(req)
		c.retries.Record(err)
		if err != nil {
			lastErr = err
			continue
		}
		return decode(resp, nil)
	}
	return lastErr
}

// CreatePayout keeps one key across the attempts of the operation.
func (c *Client) CreatePayout(ctx context.Context, amount int64) error {
	body, err := json.Marshal(map[string]int64{"amount": amount})
	if err != nil {
		return err
	}
	key := newKey()
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		if attempt > 0 {
			if !c.retries.Allow() {
				break
			}
			if err := budget.Sleep(ctx, c.backoff.Delay(attempt-1)); err != nil {
				return err
			}
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/payouts", bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", key)
		resp, err := c.hc.Do(req)
		c.retries.Record(err)
		if err != nil {
			lastErr = err
			continue
		}
		return decode(resp, nil)
	}
	return lastErr
}

// UpdateInvoice re-sends a PUT, which is idempotent.
func (c *Client) UpdateInvoice(ctx context.Context, id string, body []byte) error {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		if attempt > 0 {
			if !c.retries.Allow() {
				break
			}
			if err := budget.Sleep(ctx, c.backoff.Delay(attempt-1)); err != nil {
				return err
			}
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPut, c.base+"/v1/invoices/"+id, bytes.NewReader(body))
		if err != nil {
			return err
		}
		resp, err := c.hc.Do(req)
		c.retries.Record(err)
		if err != nil {
			lastErr = err
			continue
		}
		return decode(resp, nil)
	}
	return lastErr
}

// CreatePayPalOrder keys the POST with the provider's own header, named
// to retrylint with -retryidempotency.headers.
func (c *Client) CreatePayPalOrder(ctx context.Context, requestID string, body []byte) error {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		if attempt > 0 {
			if !c.retries.Allow() {
				break
			}
			if err := budget.Sleep(ctx, c.backoff.Delay(attempt-1)); err != nil {
				return err
			}
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v2/checkout/orders", bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("PayPal-Request-Id", requestID)
		resp, err := c.hc.Do(req)
		c.retries.Record(err)
		if err != nil {
			lastErr = err
			continue
		}
		return decode(resp, nil)
	}
	return lastErr
}

// Publish POSTs an event whose id in the body dedupes it; the finding is
// documented away.
func (c *Client) Publish(ctx context.Context, event []byte) error {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		if attempt > 0 {
			if !c.retries.Allow() {
				break
			}
			if err := budget.Sleep(ctx, c.backoff.Delay(attempt-1)); err != nil {
				return err
			}
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/events", bytes.NewReader(event))
		if err != nil {
			return err
		}
		//retrylint:ignore retryidempotency the event id in the body dedupes it server-side
		resp, err := c.hc.Do(req)
		c.retries.Record(err)
		if err != nil {
			lastErr = err
			continue
		}
		return decode(resp, nil)
	}
	return lastErr
}
