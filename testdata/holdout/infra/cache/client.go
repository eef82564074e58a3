package cache

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/retrylint/retrylint/budget"
)

// Client spreads reads over the replicas and fails over between them.
type Client struct {
	replicas []*replica
	next     atomic.Uint32
	local    sync.Map // fills in flight in this process: key -> []byte
}

// New returns a client for the given node addresses.
func New(addrs ...string) *Client {
	c := &Client{}
	for _, a := range addrs {
		c.replicas = append(c.replicas, &replica{addr: a})
	}
	return c
}

func (c *Client) home(key string) *replica {
	h := fnv.New32a()
	h.Write([]byte(key))
	return c.replicas[h.Sum32()%uint32(len(c.replicas))]
}

// Get reads key, starting at the next replica in rotation and moving on to
// the others when a node is down.
func (c *Client) Get(ctx context.Context, key string) ([]byte, error) {
	start := int(c.next.Add(1))
	var lastErr error
	for i := range len(c.replicas) {
		r := c.replicas[(start+i)%len(c.replicas)]
		v, err := r.get(ctx, key)
		switch {
		case err == nil:
			return v, nil
		case errors.Is(err, ErrMiss):
			return nil, err
		}
		lastErr = err // node down: try the next one
	}
	return nil, fmt.Errorf("cache: all %d replicas failed: %w", len(c.replicas), lastErr)
}

// Set writes key to the first replica that accepts it. When every replica
// refuses, the cluster is probably failing over: give it a moment and go
// round again.
func (c *Client) Set(ctx context.Context, key string, val []byte, ttl time.Duration) error {
	var lastErr error
rounds:
	for round := 0; round < 3; round++ {
		for _, r := range c.replicas {
			err := r.set(ctx, key, val, ttl)
			if err == nil {
				return nil
			}
			lastErr = err
			if errors.Is(err, errTooLarge) {
				break rounds // no replica will take it
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("cache: set %s: %w", key, lastErr)
}

// Retry calls fn up to attempts times, pausing delay between attempts and
// giving up early when ctx ends.
func Retry[T any](ctx context.Context, attempts int, delay time.Duration, fn func(context.Context) (T, error)) (T, error) {
	var zero T
	var err error
	for i := 0; i < attempts; i++ {
		var v T
		if v, err = fn(ctx); err == nil {
			return v, nil
		}
		if i == attempts-1 {
			break
		}
		select {
		case <-ctx.Done():
			return zero, ctx.Err()
		case <-time.After(delay):
		}
	}
	return zero, err
}

// GetOrLoad reads key from its home replica, retrying briefly while the
// node is busy, and falls back to load on a miss.
func (c *Client) GetOrLoad(ctx context.Context, key string, load func(context.Context) ([]byte, error)) ([]byte, error) {
	v, err := Retry(ctx, 3, 50*time.Millisecond, func(ctx context.Context) ([]byte, error) {
		v, err := c.home(key).get(ctx, key)
		if errors.Is(err, ErrMiss) {
			return nil, nil // a miss is an answer, not a failure
		}
		return v, err
	})
	if err != nil || v != nil {
		return v, err
	}
	if v, ok := c.waitFill(ctx, key); ok {
		return v, nil
	}
	return load(ctx)
}

// Invalidate deletes key on its home replica, retrying twice.
func (c *Client) Invalidate(ctx context.Context, key string) error {
	attempts := 0
retry:
	err := c.home(key).del(ctx, key)
	if err != nil && !errors.Is(err, ErrMiss) && attempts < 2 {
		attempts++
		time.Sleep(50 * time.Millisecond)
		goto retry
	}
	if errors.Is(err, ErrMiss) {
		return nil
	}
	return err
}

// waitFill waits for another goroutine's in-flight fill of key, polling the
// local table with growing pauses.
func (c *Client) waitFill(ctx context.Context, key string) ([]byte, bool) {
	for d := time.Millisecond; ; d = min(d*2, 100*time.Millisecond) {
		if v, ok := c.local.Load(key); ok {
			return v.([]byte), true
		}
		select {
		case <-ctx.Done():
			return nil, false
		case <-time.After(d):
		}
	}
}

// cacheBudget is shared by every counter retry in the process.
var cacheBudget budget.Adaptive

// Incr increments a counter on the key's home replica.
func (c *Client) Incr(ctx context.Context, key string, delta int64) (n int64, err error) {
	r := c.home(key)
	for attempt := 0; attempt < 3; attempt++ {
		if attempt > 0 {
			if !cacheBudget.Allow() {
				break
			}
			pause := 20*time.Millisecond + rand.N(30*time.Millisecond)
			select {
			case <-ctx.Done():
				return 0, ctx.Err()
			case <-time.After(pause):
			}
		}
		n, err = r.incr(ctx, key, delta)
		cacheBudget.Record(err)
		if err == nil {
			return n, nil
		}
	}
	return 0, err
}
