package settled

import (
	"context"
	"net/http"
	"sync"
	"time"
)

// Fetcher is declared here and implemented here only by a type that
// sends HTTP: remote (SPEC, "Retries of local work").
type Fetcher interface {
	Fetch(ctx context.Context, url string) error
}

type httpFetcher struct{ c *http.Client }

func (f httpFetcher) Fetch(ctx context.Context, url string) error { return get(ctx, f.c, url) }

func fetchRetry(ctx context.Context, f Fetcher, url string) error {
	var err error
	for i := 0; i < 3; i++ { // want `retry loop has no retry budget`
		if err = f.Fetch(ctx, url); err == nil {
			return nil
		}
		time.Sleep(time.Duration(i+1) * time.Second)
	}
	return err
}

// Cache has a remote and an in-memory implementation here: unknown.
type Cache interface {
	Load(ctx context.Context, k string) error
}

type memCache struct {
	mu sync.Mutex
	m  map[string]bool
}

func (c *memCache) Load(_ context.Context, k string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.m[k] {
		return context.Canceled
	}
	return nil
}

type httpCache struct{ c *http.Client }

func (c httpCache) Load(ctx context.Context, k string) error { return get(ctx, c.c, k) }

func loadRetry(ctx context.Context, c Cache, k string) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = c.Load(ctx, k); err == nil {
			return nil
		}
		time.Sleep(time.Duration(i+1) * time.Second)
	}
	return err
}

// Locker has only an in-memory implementation here: not remote.
type Locker interface {
	TryLock(ctx context.Context) error
}

type memLocker struct{ mu sync.Mutex }

func (l *memLocker) TryLock(context.Context) error {
	if !l.mu.TryLock() {
		return context.Canceled
	}
	return nil
}

func lockRetry(ctx context.Context, l Locker) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = l.TryLock(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Duration(i+1) * time.Second)
	}
	return err
}

// Notifier is implemented nowhere in this package: unknown.
type Notifier interface {
	Notify(ctx context.Context, msg string) error
}

func notifyRetry(ctx context.Context, n Notifier, msg string) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = n.Notify(ctx, msg); err == nil {
			return nil
		}
		time.Sleep(time.Duration(i+1) * time.Second)
	}
	return err
}

var (
	_ Cache  = (*memCache)(nil)
	_ Cache  = httpCache{}
	_ Locker = (*memLocker)(nil)
)
