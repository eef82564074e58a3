package shapes

import (
	"context"
	"math"
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

// The factor comes from a function returning a plain number: it grows
// with the attempt (int(math.Pow(1.5, i))).
type rearmConfig struct{ RetryWaitMS int }

func (cfg *rearmConfig) connectFactor(ctx context.Context, addr string) (net.Conn, error) {
	timeout := time.NewTimer(0)
	defer timeout.Stop()
	for i := 0; i < 5; i++ { // want `retry site: shape=counted bound=counter delay=growing jitter=no ctx=caller consulted remote attempts=5`
		select {
		case <-timeout.C:
			c, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr)
			if err == nil {
				return c, nil
			}
			wait := cfg.RetryWaitMS * powInt(1.5, float64(i-1))
			timeout = time.NewTimer(time.Duration(wait) * time.Millisecond)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return nil, context.DeadlineExceeded
}

func powInt(x, y float64) int { return int(math.Pow(x, y)) }

// Look-alike: a plain number that does not grow keeps the delay fixed.
func connectFlat(ctx context.Context, addr string) (net.Conn, error) {
	var err error
	for i := 0; i < 5; i++ { // want `retry site: shape=counted bound=counter delay=fixed jitter=no ctx=caller consulted remote attempts=5`
		var c net.Conn
		if c, err = (&net.Dialer{}).DialContext(ctx, "tcp", addr); err == nil {
			return c, nil
		}
		select {
		case <-time.After(time.Duration(flatMS()) * time.Millisecond):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return nil, err
}

func flatMS() int { return 250 }
