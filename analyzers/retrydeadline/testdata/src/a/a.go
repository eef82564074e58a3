package a

import (
	"context"
	"errors"
	"net/http"
	"net/smtp"
	"time"
)

func noDeadline(url string) (*http.Response, error) {
	for i := 0; i < 3; i++ { // want `retry loop runs without a deadline: its attempts use no context and no client timeout`
		resp, err := http.Get(url)
		if err == nil {
			return resp, nil
		}
	}
	return nil, errors.New("gave up")
}

func background(c *http.Client, url string) (*http.Response, error) {
	ctx := context.Background()
	for i := 0; i < 3; i++ { // want `retry loop runs without a deadline: its attempts run under a context with no deadline`
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.Do(req)
		if err == nil {
			return resp, nil
		}
		time.Sleep(time.Second) // want `retry sleeps while ctx is in scope and never checks it`
	}
	return nil, errors.New("gave up")
}

func sleepsThroughCancel(ctx context.Context, op func(context.Context) error) error {
	for i := 0; i < 3; i++ {
		if err := op(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second) // want `retry sleeps while ctx is in scope and never checks it: cancellation waits out every sleep`
	}
	return errors.New("gave up")
}

func stopChan(stop <-chan struct{}, op func() error) {
	for i := 0; i < 3; i++ {
		if err := op(); err == nil {
			return
		}
		time.Sleep(time.Second) // want `retry sleeps while stop is in scope and never checks it`
	}
}

// With a timeout on the client, each attempt is bounded.
func clientTimeout(url string) (*http.Response, error) {
	c := &http.Client{Timeout: 5 * time.Second}
	for i := 0; i < 3; i++ {
		resp, err := c.Get(url)
		if err == nil {
			return resp, nil
		}
	}
	return nil, errors.New("gave up")
}

// A per-attempt timeout.
func perAttempt(op func(context.Context) error) error {
	for i := 0; i < 3; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err := op(ctx)
		cancel()
		if err == nil {
			return nil
		}
	}
	return errors.New("gave up")
}

// An elapsed-time limit.
func elapsed(url string) (*http.Response, error) {
	start := time.Now()
	for {
		resp, err := http.Get(url)
		if err == nil {
			return resp, nil
		}
		if time.Since(start) > 30*time.Second {
			return nil, err
		}
	}
}

// The loop consults the context between attempts.
func consults(ctx context.Context, op func(context.Context) error) error {
	for i := 0; i < 3; i++ {
		if err := op(ctx); err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// net/smtp dials with no timeout and takes no context.
func sendMail(addr string, msg []byte) error {
	var err error
	for i := 0; i < 3; i++ { // want `retry loop runs without a deadline: its attempts use no context and no client timeout`
		if err = smtp.SendMail(addr, nil, "from@example.com", []string{"to@example.com"}, msg); err == nil {
			return nil
		}
		time.Sleep(time.Duration(i) * time.Second)
	}
	return err
}
