// Package cache is the client for our replicated cache tier (a
// memcached-like text protocol on every node).
package cache

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// ErrMiss is returned for a key the cache does not hold.
var ErrMiss = errors.New("cache: miss")

var errTooLarge = errors.New("cache: value too large")

// replica is one cache node.
type replica struct {
	addr string

	mu   sync.Mutex
	conn net.Conn
	rd   *bufio.Reader
}

// dialReplica connects to addr, trying again a couple of times on refusal:
// a replica being restarted refuses connections for a second or so.
func dialReplica(addr string, retries int) (net.Conn, error) {
	conn, err := net.DialTimeout("tcp", addr, 500*time.Millisecond)
	if err != nil && retries > 0 && errors.Is(err, syscall.ECONNREFUSED) {
		time.Sleep(200 * time.Millisecond)
		return dialReplica(addr, retries-1)
	}
	return conn, err
}

// cmd sends one command line (and payload) and returns the status line.
func (r *replica) cmd(ctx context.Context, line string, payload []byte) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.conn == nil {
		c, err := dialReplica(r.addr, 2)
		if err != nil {
			return "", err
		}
		r.conn, r.rd = c, bufio.NewReader(c)
	}
	if dl, ok := ctx.Deadline(); ok {
		_ = r.conn.SetDeadline(dl)
	}
	msg := line + "\r\n"
	if payload != nil {
		msg += string(payload) + "\r\n"
	}
	if _, err := r.conn.Write([]byte(msg)); err != nil {
		r.reset()
		return "", err
	}
	status, err := r.rd.ReadString('\n')
	if err != nil {
		r.reset()
		return "", err
	}
	return strings.TrimRight(status, "\r\n"), nil
}

func (r *replica) reset() {
	r.conn.Close()
	r.conn, r.rd = nil, nil
}

func (r *replica) get(ctx context.Context, key string) ([]byte, error) {
	status, err := r.cmd(ctx, "get "+key, nil)
	if err != nil {
		return nil, err
	}
	if status == "END" {
		return nil, ErrMiss
	}
	v, ok := strings.CutPrefix(status, "VALUE ")
	if !ok {
		return nil, fmt.Errorf("cache: %s: unexpected reply %q", r.addr, status)
	}
	return []byte(v), nil
}

func (r *replica) set(ctx context.Context, key string, val []byte, ttl time.Duration) error {
	status, err := r.cmd(ctx, fmt.Sprintf("set %s 0 %d %d", key, int(ttl.Seconds()), len(val)), val)
	if err != nil {
		return err
	}
	switch status {
	case "STORED":
		return nil
	case "SERVER_ERROR object too large for cache":
		return errTooLarge
	}
	return fmt.Errorf("cache: %s: %s", r.addr, status)
}

func (r *replica) del(ctx context.Context, key string) error {
	status, err := r.cmd(ctx, "delete "+key, nil)
	if err != nil {
		return err
	}
	if status == "NOT_FOUND" {
		return ErrMiss
	}
	return nil
}

func (r *replica) incr(ctx context.Context, key string, delta int64) (int64, error) {
	status, err := r.cmd(ctx, fmt.Sprintf("incr %s %d", key, delta), nil)
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(status, 10, 64)
}
