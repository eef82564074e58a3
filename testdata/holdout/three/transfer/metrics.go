package transfer

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"math/rand/v2"
	"net/http"
	"time"
)

// Pusher pushes metrics to a Prometheus pushgateway.
type Pusher struct {
	hc       *http.Client
	url      string
	job      string
	interval time.Duration
	collect  func() []byte // samples in the text exposition format
	log      *log.Logger
}

func (p *Pusher) send(ctx context.Context, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.url+"/metrics/job/"+p.job, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "text/plain; version=0.0.4")
	resp, err := p.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("pushgateway: %s", resp.Status)
	}
	return nil
}

// Push sends one exposition body, trying up to three times.
func (p *Pusher) Push(ctx context.Context, body []byte) error {
	var err error
	for i := 0; ; i++ {
		if err = p.send(ctx, body); err == nil {
			return nil
		}
		if i >= 2 {
			return fmt.Errorf("push %d bytes after %d attempts: %w", len(body), i+1, err)
		}
		time.Sleep(500*time.Millisecond + time.Duration(rand.Int64N(int64(500*time.Millisecond))))
	}
}

// Run pushes a fresh collection every interval until ctx ends. A failed
// push is logged; the next tick pushes newer samples anyway.
func (p *Pusher) Run(ctx context.Context) error {
	ticker := time.NewTicker(p.interval)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ticker.C:
		}
		if err := p.Push(ctx, p.collect()); err != nil {
			p.log.Printf("push metrics: %v", err)
		}
	}
}
