package a

import (
	"context"
	"net"
	"time"
)

// A stop channel (shutdown) is not a deadline: a reconnect loop that
// only watches one and has no attempt cap retries for as long as the
// dependency is down.

type pubsub interface{ Subscribe() error }

type subscriber struct {
	broker pubsub
	done   chan struct{}
}

func (s *subscriber) start() {
	for { // want `retry loop has no attempt cap, deadline or retry budget`
		err := s.broker.Subscribe()
		if err == nil {
			return
		}
		select {
		case <-time.After(5 * time.Second):
		case <-s.done:
			return
		}
	}
}

// Look-alike: the caller's context bounds the loop: no "unbounded"
// finding (and the interface call is not known to be remote).
func (s *subscriber) startCtx(ctx context.Context) {
	for {
		err := s.broker.Subscribe()
		if err == nil {
			return
		}
		select {
		case <-time.After(5 * time.Second):
		case <-ctx.Done():
			return
		}
	}
}

// Look-alike: capped: bounded, and not known to be remote.
func (s *subscriber) startCapped() {
	for i := 0; i < 5; i++ {
		if err := s.broker.Subscribe(); err == nil {
			return
		}
		select {
		case <-time.After(5 * time.Second):
		case <-s.done:
			return
		}
	}
}

// Look-alike: a remote dial watched by the caller's context: it lacks a
// budget, not a bound.
func dialUntil(ctx context.Context, addr string) net.Conn {
	var d net.Dialer
	for { // want `retry loop has no retry budget`
		c, err := d.DialContext(ctx, "tcp", addr)
		if err == nil {
			return c
		}
		select {
		case <-time.After(time.Second):
		case <-ctx.Done():
			return nil
		}
	}
}
