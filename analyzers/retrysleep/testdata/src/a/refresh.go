package a

import (
	"context"
	"net/http"
	"time"
)

// A periodic refresh whose rounds wait what the round before chose: the
// delay after a failure is the wait between attempts.

func refresh(ctx context.Context, url string, every time.Duration) {
	wait := every
	for {
		select { // want `retry waits a fixed delay`
		case <-ctx.Done():
			return
		case <-time.After(wait):
			if err := get(ctx, url); err != nil {
				wait = time.Second
			} else {
				wait = every
			}
		}
	}
}

// Look-alikes: success and failure choose alike, or only one chooses.

func refreshSame(ctx context.Context, url string, every time.Duration) {
	wait := every
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
			if err := get(ctx, url); err != nil {
				wait = every
				continue
			}
			wait = every
		}
	}
}

func refreshOnSuccess(ctx context.Context, url string, every time.Duration) {
	wait := time.Second
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
			if err := get(ctx, url); err == nil {
				wait = every
			}
		}
	}
}

// The failure's delay grows: retryjitter's, not a fixed delay.
func refreshGrowing(ctx context.Context, url string, every time.Duration) {
	wait, retry := every, time.Second
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
			if err := get(ctx, url); err != nil {
				retry *= 2
				wait = retry
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
