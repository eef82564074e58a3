package a

import (
	"context"
	"errors"
	"net"
)

// After every host failed, a jump back tries them all again, for as long
// as a configuration flag the jump does not change says so.

type hostList struct {
	hosts    []string
	standbys bool
}

func checkRole(c net.Conn, role int) error { return nil }

func (h *hostList) dial(ctx context.Context) (net.Conn, error) {
	role := 0
again:
	for _, addr := range h.hosts {
		var d net.Dialer
		c, err := d.DialContext(ctx, "tcp", addr)
		if err != nil {
			continue
		}
		if err := checkRole(c, role); err != nil {
			c.Close()
			continue
		}
		return c, nil
	}
	if h.standbys {
		role = 1
		goto again // want `retry loop has no retry budget`
	}
	return nil, errors.New("no host")
}

// A one-way fallback to another role is failover, not a retry.
func (h *hostList) dialFallback(ctx context.Context) (net.Conn, error) {
	role := 0
again:
	for _, addr := range h.hosts {
		var d net.Dialer
		c, err := d.DialContext(ctx, "tcp", addr)
		if err != nil {
			continue
		}
		if err := checkRole(c, role); err != nil {
			c.Close()
			continue
		}
		return c, nil
	}
	if role == 0 && h.standbys {
		role = 1
		goto again
	}
	return nil, errors.New("no host")
}
