package settled

import (
	"context"
	"math/rand/v2"
	"net/http"
	"time"
)

func ping(ctx context.Context, c *http.Client, url string) error {
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

// A ticker fires whatever the outcome: periodic work, not a retry.
func heartbeat(ctx context.Context, c *http.Client, url string) {
	t := time.NewTicker(10 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := ping(ctx, c, url); err != nil {
				continue
			}
		}
	}
}

// A timer re-armed on failure with a fixed delay: a retry site whose
// delay is the re-arm's.
func register(ctx context.Context, c *http.Client, url string, every time.Duration) {
	t := time.NewTimer(0)
	defer t.Stop()
	for {
		select { // want `retry waits a fixed delay`
		case <-ctx.Done():
			return
		case <-t.C:
			if err := ping(ctx, c, url); err != nil {
				t.Reset(3 * time.Second)
				continue
			}
			t.Reset(every)
		}
	}
}

// The same re-armed with jitter: fine.
func registerJittered(ctx context.Context, c *http.Client, url string, every time.Duration) {
	t := time.NewTimer(0)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := ping(ctx, c, url); err != nil {
				t.Reset(time.Second + rand.N(2*time.Second))
				continue
			}
			t.Reset(every)
		}
	}
}

// Re-armed for the same period whatever happened: a schedule.
func refresh(ctx context.Context, c *http.Client, url string) {
	t := time.NewTimer(0)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			_ = ping(ctx, c, url)
			t.Reset(time.Minute)
		}
	}
}
