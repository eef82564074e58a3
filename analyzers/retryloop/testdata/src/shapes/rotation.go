package shapes

import (
	"math/rand"
	"net"
	"sync"
)

// A target picked from a list by a call each lap (a rotation or a random
// pick the callee makes from its own state): each attempt may go to
// another server, a failover, not the same operation again.

type pool struct {
	mu      sync.Mutex
	servers []string
	next    int
	primary string
}

func (p *pool) nextServer() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.servers[p.next]
	p.next = (p.next + 1) % len(p.servers)
	return s
}

func (p *pool) anyServer() string {
	return p.servers[rand.Intn(len(p.servers))]
}

func (p *pool) first() string { return p.servers[0] }

func (p *pool) server(i int) string { return p.servers[i] }

func (p *pool) main() string { return p.primary }

func (p *pool) dialRotating() (net.Conn, error) {
	var err error
	for i := 0; i < len(p.servers); i++ {
		addr := p.nextServer()
		c, derr := net.Dial("tcp", addr)
		if derr == nil {
			return c, nil
		}
		err = derr
	}
	return nil, err
}

func (p *pool) dialRandom() (net.Conn, error) {
	var err error
	for i := 0; i < 3; i++ {
		addr := p.anyServer()
		c, derr := net.Dial("tcp", addr)
		if derr == nil {
			return c, nil
		}
		err = derr
	}
	return nil, err
}

// The same server each lap: retries.
func (p *pool) dialFirst() (net.Conn, error) {
	var err error
	for i := 0; i < 3; i++ { // want `retry site: shape=counted bound=counter delay=absent jitter=no ctx=none remote attempts=3`
		addr := p.first()
		c, derr := net.Dial("tcp", addr)
		if derr == nil {
			return c, nil
		}
		err = derr
	}
	return nil, err
}

func (p *pool) dialChosen(k int) (net.Conn, error) {
	var err error
	for i := 0; i < 3; i++ { // want `retry site: shape=counted bound=counter delay=absent jitter=no ctx=none remote attempts=3`
		addr := p.server(k)
		c, derr := net.Dial("tcp", addr)
		if derr == nil {
			return c, nil
		}
		err = derr
	}
	return nil, err
}

func (p *pool) dialMain() (net.Conn, error) {
	var err error
	for i := 0; i < 3; i++ { // want `retry site: shape=counted bound=counter delay=absent jitter=no ctx=none remote attempts=3`
		addr := p.main()
		c, derr := net.Dial("tcp", addr)
		if derr == nil {
			return c, nil
		}
		err = derr
	}
	return nil, err
}
