package settled

import (
	"context"
	"net/http"
	"time"
)

func get(ctx context.Context, c *http.Client, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// The caller's deadline, handed to each attempt: not unbounded, but no budget.
func callerHanded(ctx context.Context, c *http.Client, url string) error {
	for { // want `retry loop has no retry budget`
		if err := get(ctx, c, url); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
}

// The caller's deadline consulted between attempts.
func callerConsulted(ctx context.Context, c *http.Client, url string) error {
	for { // want `retry loop has no retry budget`
		if err := get(context.Background(), c, url); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
}

// A per-attempt timeout with no attempt cap: still unbounded.
func perAttempt(c *http.Client, url string) error {
	for { // want `retry loop has no attempt cap, deadline or retry budget`
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err := get(ctx, c, url)
		cancel()
		if err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
}

// Store is an interface the code base declares: its remoteness is
// unknown, so only the unbounded clause can speak.
type Store interface {
	Put(ctx context.Context, k, v string) error
}

// The caller's deadline handed to each attempt of unknown work: bounded.
func putCaller(ctx context.Context, s Store, k, v string) error {
	for {
		if err := s.Put(ctx, k, v); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
}

// A context derived from the caller's keeps its deadline.
func putDerived(ctx context.Context, s Store, k, v string) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for {
		if err := s.Put(ctx, k, v); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
}

// One deadline over all attempts: bounded.
func putOverall(s Store, k, v string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for {
		if err := s.Put(ctx, k, v); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
}

// The caller's deadline consulted, the attempts under none of their own.
func putConsulted(ctx context.Context, s Store, k, v string) error {
	for ctx.Err() == nil {
		if err := s.Put(context.Background(), k, v); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return ctx.Err()
}

// A context with no deadline made here: unbounded.
func putBackground(s Store, k, v string) error {
	ctx := context.Background()
	for { // want `retry loop has no attempt cap, deadline or retry budget`
		if err := s.Put(ctx, k, v); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
}
