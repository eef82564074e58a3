package crawl

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"
)

type healthDoc struct {
	Status string `json:"status"`
}

// WaitHealthy polls url until it reports {"status":"ok"}, backing off from
// 100 ms to 5 s. Any transport error or non-200 answer ends the wait.
func WaitHealthy(ctx context.Context, hc *http.Client, url string) error {
	interval := 100 * time.Millisecond
	timer := time.NewTimer(interval)
	defer timer.Stop()
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		resp, err := hc.Do(req)
		if err != nil {
			return fmt.Errorf("health %s: %w", url, err)
		}
		var doc healthDoc
		err = json.NewDecoder(resp.Body).Decode(&doc)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || err != nil {
			return fmt.Errorf("health %s: status %d (%v)", url, resp.StatusCode, err)
		}
		if doc.Status == "ok" {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-timer.C:
		}
		interval = min(interval*2, 5*time.Second)
		timer.Reset(interval)
	}
}

// Target is one endpoint the prober watches.
type Target struct {
	Name string
	URL  string
}

// Result is the outcome of one probe.
type Result struct {
	Target  Target
	Healthy bool
	Err     error
	Took    time.Duration
}

// ProbeAll probes every target concurrently, once.
func ProbeAll(ctx context.Context, hc *http.Client, targets []Target) []Result {
	results := make([]Result, len(targets))
	var wg sync.WaitGroup
	for i, t := range targets {
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			err := probe(ctx, hc, t.URL)
			results[i] = Result{Target: t, Healthy: err == nil, Err: err, Took: time.Since(start)}
		}()
	}
	wg.Wait()
	return results
}

func probe(ctx context.Context, hc *http.Client, url string) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodHead, url, nil)
	if err != nil {
		return err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode >= 400 {
		return fmt.Errorf("status %d", resp.StatusCode)
	}
	return nil
}
