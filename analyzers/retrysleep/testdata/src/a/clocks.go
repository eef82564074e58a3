package a

import (
	"context"
	"errors"
	"net/http"
	"time"
)

// A mockable clock, as github.com/andres-erbsen/clock, benbjohnson/clock,
// jonboulle/clockwork and k8s.io/utils/clock declare one: what its
// channels wait is the implementation's business.
type clock interface {
	After(d time.Duration) <-chan time.Time
	Timer(d time.Duration) *clockTimer
}

type clockTimer struct {
	C <-chan time.Time
}

type clocked struct {
	clk  clock
	c    *http.Client
	kick chan struct{}
}

// The wait is the clock's After: unknown, neither absent nor fixed.
func (c *clocked) fetchClockSelect(ctx context.Context, url string) error {
	for {
		resp, err := c.c.Get(url)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-c.clk.After(time.Second):
		}
	}
}

// The same outside a select.
func (c *clocked) fetchClockRecv(url string) error {
	for i := 0; i < 5; i++ {
		resp, err := c.c.Get(url)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		<-c.clk.After(time.Second)
	}
	return errors.New("gave up")
}

// A timer of the clock: its channel is a field of a type the model does
// not time.
func (c *clocked) fetchClockTimer(ctx context.Context, url string) error {
	for {
		resp, err := c.c.Get(url)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		t := c.clk.Timer(time.Second)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
}

// A helper of the package hands the timer channel: unknown.
func (c *clocked) fetchHelperChan(ctx context.Context, url string) error {
	for i := 0; ; i++ {
		resp, err := c.c.Get(url)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-pauseFor(i):
		}
	}
}

func pauseFor(i int) <-chan time.Time {
	if i > 3 {
		return time.After(time.Minute)
	}
	return time.After(time.Second)
}

// time.After itself is timed: a fixed delay.
func (c *clocked) fetchTimeAfter(ctx context.Context, url string) error {
	for {
		resp, err := c.c.Get(url)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		select { // want `retry waits a fixed delay`
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
}

// A kick channel carries no time: the select waits for nothing but
// cancellation and a kick, and a failure goes round at once.
func (c *clocked) fetchKick(ctx context.Context, url string) error {
	for { // want `retry loop retries at once`
		resp, err := c.c.Get(url)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		default:
		}
	}
}
