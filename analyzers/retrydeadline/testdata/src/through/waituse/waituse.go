// Package waituse calls waiter's helpers with a context in scope that it
// does not hand them.
package waituse

import (
	"context"
	"net"
	"time"

	"through/waiter"
)

func dial(ctx context.Context, addr string) error {
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return err
	}
	return c.Close()
}

// The helper's other wait observes only its package's shutdown channel:
// the caller's ctx is slept through.
func backoff(ctx context.Context, addr string) error {
	return waiter.WithBackoff(func() error { return dial(ctx, addr) }) // want `retry helper sleeps with time.Sleep while ctx is in scope and not handed to it`
}

// The stop is reached through the pacer, which can hold no context.
func pace(ctx context.Context, p *waiter.Pacer, addr string) error {
	return waiter.WithPacer(p, func() error { return dial(ctx, addr) }) // want `retry helper sleeps with time.Sleep while ctx is in scope and not handed to it`
}

// The throttle's wait observes a context of its own making.
func throttle(ctx context.Context, addr string) error {
	return waiter.WithThrottle(waiter.Throttle{}, func() error { return dial(ctx, addr) }) // want `retry helper sleeps with time.Sleep while ctx is in scope and not handed to it`
}

// The drainer holds a channel, but its wait observes only its package's.
func drain(ctx context.Context, d *waiter.Drainer, addr string) error {
	return waiter.WithDrainer(d, func() error { return dial(ctx, addr) }) // want `retry helper sleeps with time.Sleep while ctx is in scope and not handed to it`
}

// Look-alike: the carrier's request may carry the caller's context.
func carry(ctx context.Context, c *waiter.Carrier, addr string) error {
	return waiter.WithCarrier(c, func() error { return dial(ctx, addr) })
}

// Look-alike: the session may hold the caller's context.
func session(ctx context.Context, s *waiter.Session, addr string) error {
	return waiter.WithSession(s, func() error { return dial(ctx, addr) })
}

// Look-alike: the relay holds a notifier of the code base's own, which may.
func relay(ctx context.Context, r *waiter.Relay, addr string) error {
	return waiter.WithRelay(r, func() error { return dial(ctx, addr) })
}

// Look-alike: no context in scope (each attempt has a timeout of its own).
func backoffNoCtx(addr string) error {
	return waiter.WithBackoff(func() error {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err != nil {
			return err
		}
		return c.Close()
	})
}
