package controller

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/retrylint/retrylint/budget"
)

// Event is a notification sent to subscribers.
type Event struct {
	ID      string          `json:"id"`
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload"`
}

// WebhookClient delivers events to one subscriber.
type WebhookClient struct {
	hc      *http.Client
	url     string
	secret  []byte
	breaker *budget.Breaker
}

var errThrottled = errors.New("webhook receiver throttled")

func (w *WebhookClient) sign(body []byte) string {
	m := hmac.New(sha256.New, w.secret)
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}

// Deliver sends ev, retrying transport errors and 5xx answers. The event
// id is the idempotency key, so the receiver can drop duplicates.
func (w *WebhookClient) Deliver(ctx context.Context, ev Event) error {
	body, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	sig, seq := w.sign(body), budget.Backoff{Base: 250 * time.Millisecond, Cap: 8 * time.Second}.Start()
	for attempt := 1; attempt <= 5; attempt++ {
		permit, ok := w.breaker.Admit()
		if !ok {
			return fmt.Errorf("deliver %s: circuit open", ev.ID)
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.url, bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Signature", sig)
		req.Header.Set("X-Idempotency-Key", ev.ID)
		resp, err := w.hc.Do(req)
		if err == nil {
			io.Copy(io.Discard, io.LimitReader(resp.Body, 4096))
			resp.Body.Close()
			switch {
			case resp.StatusCode >= 500:
				err = fmt.Errorf("webhook receiver: %s", resp.Status)
			case resp.StatusCode >= 400:
				return fmt.Errorf("deliver %s: rejected: %s", ev.ID, resp.Status)
			}
		}
		permit.Done(err)
		if err == nil {
			return nil
		}
		if err := budget.Sleep(ctx, seq.Next()); err != nil {
			return err
		}
	}
	return fmt.Errorf("deliver %s: attempts exhausted", ev.ID)
}

// DeliverLegacy sends to receivers registered before v2. They do not read
// the idempotency header but drop repeats by the event_id in the body.
func (w *WebhookClient) DeliverLegacy(ev Event) error {
	ctx := context.Background()
	body, _ := json.Marshal(map[string]any{"event_id": ev.ID, "type": ev.Type, "data": ev.Payload})
	var err error
	for attempt := 1; attempt <= 3; attempt++ {
		var req *http.Request
		req, err = http.NewRequestWithContext(ctx, http.MethodPost, w.url, bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		var resp *http.Response
		//retrylint:ignore retryidempotency legacy receivers dedup on the body's event_id
		resp, err = http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode < 300 {
				return nil
			}
			err = fmt.Errorf("legacy webhook: %s", resp.Status)
		}
		time.Sleep(time.Duration(attempt) * 500 * time.Millisecond)
	}
	return err
}

// Verify performs the subscription handshake. The receiver may answer 429
// while it warms up; it says how long to wait in Retry-After.
func (w *WebhookClient) Verify(ctx context.Context) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, w.url+"?challenge=ping", nil)
		if err != nil {
			return err
		}
		resp, err := w.hc.Do(req)
		if err != nil {
			return fmt.Errorf("verify: %w", err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusTooManyRequests {
			if resp.StatusCode >= 300 {
				return fmt.Errorf("verify: %s", resp.Status)
			}
			return nil
		}
		permit, ok := w.breaker.Admit() // the 429 counts against the receiver
		permit.Done(errThrottled)
		if !ok {
			return errThrottled
		}
		wait := time.Second
		if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil {
			wait = time.Duration(s) * time.Second
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
	}
	return errThrottled
}
