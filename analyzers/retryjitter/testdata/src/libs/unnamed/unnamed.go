// Package unnamed retries with a backoff package the SPEC does not name
// (jpillora/backoff): its jitter and delay are neither present nor absent
// (SPEC, settled 2026-12-06), so retryjitter stays silent on it.
package unnamed

import (
	"context"
	"net/http"
	"time"

	"github.com/jpillora/backoff"
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

// Randomisation off in an unnamed library: unknown, silent.
func jitterOff(ctx context.Context, c *http.Client, url string) error {
	b := &backoff.Backoff{Min: 100 * time.Millisecond, Max: 10 * time.Second, Factor: 2}
	var err error
	for i := 0; i < 5; i++ {
		if err = get(ctx, c, url); err == nil {
			return nil
		}
		time.Sleep(b.Duration())
	}
	return err
}

// Randomisation on: silent too.
func jitterOn(ctx context.Context, c *http.Client, url string) error {
	b := &backoff.Backoff{Min: 100 * time.Millisecond, Max: 10 * time.Second, Factor: 2, Jitter: true}
	var err error
	for i := 0; i < 5; i++ {
		if err = get(ctx, c, url); err == nil {
			return nil
		}
		time.Sleep(b.Duration())
	}
	return err
}

// The same loop growing its own delay: judged.
func ownGrowth(ctx context.Context, c *http.Client, url string) error {
	d := 100 * time.Millisecond
	var err error
	for i := 0; i < 5; i++ {
		if err = get(ctx, c, url); err == nil {
			return nil
		}
		time.Sleep(d) // want `backoff grows without jitter`
		d *= 2
	}
	return err
}
