package crawl

import (
	"context"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"
)

// Cache is the store being warmed.
type Cache interface {
	Set(key string, value []byte)
}

// Warmer preloads hot keys from the origin into the cache after a deploy.
type Warmer struct {
	HC      *http.Client
	Origin  string
	Cache   Cache
	Workers int
}

// Warm loads every key, Workers at a time.
func (w *Warmer) Warm(ctx context.Context, keys []string) (failed int) {
	jobs := make(chan string)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := 0; i < w.Workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range jobs {
				if err := w.warmOne(ctx, k); err != nil {
					log.Printf("warm %s: %v", k, err)
					mu.Lock()
					failed++
					mu.Unlock()
				}
			}
		}()
	}
feed:
	for _, k := range keys {
		select {
		case jobs <- k:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	return failed
}

func (w *Warmer) warmOne(ctx context.Context, key string) error {
	var err error
	for attempt := 1; attempt <= 3; attempt++ {
		var v []byte
		v, err = w.fetchOrigin(ctx, key)
		if err == nil {
			w.Cache.Set(key, v)
			return nil
		}
		time.Sleep(200*time.Millisecond + rand.N(100*time.Millisecond))
	}
	return fmt.Errorf("origin %s: %w", key, err)
}

func (w *Warmer) fetchOrigin(ctx context.Context, key string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, w.Origin+"/"+key, nil)
	if err != nil {
		return nil, err
	}
	resp, err := w.HC.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("status %d", resp.StatusCode)
	}
	return io.ReadAll(resp.Body)
}
