package coord

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/retrylint/retrylint/budget"
)

// Instance is one registered service instance.
type Instance struct {
	ID   string   `json:"ID"`
	Addr string   `json:"Address"`
	Port int      `json:"Port"`
	Tags []string `json:"Tags"`
}

// Discovery talks to the service registry agents.
type Discovery struct {
	endpoints []string // registry agents, tried in order
	hc        *http.Client

	mu    sync.RWMutex
	cache map[string][]Instance
}

// NewDiscovery returns a client for the given agents.
func NewDiscovery(endpoints []string) *Discovery {
	return &Discovery{
		endpoints: endpoints,
		hc:        &http.Client{Timeout: 5 * time.Second},
		cache:     map[string][]Instance{},
	}
}

// fetch asks each registry agent in turn for the healthy instances of svc.
func (d *Discovery) fetch(ctx context.Context, svc string) ([]Instance, error) {
	var lastErr error
	for _, ep := range d.endpoints {
		u := ep + "/v1/health/service/" + url.PathEscape(svc) + "?passing=1"
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		if err != nil {
			return nil, err
		}
		resp, err := d.hc.Do(req)
		if err != nil {
			lastErr = err
			continue // next agent
		}
		var out []Instance
		err = json.NewDecoder(resp.Body).Decode(&out)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			lastErr = fmt.Errorf("coord: %s: %s", ep, resp.Status)
			continue
		}
		if err != nil {
			lastErr = err
			continue
		}
		return out, nil
	}
	return nil, fmt.Errorf("coord: no registry agent answered: %w", lastErr)
}

// Lookup returns the cached instances of svc.
func (d *Discovery) Lookup(svc string) []Instance {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.cache[svc]
}

// Watch refreshes the instances of svc every interval until ctx ends. A
// failed refresh keeps the previous answer; the next tick tries again.
func (d *Discovery) Watch(ctx context.Context, svc string, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		insts, err := d.fetch(ctx, svc)
		if err != nil {
			log.Printf("coord: refresh %s: %v (keeping %d cached)", svc, err, len(d.Lookup(svc)))
		} else {
			d.mu.Lock()
			d.cache[svc] = insts
			d.mu.Unlock()
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// registryBudget is shared by every registry write in the process.
var registryBudget budget.Adaptive

// Register announces inst to the local agent; transient failures and 5xx
// are retried.
func (d *Discovery) Register(ctx context.Context, inst Instance) error {
	body, err := json.Marshal(inst)
	if err != nil {
		return err
	}
	seq := budget.Backoff{}.Start()
	for attempt := 0; attempt < 3; attempt++ {
		if attempt > 0 {
			if !registryBudget.Allow() {
				return errors.New("coord: register: retry budget exhausted")
			}
			if serr := budget.Sleep(ctx, seq.Next()); serr != nil {
				return serr
			}
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost,
			d.endpoints[0]+"/v1/agent/service/register", bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := d.hc.Do(req)
		registryBudget.Record(err)
		if err != nil {
			continue
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode < 500 {
			if resp.StatusCode >= 300 {
				return fmt.Errorf("coord: register %s: %s", inst.ID, resp.Status)
			}
			return nil
		}
	}
	return fmt.Errorf("coord: register %s: agent unavailable", inst.ID)
}

// Deregister removes the instance. PUT is idempotent, so resending is safe.
func (d *Discovery) Deregister(ctx context.Context, id string) (err error) {
	u := d.endpoints[0] + "/v1/agent/service/deregister/" + url.PathEscape(id)
	for attempt := 0; attempt < 3; attempt++ {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var req *http.Request
		req, err = http.NewRequestWithContext(ctx, http.MethodPut, u, nil)
		if err != nil {
			return err
		}
		var resp *http.Response
		resp, err = d.hc.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode < 500 {
				return nil
			}
			err = fmt.Errorf("coord: deregister %s: %s", id, resp.Status)
		}
		if !registryBudget.Allow() {
			break
		}
		time.Sleep(250 * time.Millisecond)
	}
	return err
}

// Resolver resolves service hostnames, retrying transient DNS failures
// (SERVFAIL while the cluster resolver restarts).
type Resolver struct {
	res *net.Resolver
}

// NewResolver uses the Go resolver.
func NewResolver() *Resolver { return &Resolver{res: &net.Resolver{PreferGo: true}} }

// Resolve looks host up, retrying temporary failures with a growing pause.
func (r *Resolver) Resolve(ctx context.Context, host string) (addrs []string, err error) {
	for attempt := 0; attempt < 3; attempt++ {
		addrs, err = r.res.LookupHost(ctx, host)
		var dnsErr *net.DNSError
		if err == nil || !errors.As(err, &dnsErr) || !dnsErr.IsTemporary {
			return addrs, err
		}
		time.Sleep(time.Duration(attempt+1) * 200 * time.Millisecond)
	}
	return nil, fmt.Errorf("coord: resolve %s: %w", host, err)
}

// DialAny dials the addresses of host in turn and returns the first
// connection that succeeds.
func (r *Resolver) DialAny(ctx context.Context, host, port string) (net.Conn, error) {
	addrs, err := r.Resolve(ctx, host)
	if err != nil {
		return nil, err
	}
	d := net.Dialer{Timeout: time.Second}
	var errs []error
	for _, a := range addrs {
		c, err := d.DialContext(ctx, "tcp", net.JoinHostPort(a, port))
		if err == nil {
			return c, nil
		}
		errs = append(errs, err)
	}
	return nil, errors.Join(errs...)
}
