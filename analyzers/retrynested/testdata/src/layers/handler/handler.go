// Package handler retries three times around the client: three layers.
package handler

import (
	"context"
	"net/http"
	"time"

	"layers/client"
	"layers/transport"
)

type H struct {
	C *client.Client
	T *transport.T
}

// Handle makes up to 3 attempts around a client making 4 around a
// transport making 3: 36 calls on the dependency.
func (h *H) Handle(req *http.Request) error {
	var err error
	for i := 0; i < 3; i++ { // want `retry loop retries a call that already retries: 3 × 4 × 3 = up to 36 attempts per call; retry at one layer, the one nearest the dependency \(transport.\(\*T\).RoundTrip\)`
		if err = h.C.Send(req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// ViaWrapper retries a wrapper around the retrying transport.
func (h *H) ViaWrapper(req *http.Request) error {
	var err error
	for range 2 { // want `2 × 3 = up to 6 attempts per call`
		if _, err = h.C.Get(req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Unknown retries under a limit read at run time.
func (h *H) Unknown(ctx context.Context, req *http.Request, n int) error {
	var err error
	for i := 0; i < n; i++ { // want `at least \? × 4 × 3 attempts per call`
		if err = h.C.Send(req); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return err
}

// Plain retries a client method that does not retry: silent.
func (h *H) Plain(req *http.Request) error {
	var err error
	for i := 0; i < 3; i++ {
		if _, err = h.T.Once(req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Started retries a method whose retry runs in a goroutine: silent.
func (h *H) Started(req *http.Request) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = h.T.Background(req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Dropped retries a method that drops its inner retry's failure: silent.
func (h *H) Dropped(req *http.Request) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = h.T.Warm(req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Logged retries a method that only logs the retrying call's failure.
func (h *H) Logged(req *http.Request) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = h.C.Logged(req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Each sends every request once through the retrying client: a
// collection, not a retry.
func (h *H) Each(reqs []*http.Request) error {
	for _, r := range reqs {
		if err := h.C.Send(r); err != nil {
			return err
		}
	}
	return nil
}

// Consume handles jobs and retries a failed one once per tick: a consume
// loop.
func (h *H) Consume(ctx context.Context, jobs <-chan *http.Request) {
	for {
		select {
		case <-ctx.Done():
			return
		case r := <-jobs:
			if err := h.C.Send(r); err != nil {
				println(err.Error())
			}
		}
	}
}

// Once calls the retrying client once: no outer retry.
func (h *H) Once(req *http.Request) error {
	return h.C.Send(req)
}
