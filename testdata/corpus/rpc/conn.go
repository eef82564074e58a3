// Package rpc is a line-protocol RPC client in the shape of the redis,
// nats and kafka connection code.
package rpc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"log"
	"math"
	"net"
	"time"
)

// Conn is one connection to a server.
type Conn struct {
	addr   string
	seeds  []string
	dialer net.Dialer
	nc     net.Conn
}

// Ping dials addr, jumping back to retry on a dial error.
func Ping(addr string) error {
	n := 0
retry:
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		if n < 3 {
			n++
			time.Sleep(100 * time.Millisecond)
			goto retry
		}
		return err
	}
	defer conn.Close()
	_, err = conn.Write([]byte("PING\r\n"))
	return err
}

func (c *Conn) roundTrip(ctx context.Context, method string, payload []byte) ([]byte, error) {
	nc, err := c.dialer.DialContext(ctx, "tcp", c.addr)
	if err != nil {
		return nil, err
	}
	defer nc.Close()
	if _, err := fmt.Fprintf(nc, "%s %d\r\n%s", method, len(payload), payload); err != nil {
		return nil, err
	}
	return bufio.NewReader(nc).ReadBytes('\n')
}

// Invoke retries a call with exponential backoff from math.Pow.
func (c *Conn) Invoke(ctx context.Context, method string, payload []byte) ([]byte, error) {
	var lastErr error
	for i := 0; i < 4; i++ {
		out, err := c.roundTrip(ctx, method, payload)
		if err == nil {
			return out, nil
		}
		lastErr = err
		d := time.Duration(math.Pow(2, float64(i))) * 50 * time.Millisecond
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
	}
	return nil, lastErr
}

// reconnect dials until it succeeds, five seconds apart.
func (c *Conn) reconnect() {
	for {
		nc, err := net.Dial("tcp", c.addr)
		if err == nil {
			c.nc = nc
			return
		}
		log.Printf("rpc: reconnect %s: %v", c.addr, err)
		time.Sleep(5 * time.Second)
	}
}

func (c *Conn) dial(ctx context.Context) error {
	nc, err := c.dialer.DialContext(ctx, "tcp", c.addr)
	if err != nil {
		return err
	}
	c.nc = nc
	return nil
}

// connectSeeds tries each seed in turn by assigning it to the address
// field the dialer uses.
func (c *Conn) connectSeeds(ctx context.Context) error {
	lastErr := errors.New("rpc: no seeds")
	for i := 0; i < len(c.seeds); i++ {
		c.addr = c.seeds[i]
		err := c.dial(ctx)
		if err == nil {
			return nil
		}
		lastErr = err
	}
	return lastErr
}

// Cluster round-robins over brokers.
type Cluster struct {
	brokers []string
	next    int
}

// DialAny starts at the cursor and tries each broker once, pausing
// briefly between brokers.
func (cl *Cluster) DialAny(ctx context.Context) (net.Conn, error) {
	var d net.Dialer
	lastErr := errors.New("rpc: no brokers")
	start := cl.next
	for n := 0; n < len(cl.brokers); n++ {
		addr := cl.brokers[(start+n)%len(cl.brokers)]
		conn, err := d.DialContext(ctx, "tcp", addr)
		if err == nil {
			cl.next = (start + n + 1) % len(cl.brokers)
			return conn, nil
		}
		lastErr = err
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
	return nil, lastErr
}

// ListenFree listens on the first free port from base on.
func ListenFree(base int) (net.Listener, error) {
	var lastErr error
	for port := base; port < base+10; port++ {
		ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err == nil {
			return ln, nil
		}
		lastErr = err
	}
	return nil, lastErr
}

// readLoop hands every frame to handle until the connection fails.
func (c *Conn) readLoop(handle func([]byte)) error {
	buf := make([]byte, 4096)
	for {
		n, err := c.nc.Read(buf)
		if err != nil {
			return err
		}
		handle(buf[:n])
	}
}

// Serve accepts connections until the listener fails.
func Serve(ln net.Listener, handle func(net.Conn)) error {
	for {
		conn, err := ln.Accept()
		if err != nil {
			return err
		}
		go handle(conn)
	}
}

// Pool keeps idle connections.
type Pool struct {
	idle chan *Conn
	addr string
}

func (c *Conn) healthy() bool {
	if c.nc == nil {
		return false
	}
	_, err := c.nc.Write([]byte("PING\r\n"))
	return err == nil
}

// Get takes idle connections until a healthy one turns up, else dials.
func (p *Pool) Get(ctx context.Context) (*Conn, error) {
	for {
		select {
		case c := <-p.idle:
			if c.healthy() {
				return c, nil
			}
			c.nc.Close()
		default:
			c := &Conn{addr: p.addr}
			return c, c.dial(ctx)
		}
	}
}

// WaitForLeader dials for at most thirty seconds: the loop is bounded by
// elapsed time.
func WaitForLeader(addr string) (net.Conn, error) {
	deadline := time.Now().Add(30 * time.Second)
	var lastErr error
	for time.Now().Before(deadline) {
		conn, err := net.Dial("tcp", addr)
		if err == nil {
			return conn, nil
		}
		lastErr = err
		time.Sleep(time.Second)
	}
	return nil, fmt.Errorf("rpc: no leader within 30s: %w", lastErr)
}

// Call sends to the brokers in turn from the cursor, moving a local
// cursor after each failure.
func (cl *Cluster) Call(ctx context.Context, payload []byte) ([]byte, error) {
	var d net.Dialer
	lastErr := errors.New("rpc: no brokers")
	cur := cl.next
	for n := 0; n < len(cl.brokers); n++ {
		conn, err := d.DialContext(ctx, "tcp", cl.brokers[cur])
		if err == nil {
			defer conn.Close()
			if _, err := conn.Write(payload); err != nil {
				return nil, err
			}
			return bufio.NewReader(conn).ReadBytes('\n')
		}
		lastErr = err
		cur = (cur + 1) % len(cl.brokers)
	}
	return nil, lastErr
}

// ServeWithBackoff is the net/http accept loop: on a temporary accept
// error it waits 5ms, doubling up to a second, and accepts again.
func ServeWithBackoff(ln net.Listener, handle func(net.Conn)) error {
	var tempDelay time.Duration
	for {
		conn, err := ln.Accept()
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				if tempDelay == 0 {
					tempDelay = 5 * time.Millisecond
				} else {
					tempDelay *= 2
				}
				if limit := time.Second; tempDelay > limit {
					tempDelay = limit
				}
				time.Sleep(tempDelay)
				continue
			}
			return err
		}
		tempDelay = 0
		go handle(conn)
	}
}

// ReadPackets reads datagrams until quit, waking every second to look
// at it: a read timeout is not a failure.
func ReadPackets(pc net.PacketConn, quit <-chan struct{}, handle func([]byte, net.Addr)) error {
	buf := make([]byte, 65535)
	for {
		select {
		case <-quit:
			return nil
		default:
		}
		_ = pc.SetReadDeadline(time.Now().Add(time.Second))
		n, addr, err := pc.ReadFrom(buf)
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			return err
		}
		handle(buf[:n], addr)
	}
}
