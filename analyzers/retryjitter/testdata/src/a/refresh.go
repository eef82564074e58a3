package a

import (
	"context"
	"math/rand"
	"net/http"
	"time"
)

// A periodic refresh whose failures double the wait the next round
// starts with: a backoff with no jitter, though success shares the wait.

func refreshBackoff(ctx context.Context, url string, every time.Duration) {
	wait, retry := every, time.Second
	for {
		select { // want `backoff grows without jitter`
		case <-ctx.Done():
			return
		case <-time.After(wait):
			if err := get(ctx, url); err != nil {
				wait = retry
				retry *= 2
				continue
			}
			wait, retry = every, time.Second
		}
	}
}

// Look-alike: the failure's choice is a fixed delay.
func refreshFixed(ctx context.Context, url string, every time.Duration) {
	wait := every
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
			if err := get(ctx, url); err != nil {
				wait = time.Second
				continue
			}
			wait = every
		}
	}
}

// Look-alike: the growing choice carries a random draw.
func refreshJittered(ctx context.Context, url string, every time.Duration) {
	wait, retry := every, time.Second
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
			if err := get(ctx, url); err != nil {
				wait = time.Duration(rand.Int63n(int64(retry)))
				retry *= 2
				continue
			}
			wait, retry = every, time.Second
		}
	}
}

func get(ctx context.Context, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
