package settled

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"
)

var errBusy = errors.New("busy")

// Local work retried at a fixed delay: nobody is hit.

func lockFile(name string) (*os.File, error) {
	for i := 0; i < 10; i++ {
		f, err := os.OpenFile(name, os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			return f, nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return nil, errBusy
}

func tryLock(mu *sync.Mutex) bool {
	for i := 0; i < 10; i++ {
		if mu.TryLock() {
			return true
		}
		time.Sleep(time.Millisecond)
	}
	return false
}

func casAdd(v *atomic.Int64, d int64) {
	for i := 0; i < 100; i++ {
		old := v.Load()
		if v.CompareAndSwap(old, old+d) {
			return
		}
		time.Sleep(time.Microsecond)
	}
}

type cache struct {
	mu sync.Mutex
	m  map[string]string
}

func (c *cache) get(k string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	if !ok {
		return "", errBusy
	}
	return v, nil
}

func lookup(c *cache, k string) (string, error) {
	var err error
	for i := 0; i < 5; i++ {
		var v string
		if v, err = c.get(k); err == nil {
			return v, nil
		}
		time.Sleep(10 * time.Millisecond)
	}
	return "", err
}

// Growing local retries: no jitter needed, nobody is hit.
func renameGrowing(from, to string) error {
	d := time.Millisecond
	var err error
	for i := 0; i < 5; i++ {
		if err = os.Rename(from, to); err == nil {
			return nil
		}
		time.Sleep(d)
		d *= 2
	}
	return err
}

// Unknown work: its delay is judged.

type Store interface {
	Put(ctx context.Context, k, v string) error
}

func putFixed(ctx context.Context, s Store, k, v string) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = s.Put(ctx, k, v); err == nil {
			return nil
		}
		time.Sleep(time.Second) // want `retry waits a fixed delay`
	}
	return err
}

func runFixed(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = exec.CommandContext(ctx, "git", "fetch").Run(); err == nil {
			return nil
		}
		time.Sleep(2 * time.Second) // want `retry waits a fixed delay`
	}
	return err
}

func callFixed(op func() error) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = op(); err == nil {
			return nil
		}
		time.Sleep(time.Second) // want `retry waits a fixed delay`
	}
	return err
}

// Remote work retried at a fixed delay.
func getFixed(c *http.Client, url string) (*http.Response, error) {
	var err error
	for i := 0; i < 3; i++ {
		resp, err2 := c.Get(url)
		if err2 == nil {
			return resp, nil
		}
		err = err2
		time.Sleep(time.Second) // want `retry waits a fixed delay`
	}
	return nil, err
}

// Unknown work retried at once: the loop surely waits nowhere.
func putAtOnce(ctx context.Context, s Store, k, v string) error {
	var err error
	for i := 0; i < 3; i++ { // want `retry loop retries at once`
		if err = s.Put(ctx, k, v); err == nil {
			return nil
		}
	}
	return err
}

type pacer struct {
	store Store
	pause func()
}

// A pause through a function value may wait anything: unknown, silent.
func (p *pacer) put(ctx context.Context, k, v string) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = p.store.Put(ctx, k, v); err == nil {
			return nil
		}
		p.pause()
	}
	return err
}

// Local work retried at once: nobody is hit.
func removeAtOnce(name string) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = os.Remove(name); err == nil || os.IsNotExist(err) {
			return nil
		}
	}
	return err
}

// A constant plus random jitter is not fixed.
func putJittered(ctx context.Context, s Store, k, v string) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = s.Put(ctx, k, v); err == nil {
			return nil
		}
		time.Sleep(time.Second + time.Duration(rand.Int64N(int64(time.Second))))
	}
	return err
}
