package shapes

import (
	"context"
	"net"
	"time"
)

// The timer is made again at the end of a failed round (timeout =
// time.NewTimer(d)) and waited at the head of the next: d is the delay
// between attempts, here growing and capped.
func connectRearm(ctx context.Context, addr string, maxWait time.Duration) (net.Conn, error) {
	timeout := time.NewTimer(0)
	defer timeout.Stop()
	for i := 0; i < 5; i++ { // want `retry site: shape=counted bound=counter delay=growing jitter=no ctx=caller consulted remote attempts=5`
		select {
		case <-timeout.C:
			c, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr)
			if err == nil {
				return c, nil
			}
			d := 100 * time.Millisecond << i
			if d > maxWait {
				d = maxWait
			}
			timeout = time.NewTimer(d)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return nil, context.DeadlineExceeded
}

// Look-alike: a timer made twice outside any re-arm pattern (two
// different timers over time, both constant) stays fixed.
func connectRearmFixed(ctx context.Context, addr string) (net.Conn, error) {
	timeout := time.NewTimer(0)
	defer timeout.Stop()
	for i := 0; i < 5; i++ { // want `retry site: shape=counted bound=counter delay=fixed jitter=no ctx=caller consulted remote attempts=5`
		select {
		case <-timeout.C:
			c, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr)
			if err == nil {
				return c, nil
			}
			timeout = time.NewTimer(time.Second)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return nil, context.DeadlineExceeded
}
