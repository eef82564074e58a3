package a

import (
	"context"
	"errors"
	"net"
)

// A goto back to the top after every endpoint failed retries them all.

type endpoints struct {
	hosts        []string
	preferBackup bool
}

func verify(c net.Conn, mode int) error { return nil }

// The guard tests the configuration, which the jump does not change: the
// first jump moves mode to a constant, every later one tries the same
// hosts again at once.
func (e *endpoints) open(ctx context.Context) (net.Conn, error) {
	mode := 0
restart:
	var errs []error
	for _, h := range e.hosts {
		var d net.Dialer
		c, err := d.DialContext(ctx, "tcp", h)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if err := verify(c, mode); err != nil {
			c.Close()
			continue
		}
		return c, nil
	}
	if e.preferBackup {
		mode = 1
		goto restart // want `retry loop retries at once`
	}
	return nil, errors.Join(errs...)
}

// Look-alikes.

// A one-way fallback: the guard tests the variable the jump moves, so
// the hosts are tried once more under the other mode, and no more.
func (e *endpoints) openFallback(ctx context.Context) (net.Conn, error) {
	mode := 0
restart:
	var errs []error
	for _, h := range e.hosts {
		var d net.Dialer
		c, err := d.DialContext(ctx, "tcp", h)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if err := verify(c, mode); err != nil {
			c.Close()
			continue
		}
		return c, nil
	}
	if mode == 0 {
		mode = 1
		goto restart
	}
	return nil, errors.Join(errs...)
}

// Each jump moves to the next mode: failover across modes.
func (e *endpoints) openModes(ctx context.Context) (net.Conn, error) {
	mode := 0
restart:
	for _, h := range e.hosts {
		var d net.Dialer
		c, err := d.DialContext(ctx, "tcp", h)
		if err != nil {
			continue
		}
		if err := verify(c, mode); err != nil {
			c.Close()
			continue
		}
		return c, nil
	}
	if e.preferBackup && mode < 3 {
		mode++
		goto restart
	}
	return nil, errors.New("no host")
}

// A loop that ends on the first success, then a jump back for the next
// batch: a collection walked in pages, not a retry.
func (e *endpoints) pages(ctx context.Context, next func() []string) int {
	n := 0
page:
	hosts := next()
	for _, h := range hosts {
		var d net.Dialer
		c, err := d.DialContext(ctx, "tcp", h)
		if err != nil {
			continue
		}
		c.Close()
		n++
	}
	if len(hosts) > 0 {
		goto page
	}
	return n
}
