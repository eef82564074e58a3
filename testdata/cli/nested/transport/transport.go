// Package transport retries each request three times: the layer nearest
// the dependency.
package transport

import (
	"context"
	"errors"
	"net/http"
	"time"
)

type T struct{ HC *http.Client }

// RoundTrip makes up to 3 attempts.
func (t *T) RoundTrip(req *http.Request) (*http.Response, error) {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var resp *http.Response
		resp, err = t.HC.Do(req)
		if err == nil {
			return resp, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil, err
}

// Once sends one request: no retry.
func (t *T) Once(req *http.Request) (*http.Response, error) {
	return t.HC.Do(req)
}

// Unbounded retries until the request goes through.
func (t *T) Unbounded(ctx context.Context, req *http.Request) (*http.Response, error) {
	for {
		resp, err := t.HC.Do(req.WithContext(ctx))
		if err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
}

// Background starts its retry in a goroutine: the caller's call does not
// retry.
func (t *T) Background(req *http.Request) error {
	go func() {
		for i := 0; i < 3; i++ {
			if _, err := t.HC.Do(req); err == nil {
				return
			}
			time.Sleep(time.Second)
		}
	}()
	return nil
}

var errGiveUp = errors.New("give up")

// Warm retries a warm-up request but reports only whether it was asked:
// its failure never reaches the caller.
func (t *T) Warm(req *http.Request) error {
	t.warm(req)
	return nil
}

func (t *T) warm(req *http.Request) error {
	for i := 0; i < 3; i++ {
		if _, err := t.HC.Do(req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errGiveUp
}

// Prime draws until a candidate passes: a retry of local work.
func Prime(try func() (int, error)) (int, error) {
	for {
		n, err := try()
		if err == nil {
			return n, nil
		}
	}
}
