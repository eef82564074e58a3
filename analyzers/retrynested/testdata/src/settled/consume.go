package settled

import (
	"context"
	"net/http"
	"time"
)

func fetch(ctx context.Context, c *http.Client, url string) error {
	var err error
	for i := 0; i < 3; i++ {
		req, rerr := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if rerr != nil {
			return rerr
		}
		resp, derr := c.Do(req)
		if derr == nil {
			return resp.Body.Close()
		}
		err = derr
		time.Sleep(time.Duration(i+1) * time.Second)
	}
	return err
}

// A consume loop: continues on success, waits and calls again on error.
func watch(ctx context.Context, c *http.Client, url string) {
	for {
		if ctx.Err() != nil {
			return
		}
		if err := fetch(ctx, c, url); err != nil {
			time.Sleep(5 * time.Second)
			continue
		}
	}
}

// A retry of it is nested.
func fetchTwice(ctx context.Context, c *http.Client, url string) error {
	var err error
	for i := 0; i < 2; i++ { // want `retry loop retries a call that already retries`
		if err = fetch(ctx, c, url); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

type cache struct{ m map[string]string }

func (c *cache) load(k string) (string, bool) {
	for i := 0; i < 3; i++ {
		if v, ok := c.m[k]; ok {
			return v, true
		}
		time.Sleep(time.Millisecond)
	}
	return "", false
}

// Local work retried twice: no nesting to report.
func loadTwice(c *cache, k string) string {
	for i := 0; i < 2; i++ {
		if v, ok := c.load(k); ok {
			return v
		}
		time.Sleep(time.Millisecond)
	}
	return ""
}

// Store is declared here and implemented nowhere in this package: what
// its methods do is unknown.
type Store interface {
	Put(ctx context.Context, k, v string) error
}

func put(ctx context.Context, s Store, k, v string) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = s.Put(ctx, k, v); err == nil {
			return nil
		}
		time.Sleep(time.Duration(i+1) * time.Second)
	}
	return err
}

// Unknown work retried at two layers: not known to multiply load on a
// dependency, silent.
func putTwice(ctx context.Context, s Store, k, v string) error {
	var err error
	for i := 0; i < 2; i++ {
		if err = put(ctx, s, k, v); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
