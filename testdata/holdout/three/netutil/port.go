package netutil

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"time"
)

// WaitForPort blocks until addr accepts TCP connections or ctx ends.
func WaitForPort(ctx context.Context, addr string) error {
	for {
		d := net.Dialer{Timeout: time.Second}
		conn, err := d.DialContext(ctx, "tcp", addr)
		if err == nil {
			conn.Close()
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s: %w", addr, ctx.Err())
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// AwaitTCP blocks until addr accepts a connection. Used at startup for
// dependencies the process cannot run without.
func AwaitTCP(addr string) error {
	for {
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			return conn.Close()
		}
		time.Sleep(time.Second)
	}
}

// ListenFirstFree listens on the first free port from port upwards.
func ListenFirstFree(host string, port, tries int) (net.Listener, error) {
	var err error
	for i := 0; i < tries; i++ {
		var ln net.Listener
		ln, err = net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(port+i)))
		if err == nil {
			return ln, nil
		}
	}
	return nil, fmt.Errorf("no free port in %d..%d: %w", port, port+tries-1, err)
}

// dialWithRetry dials addr, trying again after a second while retries
// remain.
func dialWithRetry(addr string, retries int) (net.Conn, error) {
	conn, err := net.DialTimeout("tcp", addr, 2*time.Second)
	if err != nil && retries > 0 {
		time.Sleep(time.Second)
		return dialWithRetry(addr, retries-1)
	}
	return conn, err
}

// Dial connects to addr with up to three attempts.
func Dial(addr string) (net.Conn, error) {
	return dialWithRetry(addr, 2)
}
