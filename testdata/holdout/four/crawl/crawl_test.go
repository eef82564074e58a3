package crawl

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestFetchHonoursRetryAfter(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		fmt.Fprint(w, `<a href="/next">next</a>`)
	}))
	defer srv.Close()
	c := NewCrawler(time.Millisecond, 10)
	body, err := c.fetch(context.Background(), srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if len(body) == 0 || calls.Load() != 2 {
		t.Fatalf("body %q after %d calls", body, calls.Load())
	}
}

func TestCrawl(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<a href="/a">a</a><a href="/b">b</a>`)
	})
	mux.HandleFunc("/a", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, `<a href="/">home</a>`) })
	mux.HandleFunc("/b", func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) })
	srv := httptest.NewServer(mux)
	defer srv.Close()
	c := NewCrawler(time.Millisecond, 10)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	pages, err := c.Crawl(ctx, []string{srv.URL + "/"})
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) != 3 || pages[srv.URL+"/b"] != nil {
		t.Fatalf("pages: %d", len(pages))
	}
}

func TestWaitHealthy(t *testing.T) {
	var polls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if polls.Add(1) < 3 {
			fmt.Fprint(w, `{"status":"starting"}`)
			return
		}
		fmt.Fprint(w, `{"status":"ok"}`)
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := WaitHealthy(ctx, srv.Client(), srv.URL); err != nil {
		t.Fatal(err)
	}
}

type mapCache struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (c *mapCache) Set(k string, v []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[k] = v
}

func TestWarm(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "v"+r.URL.Path)
	}))
	defer srv.Close()
	cache := &mapCache{m: map[string][]byte{}}
	w := &Warmer{HC: srv.Client(), Origin: srv.URL, Cache: cache, Workers: 4}
	keys := strings.Fields("k0 k1 k2 k3 k4 k5 k6 k7 k8 k9 k10 k11 k12 k13 k14 k15 k16 k17 k18 k19")
	if failed := w.Warm(context.Background(), keys); failed != 0 {
		t.Fatalf("%d failed", failed)
	}
	if len(cache.m) != 20 {
		t.Fatalf("%d keys cached", len(cache.m))
	}
}
