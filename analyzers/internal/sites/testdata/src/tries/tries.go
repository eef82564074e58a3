// Package tries pins that the model reads the body of a function that
// turns a failure into false (built for it, though it has no loop), and
// that a predicate which only reads state stays a condition.
package tries

import (
	"net"
	"sync"
	"time"
)

func dialed(addr string) bool {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

func waitDial(addr string) {
	for i := 0; i < 5; i++ {
		if dialed(addr) { // want `retry`
			return
		}
		time.Sleep(time.Second)
	}
}

type conn struct {
	mu     sync.Mutex
	closed bool
}

func (c *conn) isClosed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

func (c *conn) keepalive() {
	for !c.isClosed() {
		time.Sleep(time.Second)
	}
}
