// Package webhook delivers signed event notifications to subscribers.
package webhook

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
	"log"
	"net/http"
	"time"

	"github.com/retrylint/retrylint/budget"
)

// Event is a notification for subscribers.
type Event struct {
	ID      string          `json:"id"`
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload"`
}

// Queue is where events wait for delivery.
type Queue interface {
	Receive(ctx context.Context) (Event, error)
	Ack(ctx context.Context, id string) error
}

// Sender posts events to one subscriber URL.
type Sender struct {
	URL    string
	Secret []byte
	Client *http.Client
	Queue  Queue

	budget budget.Adaptive
}

func (s *Sender) sign(body []byte) string {
	m := hmac.New(sha256.New, s.Secret)
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}

// Deliver posts ev to the subscriber. Subscribers deduplicate on the
// Webhook-Id header.
func (s *Sender) Deliver(ctx context.Context, ev Event) error {
	body, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	sig := s.sign(body)
	seq := budget.Backoff{Base: 250 * time.Millisecond, Cap: 5 * time.Second}.Start()
	for attempt := 0; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.URL, bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Webhook-Id", ev.ID)
		req.Header.Set("Webhook-Signature", sig)
		resp, err := s.Client.Do(req)
		s.budget.Record(err)
		if err == nil {
			io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
			resp.Body.Close()
			if resp.StatusCode < 300 {
				return nil
			}
			if resp.StatusCode < 500 && resp.StatusCode != http.StatusTooManyRequests {
				return fmt.Errorf("webhook %s: subscriber refused: HTTP %d", ev.ID, resp.StatusCode)
			}
			err = fmt.Errorf("webhook %s: HTTP %d", ev.ID, resp.StatusCode)
		}
		if attempt == 4 || !s.budget.Allow() {
			return err
		}
		if err := budget.Sleep(ctx, seq.Next()); err != nil {
			return err
		}
	}
}

// deliverLegacy is the v1 delivery path, kept for subscribers that have
// not migrated to signed webhooks.
func (s *Sender) deliverLegacy(ev Event) error {
	body, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	for i := 0; i < 5; i++ {
		resp, err := http.Post(s.URL, "application/json", bytes.NewReader(body))
		if err != nil {
			log.Printf("webhook: legacy delivery of %s failed: %v", ev.ID, err)
			time.Sleep(2 * time.Second)
			continue
		}
		resp.Body.Close()
		if resp.StatusCode/100 == 2 {
			return nil
		}
		time.Sleep(2 * time.Second)
	}
	return errors.New("webhook: legacy delivery failed after 5 attempts")
}

// Run consumes the queue until ctx is cancelled.
func (s *Sender) Run(ctx context.Context) {
	for {
		ev, err := s.Queue.Receive(ctx)
		if err != nil {
			if errors.Is(err, context.Canceled) {
				return
			}
			log.Printf("webhook: receive: %v", err)
			// Give the broker a moment before asking again.
			time.Sleep(time.Second)
			continue
		}
		if err := s.Deliver(ctx, ev); err != nil {
			log.Printf("webhook: deliver %s: %v", ev.ID, err)
			continue
		}
		if err := s.Queue.Ack(ctx, ev.ID); err != nil {
			log.Printf("webhook: ack %s: %v", ev.ID, err)
		}
	}
}

// Fanout delivers ev once to each endpoint, collecting the failures.
func Fanout(ctx context.Context, hc *http.Client, ev Event, endpoints []string) error {
	body, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	var errs []error
	for _, ep := range endpoints {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, ep, bytes.NewReader(body))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		resp, err := hc.Do(req)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", ep, err))
			continue
		}
		resp.Body.Close()
	}
	return errors.Join(errs...)
}

// Pump hands events from in to the sender until in is closed.
func (s *Sender) Pump(ctx context.Context, in <-chan Event) {
	for ev := range in {
		if err := s.Deliver(ctx, ev); err != nil {
			log.Printf("webhook: %v", err)
		}
	}
}

// Drain is the consumer used by the batch worker: on a broker error it
// backs off with jitter and watches ctx while waiting.
func (s *Sender) Drain(ctx context.Context) error {
	delay := 250 * time.Millisecond
	for {
		ev, err := s.Queue.Receive(ctx)
		if err != nil {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(budget.Jitter(delay)):
			}
			delay = min(delay*2, 30*time.Second)
			continue
		}
		delay = 250 * time.Millisecond
		if err := s.Deliver(ctx, ev); err != nil {
			log.Printf("webhook: %v", err)
		}
	}
}
