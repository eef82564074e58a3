// Package evidence pins what the engine reads of each retry site's
// values: what ends its attempts, and the wait between them.
package evidence

import (
	"context"
	"math/rand/v2"
	"time"
)

func op(ctx context.Context) error { return nil }

// A counted loop with a constant wait.
func counted(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = op(ctx); err == nil { // want `bound=counter delay=fixed jitter=false`
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// A delay that doubles each lap, with full jitter, until the context ends.
func backoff(ctx context.Context) error {
	d := 100 * time.Millisecond
	for {
		err := op(ctx) // want `bound=deadline delay=growing jitter=true`
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(rand.N(d)):
		}
		d *= 2
	}
}

// A delay made from the attempt number; the loop checks ctx.Err.
func linear(ctx context.Context) error {
	for i := 1; ; i++ {
		if err := op(ctx); err == nil { // want `bound=deadline delay=growing jitter=false`
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		time.Sleep(time.Duration(i) * time.Second)
	}
}

// No bound, no wait.
func hammer(ctx context.Context) {
	for {
		if err := op(ctx); err == nil { // want `bound=none delay=none jitter=false`
			return
		}
	}
}

// A delay the caller chooses, and a limit read from a field.
type cfg struct {
	wait  time.Duration
	tries func() bool
}

func configured(ctx context.Context, c cfg) error {
	for {
		err := op(ctx) // want `bound=unknown delay=unknown jitter=false`
		if err == nil {
			return nil
		}
		if !c.tries() {
			return err
		}
		time.Sleep(c.wait)
	}
}

func refresh(ctx context.Context) error { return nil }

// Leaving when another call fails bounds nothing: while op keeps failing
// and refresh succeeds, the loop goes on.
func refreshing(ctx context.Context) error {
	for {
		err := op(ctx) // want `bound=none delay=fixed jitter=false`
		if err == nil {
			return nil
		}
		if err := refresh(ctx); err != nil {
			return err
		}
		time.Sleep(time.Second)
	}
}

func pause() { time.Sleep(time.Second) }

// A wait in a helper of the package: a wait, its delay read elsewhere.
func paused(ctx context.Context) error {
	for i := 0; i < 5; i++ {
		if err := op(ctx); err == nil { // want `bound=counter delay=unknown jitter=false`
			return nil
		}
		pause()
	}
	return nil
}

// A mockable clock: its channel waits, for how long is its business.
type clock interface {
	After(d time.Duration) <-chan time.Time
}

func clocked(ctx context.Context, clk clock) error {
	for {
		err := op(ctx) // want `bound=deadline delay=unknown jitter=false`
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-clk.After(time.Second):
		}
	}
}

// Cancellation alone is no wait.
func cancelOnly(ctx context.Context) error {
	for {
		err := op(ctx) // want `bound=deadline delay=none jitter=false`
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		default:
		}
	}
}
