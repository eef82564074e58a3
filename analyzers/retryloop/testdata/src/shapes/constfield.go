package shapes

import (
	"net"
	"time"
)

// An unexported field the package only sets to constants is a fixed
// delay; one set from a parameter, changed in place, or exported is a
// value that cannot be seen.

type subscriber struct {
	addr         string
	done         chan struct{}
	retryTimeout time.Duration
	pause        time.Duration
	backoff      time.Duration
	Wait         time.Duration
}

func newSubscriber(addr string, pause time.Duration) *subscriber {
	return &subscriber{addr: addr, done: make(chan struct{}), retryTimeout: 5 * time.Second, pause: pause, backoff: time.Second, Wait: time.Second}
}

func (s *subscriber) connect() net.Conn {
	for { // want `retry site: shape=bare bound=none delay=fixed jitter=no ctx=none consulted remote attempts=unbounded$`
		c, err := net.Dial("tcp", s.addr)
		if err == nil {
			return c
		}
		select {
		case <-time.After(s.retryTimeout):
		case <-s.done:
			return nil
		}
	}
}

// Look-alike: the field comes from the caller: unknown.
func (s *subscriber) connectPaused() net.Conn {
	for { // want `retry site: shape=bare bound=none delay=unknown jitter=no ctx=none consulted remote attempts=unbounded$`
		c, err := net.Dial("tcp", s.addr)
		if err == nil {
			return c
		}
		select {
		case <-time.After(s.pause):
		case <-s.done:
			return nil
		}
	}
}

// Look-alike: the field is doubled in place: not fixed.
func (s *subscriber) connectBackoff() net.Conn {
	for { // want `retry site: shape=bare bound=none delay=unknown jitter=no ctx=none remote`
		c, err := net.Dial("tcp", s.addr)
		if err == nil {
			return c
		}
		time.Sleep(s.backoff)
		s.backoff *= 2
	}
}

// Look-alike: an exported field may be set by any importer: unknown.
func (s *subscriber) connectExported() net.Conn {
	for { // want `retry site: shape=bare bound=none delay=unknown jitter=no ctx=none remote`
		c, err := net.Dial("tcp", s.addr)
		if err == nil {
			return c
		}
		time.Sleep(s.Wait)
	}
}
