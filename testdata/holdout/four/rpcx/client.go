// Package rpcx is a net/rpc client that redials when the connection to the
// inventory service drops.
package rpcx

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/rpc"
	"sync"
	"time"

	"github.com/retrylint/retrylint/budget"
)

// Client is safe for concurrent use.
type Client struct {
	addr    string
	breaker *budget.Breaker

	mu sync.Mutex
	rc *rpc.Client
}

// New returns a client for addr; it dials lazily.
func New(addr string) *Client {
	return &Client{addr: addr, breaker: &budget.Breaker{}}
}

// conn returns the current connection, dialling until one is up.
func (c *Client) conn() (*rpc.Client, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.rc != nil {
		return c.rc, nil
	}
	for {
		nc, err := net.Dial("tcp", c.addr)
		if err == nil {
			c.rc = rpc.NewClient(nc)
			return c.rc, nil
		}
		log.Printf("rpcx: dial %s: %v", c.addr, err)
		time.Sleep(500 * time.Millisecond)
	}
}

// reset drops a broken connection so that the next call redials.
func (c *Client) reset(broken *rpc.Client) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.rc == broken {
		c.rc.Close()
		c.rc = nil
	}
}

func retryable(err error) bool {
	return errors.Is(err, rpc.ErrShutdown) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)
}

// Call invokes method, redialling once the connection broke.
func (c *Client) Call(ctx context.Context, method string, args, reply any) error {
	seq := budget.Backoff{Base: 50 * time.Millisecond}.Start()
	var err, ok, permit = error(nil), false, budget.Permit{}
	for attempt := 0; attempt < 3; attempt++ {
		if attempt > 0 {
			if permit, ok = c.breaker.Admit(); !ok {
				return fmt.Errorf("rpcx %s: %w: %v", method, budget.ErrBreakerOpen, err)
			}
			if serr := budget.Sleep(ctx, seq.Next()); serr != nil {
				return serr
			}
		}
		var rc *rpc.Client
		rc, err = c.conn()
		if err != nil {
			continue
		}
		call := rc.Go(method, args, reply, make(chan *rpc.Call, 1))
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-call.Done:
			err = call.Error
		}
		permit.Done(err)
		if err == nil {
			return nil
		}
		if !retryable(err) {
			return err
		}
		c.reset(rc)
	}
	return fmt.Errorf("rpcx %s: %w", method, err)
}

// Lookup resolves a SKU through the registry, trying again a few times
// while the registry restarts.
func (c *Client) Lookup(sku string, tries int) (string, error) {
	rc, err := c.conn()
	if err != nil {
		return "", err
	}
	var loc string
	err = rc.Call("Registry.Lookup", sku, &loc)
	if err != nil && retryable(err) && tries > 1 {
		c.reset(rc)
		time.Sleep(100 * time.Millisecond)
		return c.Lookup(sku, tries-1)
	}
	return loc, err
}

// DialFirst connects to the first reachable replica.
func DialFirst(addrs []string, timeout time.Duration) (*rpc.Client, error) {
	var errs []error
	for _, a := range addrs {
		nc, err := net.DialTimeout("tcp", a, timeout)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		return rpc.NewClient(nc), nil
	}
	return nil, fmt.Errorf("no replica reachable: %w", errors.Join(errs...))
}
