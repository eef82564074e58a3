package storage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"
	"sync/atomic"
	"time"

	"example.com/holdouthttp/retryutil"
	"github.com/retrylint/retrylint/budget"
)

// HealthChecker probes the store and keeps the latest verdict.
type HealthChecker struct {
	URL      string
	Interval time.Duration
	Client   *http.Client

	healthy  atomic.Bool
	failures atomic.Int64
}

func (h *HealthChecker) probe(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, h.URL+"/healthz", nil)
	if err != nil {
		return err
	}
	resp, err := h.Client.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("healthz: HTTP %d", resp.StatusCode)
	}
	return nil
}

// Run probes every Interval until ctx is done.
func (h *HealthChecker) Run(ctx context.Context) {
	t := time.NewTicker(h.Interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		pctx, cancel := context.WithTimeout(ctx, h.Interval/2)
		err := h.probe(pctx)
		cancel()
		h.healthy.Store(err == nil)
		if err != nil {
			h.recordFailure()
			log.Printf("storage: health probe: %v", err)
		}
	}
}

// recordFailure bumps the failure counter, saturating at 1000.
func (h *HealthChecker) recordFailure() {
	for {
		n := h.failures.Load()
		if n >= 1000 {
			return
		}
		if h.failures.CompareAndSwap(n, n+1) {
			return
		}
	}
}

type clusterStatus struct {
	Ready bool   `json:"ready"`
	Phase string `json:"phase"`
}

// WaitReady polls the cluster status until it reports ready. A failed
// request is returned to the caller, not retried.
func (h *HealthChecker) WaitReady(ctx context.Context) error {
	interval := 500 * time.Millisecond
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, h.URL+"/status", nil)
		if err != nil {
			return err
		}
		resp, err := h.Client.Do(req)
		if err != nil {
			return fmt.Errorf("status: %w", err)
		}
		var st clusterStatus
		err = json.NewDecoder(resp.Body).Decode(&st)
		resp.Body.Close()
		if err != nil {
			return err
		}
		if st.Ready {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(interval):
		}
		interval = min(interval*2, 10*time.Second)
	}
}

// WaitForStore blocks at startup until the store answers its health check.
func WaitForStore(url string) error {
	client := &http.Client{}
	for attempt := 0; attempt < 10; attempt++ {
		resp, err := client.Get(url + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(budget.Jitter(time.Duration(attempt+1) * time.Second))
	}
	return errors.New("storage: store did not become healthy")
}

// PingUntil pings url until it answers or 30 s have passed.
func PingUntil(url string) error {
	deadline := time.Now().Add(30 * time.Second)
	var lastErr error
	for time.Now().Before(deadline) {
		resp, err := http.DefaultClient.Get(url)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		lastErr = err
		time.Sleep(500*time.Millisecond + budget.Jitter(500*time.Millisecond))
	}
	return fmt.Errorf("ping %s: %w", url, lastErr)
}

// WaitCompaction waits for a background compaction job through the
// shared polling helper.
func (h *HealthChecker) WaitCompaction(ctx context.Context, jobID string) error {
	return retryutil.Poll(ctx, time.Second, func() (bool, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, h.URL+"/jobs/"+jobID, nil)
		if err != nil {
			return false, err
		}
		resp, err := h.Client.Do(req)
		if err != nil {
			return false, err
		}
		defer resp.Body.Close()
		var st clusterStatus
		if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
			return false, err
		}
		return st.Phase == "done", nil
	})
}
