package clean

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"

	"golang.org/x/time/rate"
)

// good is a careful retry: capped, budgeted, jittered, context-aware, keyed.
func good(ctx context.Context, c *http.Client, lim *rate.Limiter, url, key string) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	for i := 0; i < 3; i++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", key)
		resp, err := c.Do(req)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		if !lim.Allow() {
			return err
		}
		d := time.Duration(rand.Int64N(int64(100 * time.Millisecond << i)))
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(d):
		}
	}
	return errors.New("gave up")
}

// serverDirected waits as long as the server asks.
func serverDirected(ctx context.Context, c *http.Client, lim *rate.Limiter, req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		resp, err := c.Do(req.WithContext(ctx))
		if err != nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusTooManyRequests {
			return resp, nil
		}
		if err := lim.Wait(ctx); err != nil {
			return nil, err
		}
		secs, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
		resp.Body.Close()
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Duration(secs) * time.Second):
		}
	}
	return nil, errors.New("gave up")
}

// configDelay waits a delay the analysis cannot see.
type cfg struct{ Delay time.Duration }

func configDelay(ctx context.Context, conf cfg, op func(context.Context) error) error {
	for i := 0; i < 3; i++ {
		if err := op(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(conf.Delay):
		}
	}
	return errors.New("gave up")
}
