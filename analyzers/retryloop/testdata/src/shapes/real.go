package shapes

// Shapes the blind-labeled corpus (accuracy/) showed, each with look-alikes.

import (
	"context"
	"log"
	"math/rand"
	"net"
	"net/http"
	"time"
)

// appContext embeds context.Context: its Done and Err are the context's.
type appContext struct {
	context.Context
	name string
}

type loader interface {
	Load(ctx context.Context) ([]byte, error)
}

// A select that races the timer against the context consults it on every
// branch, the timer's included: the loop is cancellable, not unbounded.
func reloadEvery(ctx appContext, l loader, every time.Duration) {
	for { // want `retry site: shape=bare bound=none delay=unknown jitter=no ctx=unknown consulted`
		t := time.NewTimer(every)
		select {
		case <-t.C:
			if _, err := l.Load(ctx); err != nil {
				log.Print(err)
				continue
			}
		case <-ctx.Done():
			t.Stop()
		}
		break
	}
}

// The same loop with a ctx.Err check through the embedded context.
func reloadErr(ctx appContext, l loader) {
	for { // want `retry site: shape=bare bound=none delay=fixed jitter=no ctx=unknown consulted`
		if ctx.Err() != nil {
			return
		}
		if _, err := l.Load(ctx); err == nil {
			return
		}
		time.Sleep(time.Second)
	}
}

// Look-alike: the select has no context case, so it consults nothing.
func reloadNoStop(ctx appContext, l loader, stats chan<- int) {
	for { // want `retry site: shape=bare bound=none delay=fixed jitter=no ctx=unknown`
		select {
		case <-time.After(time.Second):
		case stats <- 1:
		}
		if _, err := l.Load(ctx); err == nil {
			return
		}
	}
}

// nextDelay doubles its parameter and scales it by a random factor: the
// result is jittered, though the parameter is the caller's value.
func nextDelay(d time.Duration) time.Duration {
	d *= 2
	f := rand.Float64() + 0.5
	d = time.Duration(float64(d) * f)
	return min(d, time.Minute)
}

// doubleDelay doubles its parameter and nothing more: growing, no jitter.
func doubleDelay(d time.Duration) time.Duration {
	d *= 2
	return min(d, time.Minute)
}

func dialJittered(addr string) net.Conn {
	d := 10 * time.Millisecond
	for { // want `retry site: shape=bare bound=none delay=growing jitter=yes ctx=none remote`
		c, err := net.Dial("tcp", addr)
		if err == nil {
			return c
		}
		time.Sleep(d)
		d = nextDelay(d)
	}
}

func dialDoubled(addr string) net.Conn {
	d := 10 * time.Millisecond
	for { // want `retry site: shape=bare bound=none delay=growing jitter=no ctx=none remote`
		c, err := net.Dial("tcp", addr)
		if err == nil {
			return c
		}
		time.Sleep(d)
		d = doubleDelay(d)
	}
}

// A timer channel kept in a variable (retry = time.After(d); case <-retry:)
// is a wait, judged by its delay.
func lockLoop(acquire func() error, lost <-chan struct{}, stop <-chan struct{}) {
	var retry <-chan time.Time
	for i := 0; i < 5; i++ { // want `retry site: shape=counted bound=counter delay=fixed jitter=no ctx=unknown consulted`
		err := acquire()
		if err == nil {
			return
		}
		retry = time.After(10 * time.Second)
		select {
		case <-retry:
		case <-stop:
			return
		}
	}
}

// A branch that only logs is no decision: after it, leaving by the stop
// channel is not a success exit. The loop re-acquires after success too
// (the lock was lost): a long-lived holder, not a retry of a failed call.
func holdLock(c *http.Client, req *http.Request, stop <-chan struct{}, lost <-chan struct{}) {
	for {
		resp, err := c.Do(req)
		if err != nil {
			log.Print(err)
		} else {
			resp.Body.Close()
		}
		select {
		case <-lost:
			continue
		case <-stop:
			if _, err := c.Do(req); err != nil {
				log.Print(err)
			}
			return
		}
	}
}

// Look-alike: the same loop whose success does leave is a retry.
func acquireOnce(c *http.Client, req *http.Request, stop <-chan struct{}) {
	for { // want `retry site: shape=bare bound=none delay=fixed jitter=no ctx=unknown consulted remote req=\?`
		resp, err := c.Do(req)
		if err == nil {
			resp.Body.Close()
			return
		}
		log.Print(err)
		select {
		case <-time.After(time.Second):
		case <-stop:
			return
		}
	}
}
