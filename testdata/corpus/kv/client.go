// Package kv is a key-value store client in the shape of go-redis: the
// attempt number is handed to the attempt, which waits before a retry.
package kv

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"strings"
	"time"
)

// Client talks to one server.
type Client struct {
	addr       string
	maxRetries int
	dialer     net.Dialer
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// retryBackoff is full jitter over a capped doubling.
func retryBackoff(attempt int) time.Duration {
	d := 8 * time.Millisecond << attempt
	if d <= 0 || d > 512*time.Millisecond {
		d = 512 * time.Millisecond
	}
	return time.Duration(rand.Int64N(int64(d)))
}

func shouldRetry(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) || strings.HasPrefix(err.Error(), "LOADING")
}

// processOnce runs one attempt, waiting first when it is a retry.
func (c *Client) processOnce(ctx context.Context, cmd string, attempt int) (bool, error) {
	if attempt > 0 {
		if err := sleepCtx(ctx, retryBackoff(attempt)); err != nil {
			return false, err
		}
	}
	nc, err := c.dialer.DialContext(ctx, "tcp", c.addr)
	if err != nil {
		return true, err
	}
	defer nc.Close()
	if _, err := nc.Write([]byte(cmd + "\r\n")); err != nil {
		return shouldRetry(err), err
	}
	line, err := bufio.NewReader(nc).ReadString('\n')
	if err != nil {
		return shouldRetry(err), err
	}
	if strings.HasPrefix(line, "-") {
		err := errors.New(strings.TrimSpace(line[1:]))
		return shouldRetry(err), err
	}
	return false, nil
}

// Process retries a command up to maxRetries times; the jittered wait is
// in processOnce. No budget.
func (c *Client) Process(ctx context.Context, cmd string) error {
	var lastErr error
	for attempt := 0; attempt <= c.maxRetries; attempt++ {
		retry, err := c.processOnce(ctx, cmd, attempt)
		if err == nil || !retry {
			return err
		}
		lastErr = err
	}
	return lastErr
}

func (c *Client) send(ctx context.Context, cmd string, attempt int) error {
	nc, err := c.dialer.DialContext(ctx, "tcp", c.addr)
	if err != nil {
		return fmt.Errorf("kv: attempt %d: %w", attempt+1, err)
	}
	defer nc.Close()
	if _, err := nc.Write([]byte(cmd + "\r\n")); err != nil {
		return fmt.Errorf("kv: attempt %d: %w", attempt+1, err)
	}
	return nil
}

// Set retries with a fixed 100ms wait, passing the attempt number along
// for the error message.
func (c *Client) Set(ctx context.Context, key, value string) error {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		err := c.send(ctx, "SET "+key+" "+value, attempt)
		if err == nil {
			return nil
		}
		lastErr = err
		if err := sleepCtx(ctx, 100*time.Millisecond); err != nil {
			return err
		}
	}
	return lastErr
}
