// Package netpool holds our raw TCP plumbing: a connection pool to one
// backend, a small line-protocol server and a client that redials.
package netpool

import (
	"context"
	"fmt"
	"net"
	"time"
)

const (
	dialAttempts  = 4
	dialBaseDelay = 50 * time.Millisecond
	idleTimeout   = 90 * time.Second
)

// Conn is a pooled connection.
type Conn struct {
	net.Conn
	lastUsed time.Time
}

func (c *Conn) healthy() bool { return time.Since(c.lastUsed) < idleTimeout }

// Pool keeps idle TCP connections to one backend.
type Pool struct {
	addr   string
	dialer net.Dialer
	idle   chan *Conn
}

// NewPool returns a pool of at most maxIdle idle connections to addr.
func NewPool(addr string, maxIdle int) *Pool {
	return &Pool{
		addr:   addr,
		dialer: net.Dialer{Timeout: 3 * time.Second, KeepAlive: 30 * time.Second},
		idle:   make(chan *Conn, maxIdle),
	}
}

// dial opens a new connection, retrying refused or reset dials with a
// doubling pause: the backend may be restarting.
func (p *Pool) dial(ctx context.Context) (*Conn, error) {
	var lastErr error
	for attempt := 0; attempt < dialAttempts; attempt++ {
		c, err := p.dialer.DialContext(ctx, "tcp", p.addr)
		if err == nil {
			return &Conn{Conn: c, lastUsed: time.Now()}, nil
		}
		lastErr = err
		if ctx.Err() != nil {
			break // caller gave up
		}
		time.Sleep(dialBaseDelay << attempt)
	}
	return nil, fmt.Errorf("netpool: dial %s: %w", p.addr, lastErr)
}

// Get returns an idle connection if a fresh one is left, else dials.
func (p *Pool) Get(ctx context.Context) (*Conn, error) {
	for {
		select {
		case c := <-p.idle:
			if c.healthy() {
				return c, nil
			}
			// Stale: the server has most likely closed it already.
			c.Close()
		default:
			return p.dial(ctx)
		}
	}
}

// Put returns c to the pool, closing it when the pool is full.
func (p *Pool) Put(c *Conn) {
	c.lastUsed = time.Now()
	select {
	case p.idle <- c:
	default:
		c.Close()
	}
}

// Warm pre-dials n connections so the first requests after a deploy do not
// pay for the handshake.
func (p *Pool) Warm(ctx context.Context, n int) error {
	for i := 0; i < n; i++ {
		c, err := p.dial(ctx)
		if err != nil {
			return fmt.Errorf("netpool: warm %d/%d: %w", i, n, err)
		}
		select {
		case p.idle <- c:
		default:
			c.Close()
			return nil // pool already full
		}
	}
	return nil
}
