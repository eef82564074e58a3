package a

import (
	"context"
	"errors"
	"net"
	"time"
)

// retryCtx retries op until it succeeds or ctx ends: ctx is its only stop.
func retryCtx[T any](ctx context.Context, op func() (T, error), next func(error) time.Duration) (T, error) {
	var zero T
	for {
		res, err := op()
		if err == nil {
			return res, nil
		}
		select {
		case <-ctx.Done():
			return zero, errors.Join(ctx.Err(), err)
		case <-time.After(next(err)):
		}
	}
}

func backoff(error) time.Duration { return time.Second }

func dialForever(addr string) (net.Conn, error) {
	op := func() (net.Conn, error) { return net.Dial("tcp", addr) }
	return retryCtx(context.Background(), op, backoff) // want `retry helper call runs without a deadline: its attempts run under a context with no deadline`
}

func dialForeverVar(addr string) (net.Conn, error) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	return retryCtx(ctx, func() (net.Conn, error) { return net.Dial("tcp", addr) }, backoff) // want `retry helper call runs without a deadline`
}

// Look-alikes: a deadline over all attempts, the caller's context, a
// per-attempt timeout, or a context this function cannot judge.
func dialTimeout(addr string) (net.Conn, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return retryCtx(ctx, func() (net.Conn, error) { return net.Dial("tcp", addr) }, backoff)
}

func dialCaller(ctx context.Context, addr string) (net.Conn, error) {
	return retryCtx(ctx, func() (net.Conn, error) { return net.Dial("tcp", addr) }, backoff)
}

func dialPerAttempt(addr string) (net.Conn, error) {
	return retryCtx(context.Background(), func() (net.Conn, error) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		var d net.Dialer
		return d.DialContext(ctx, "tcp", addr)
	}, backoff)
}

type dialer struct{ ctx context.Context }

func (d *dialer) dial(addr string) (net.Conn, error) {
	return retryCtx(d.ctx, func() (net.Conn, error) { return net.Dial("tcp", addr) }, backoff)
}

// fixedTimes retries op three times and never looks at a context.
func fixedTimes(ctx context.Context, op func() error) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = op(); err == nil {
			return nil
		}
		time.Sleep(time.Second) // want `retry sleeps while ctx is in scope and never checks it`
	}
	return err
}

// The helper ignores the context it is given; the attempts dial with no
// timeout: one hung dial blocks all three.
func notConsulted(addr string) error {
	return fixedTimes(context.Background(), func() error { // want `retry helper call runs without a deadline: its attempts use no context and no client timeout`
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
		}
		return err
	})
}
