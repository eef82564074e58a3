package netpool

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/retrylint/retrylint/budget"
)

// Client speaks the line protocol to one backend over a single connection,
// redialling when the connection breaks.
type Client struct {
	addr   string
	dialer *net.Dialer

	mu   sync.Mutex
	conn net.Conn
	rd   *bufio.Reader
}

// NewClient returns a client for addr; it dials lazily.
func NewClient(addr string) *Client {
	return &Client{addr: addr, dialer: &net.Dialer{Timeout: 2 * time.Second}}
}

// clientBudget caps resends to the backend across all clients.
var clientBudget budget.Adaptive

var clientBackoff = budget.Backoff{Base: 25 * time.Millisecond, Cap: 2 * time.Second}

// Do sends one command and returns the reply line. Commands are idempotent
// reads (GET, STAT), so a broken connection is redialled and the command
// sent again.
func (c *Client) Do(ctx context.Context, cmd string) (reply string, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()

	seq := clientBackoff.Start()
	for attempt := 1; attempt <= 3; attempt++ {
		if attempt > 1 {
			if !clientBudget.Allow() {
				break
			}
			if serr := budget.Sleep(ctx, seq.Next()); serr != nil {
				return "", serr
			}
		}
		if c.conn == nil {
			if err = c.redial(ctx); err != nil {
				clientBudget.Record(err)
				continue
			}
		}
		reply, err = c.roundTrip(ctx, cmd)
		clientBudget.Record(err)
		if err == nil {
			return reply, nil
		}
		var ne net.Error
		if !errors.As(err, &ne) && !errors.Is(err, io.EOF) {
			return "", err // protocol error: sending it again will not help
		}
		c.conn.Close()
		c.conn, c.rd = nil, nil
	}
	return "", fmt.Errorf("netpool: %s: %w", cmd, err)
}

func (c *Client) redial(ctx context.Context) error {
	conn, err := c.dialer.DialContext(ctx, "tcp", c.addr)
	if err != nil {
		return err
	}
	c.conn, c.rd = conn, bufio.NewReader(conn)
	return nil
}

func (c *Client) roundTrip(ctx context.Context, cmd string) (string, error) {
	if dl, ok := ctx.Deadline(); ok {
		_ = c.conn.SetDeadline(dl)
	}
	if _, err := io.WriteString(c.conn, cmd+"\r\n"); err != nil {
		return "", err
	}
	line, err := c.rd.ReadString('\n')
	if err != nil {
		return "", err
	}
	return strings.TrimRight(line, "\r\n"), nil
}

// Connect blocks until the backend accepts a connection. The sidecar calls
// it once at boot, before the backend container is necessarily up; any
// error other than "connection refused" is returned at once.
func (c *Client) Connect() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		conn, err := net.Dial("tcp", c.addr)
		if err == nil {
			c.conn, c.rd = conn, bufio.NewReader(conn)
			return nil
		}
		if !errors.Is(err, syscall.ECONNREFUSED) {
			return fmt.Errorf("netpool: connect %s: %w", c.addr, err)
		}
		log.Printf("netpool: %s not up yet, retrying", c.addr)
		time.Sleep(time.Second)
	}
}
