// Package webhook delivers events to subscriber URLs, in the shape of
// the webhook senders of payment and CI platforms.
package webhook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"time"

	"example.com/corpus/internal/retryutil"
	"github.com/retrylint/retrylint/budget"
)

var errDelivery = errors.New("webhook: delivery failed")

// Notify posts an event with http.Post, retrying 5xx and 429 answers.
func Notify(url string, event []byte) error {
	for range 3 {
		resp, err := http.Post(url, "application/json", bytes.NewReader(event))
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode < 500 && resp.StatusCode != http.StatusTooManyRequests {
				return nil
			}
		}
		<-time.After(2 * time.Second)
	}
	return errDelivery
}

// Sender delivers with its own client.
type Sender struct {
	hc      *http.Client
	retries *budget.Adaptive
	backoff budget.Backoff
	key     func() string
}

func retryDelay() time.Duration { return 2 * time.Second }

func backoffFor(n int) time.Duration { return 100 * time.Millisecond << n }

func jittered(n int) time.Duration {
	d := 100 * time.Millisecond << n
	return d/2 + time.Duration(rand.Int64N(int64(d/2)))
}

func (s *Sender) put(ctx context.Context, url string, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	resp, err := s.hc.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode >= 500 {
		return fmt.Errorf("%w: %s", errDelivery, resp.Status)
	}
	return nil
}

// Replace waits a delay a same-package function computes: a constant.
func (s *Sender) Replace(ctx context.Context, url string, body []byte) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = s.put(ctx, url, body); err == nil {
			return nil
		}
		if !s.retries.Allow() {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(retryDelay()):
		}
	}
	return err
}

// ReplaceGrowing waits a delay a same-package function computes: a
// doubling without jitter.
func (s *Sender) ReplaceGrowing(ctx context.Context, url string, body []byte) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = s.put(ctx, url, body); err == nil {
			return nil
		}
		if !s.retries.Allow() {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(backoffFor(attempt)):
		}
	}
	return err
}

// ReplaceJittered waits an equal-jitter delay from a same-package
// function.
func (s *Sender) ReplaceJittered(ctx context.Context, url string, body []byte) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = s.put(ctx, url, body); err == nil {
			return nil
		}
		if !s.retries.Allow() {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jittered(attempt)):
		}
	}
	return err
}

// ReplaceSharedBackoff waits a delay from the shared helper package:
// a doubling without jitter, seen through facts.
func (s *Sender) ReplaceSharedBackoff(ctx context.Context, url string, body []byte) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = s.put(ctx, url, body); err == nil {
			return nil
		}
		if !s.retries.Allow() {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(retryutil.Exponential(attempt)):
		}
	}
	return err
}

// Ping checks an endpoint for 30 seconds, with its own client timeout.
func Ping(url string) error {
	hc := &http.Client{Timeout: 5 * time.Second}
	start := time.Now()
	for time.Since(start) < 30*time.Second {
		resp, err := hc.Get(url)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(time.Second)
	}
	return errDelivery
}

// Probe tries three times, each attempt under its own timeout.
func Probe(url string) error {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		req, err := http.NewRequestWithContext(ctx, http.MethodHead, url, nil)
		if err != nil {
			cancel()
			return err
		}
		resp, err := http.DefaultClient.Do(req)
		cancel()
		if err == nil {
			resp.Body.Close()
			return nil
		}
		lastErr = err
		time.Sleep(backoffFor(attempt) + time.Duration(rand.Int64N(int64(time.Second))))
	}
	return lastErr
}

// Deliver posts an event with the bundled retry helper and a key minted
// once for the delivery.
func (s *Sender) Deliver(ctx context.Context, url string, event []byte) error {
	key := budget.NewIdempotencyKey()
	return budget.Do(ctx, func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(event))
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", key)
		resp, err := s.hc.Do(req)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode >= 500 {
			return errDelivery
		}
		return nil
	}, budget.WithBudget(s.retries), budget.WithBackoff(s.backoff))
}

// DeliverAll sends each event once, to every subscriber.
func (s *Sender) DeliverAll(ctx context.Context, urls []string, event []byte) []error {
	var errs []error
	for _, u := range urls {
		if err := s.Deliver(ctx, u, event); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", u, err))
		}
	}
	return errs
}

// Sign posts with the caller's key function: the key comes from a
// function value minted before the loop.
func (s *Sender) Sign(ctx context.Context, url string, body []byte) error {
	key := s.key()
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		if attempt > 0 {
			if !s.retries.Allow() {
				break
			}
			if err := budget.Sleep(ctx, s.backoff.Delay(attempt-1)); err != nil {
				return err
			}
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("X-Idempotency-Key", key)
		resp, err := s.hc.Do(req)
		if err != nil {
			lastErr = err
			continue
		}
		return resp.Body.Close()
	}
	return lastErr
}

func backoffCapped(n int) time.Duration {
	d := 100 * time.Millisecond << n
	if d <= 0 || d > 10*time.Second {
		return 10 * time.Second
	}
	return d
}

// ReplaceCapped waits a capped doubling without jitter from a
// same-package function.
func (s *Sender) ReplaceCapped(ctx context.Context, url string, body []byte) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = s.put(ctx, url, body); err == nil {
			return nil
		}
		if !s.retries.Allow() {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(backoffCapped(attempt)):
		}
	}
	return err
}
