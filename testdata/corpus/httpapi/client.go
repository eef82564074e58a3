// Package httpapi is a REST client in the shape of the consul, stripe and
// cloud storage clients: a base URL, a shared *http.Client, JSON bodies.
package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/retrylint/retrylint/budget"
)

// Config holds the tunables a caller can set.
type Config struct {
	RetryDelay time.Duration
	Backoff    func(attempt int) time.Duration
}

// Client talks to one service.
type Client struct {
	base      string
	endpoints []string
	hc        *http.Client
	cfg       Config
	retries   *budget.Adaptive
	backoff   budget.Backoff
}

// User is a user record.
type User struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Job is a long-running server-side job.
type Job struct {
	ID    string `json:"id"`
	State string `json:"state"`
}

var errStatus = errors.New("httpapi: unexpected status")

func decode(resp *http.Response, v any) error {
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("%w: %s", errStatus, resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(v)
}

// GetUser retries 5xx answers four times, half a second apart.
func (c *Client) GetUser(ctx context.Context, id string) (*User, error) {
	var lastErr error
	for attempt := 0; attempt < 4; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/v1/users/"+url.PathEscape(id), nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.hc.Do(req)
		if err == nil && resp.StatusCode < 500 {
			var u User
			return &u, decode(resp, &u)
		}
		if err == nil {
			resp.Body.Close()
			err = fmt.Errorf("%w: %s", errStatus, resp.Status)
		}
		lastErr = err
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
	return nil, lastErr
}

// FetchConfig downloads a bootstrap config with the default client,
// doubling the wait after each failure.
func FetchConfig(u string) ([]byte, error) {
	delay := 100 * time.Millisecond
	var lastErr error
	for attempt := 0; attempt < 5; attempt++ {
		resp, err := http.Get(u)
		if err == nil {
			defer resp.Body.Close()
			return io.ReadAll(resp.Body)
		}
		lastErr = err
		time.Sleep(delay)
		delay *= 2
	}
	return nil, lastErr
}

// Lock acquires a session lock (consul KV acquire shape).
func (c *Client) Lock(key, session string) error {
	ctx := context.Background()
	for attempt := 0; attempt < 6; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPut, c.base+"/v1/kv/"+key+"?acquire="+session, nil)
		if err != nil {
			return err
		}
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			var ok bool
			derr := decode(resp, &ok)
			if derr == nil && ok {
				return nil
			}
		}
		time.Sleep(time.Duration(1<<attempt) * 10 * time.Millisecond)
	}
	return errors.New("httpapi: lock not acquired")
}

// PatchProfile retries throttled and failed PATCHes.
func (c *Client) PatchProfile(ctx context.Context, id string, patch []byte) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPatch, c.base+"/v1/users/"+id, bytes.NewReader(patch))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/merge-patch+json")
		resp, err := c.hc.Do(req)
		if err != nil {
			return err
		}
		if resp.StatusCode < 500 && resp.StatusCode != http.StatusTooManyRequests {
			return decode(resp, nil)
		}
		resp.Body.Close()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return errStatus
}

// fetchWithRetry calls itself with one attempt less after a failure.
func (c *Client) fetchWithRetry(ctx context.Context, u string, left int) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		if left > 0 {
			time.Sleep(time.Second)
			return c.fetchWithRetry(ctx, u, left-1)
		}
		return nil, err
	}
	defer resp.Body.Close()
	return io.ReadAll(resp.Body)
}

func (c *Client) tryAcquire(ctx context.Context, key string) bool {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, c.base+"/v1/locks/"+key, nil)
	if err != nil {
		return false
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// TryLock spins on a remote lock, 50ms apart.
func (c *Client) TryLock(ctx context.Context, key string) error {
	acquired := false
	for i := 0; i < 10 && !acquired; i++ {
		acquired = c.tryAcquire(ctx, key)
		if !acquired {
			time.Sleep(50 * time.Millisecond)
		}
	}
	if !acquired {
		return errors.New("httpapi: lock busy")
	}
	return nil
}

// GetWithFailover tries each endpoint once (failover by index).
func (c *Client) GetWithFailover(ctx context.Context, path string) ([]byte, error) {
	var lastErr error
	for i := 0; i < len(c.endpoints); i++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.endpoints[i]+path, nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.hc.Do(req)
		if err != nil {
			lastErr = err
			continue
		}
		defer resp.Body.Close()
		return io.ReadAll(resp.Body)
	}
	return nil, lastErr
}

type page struct {
	Items []User `json:"items"`
	Next  string `json:"next_page_token"`
}

// ListAll follows page tokens until the last page.
func (c *Client) ListAll(ctx context.Context) ([]User, error) {
	var all []User
	token := ""
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/v1/users?page_token="+url.QueryEscape(token), nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.hc.Do(req)
		if err != nil {
			return nil, err
		}
		var p page
		if err := decode(resp, &p); err != nil {
			return nil, err
		}
		all = append(all, p.Items...)
		if p.Next == "" {
			return all, nil
		}
		token = p.Next
	}
}

// GetDocument is a well-behaved retry: budget, full jitter, the caller's
// context, three attempts.
func (c *Client) GetDocument(ctx context.Context, id string) ([]byte, error) {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		if attempt > 0 {
			if !c.retries.Allow() {
				break
			}
			if err := budget.Sleep(ctx, c.backoff.Delay(attempt-1)); err != nil {
				return nil, err
			}
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/v1/docs/"+id, nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.hc.Do(req)
		c.retries.Record(err)
		if err != nil {
			lastErr = err
			continue
		}
		defer resp.Body.Close()
		return io.ReadAll(resp.Body)
	}
	return nil, lastErr
}

func (c *Client) job(ctx context.Context, id string) (*Job, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/v1/jobs/"+id, nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	var j Job
	return &j, decode(resp, &j)
}

// WaitForJob polls a job every two seconds until it is done; an error
// ends the wait.
func (c *Client) WaitForJob(ctx context.Context, id string) (*Job, error) {
	for {
		j, err := c.job(ctx, id)
		if err != nil {
			return nil, err
		}
		if j.State == "DONE" {
			return j, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(2 * time.Second):
		}
	}
}

// WaitForExport polls with a growing interval (long-running operation
// shape of the cloud SDKs).
func (c *Client) WaitForExport(ctx context.Context, id string) (*Job, error) {
	interval := time.Second
	for {
		j, err := c.job(ctx, id)
		if err != nil {
			return nil, err
		}
		if j.State == "DONE" || j.State == "FAILED" {
			return j, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(interval):
		}
		interval = min(interval*2, time.Minute)
	}
}

// GetQuota waits as long as the server asks on 429 and 503.
func (c *Client) GetQuota(ctx context.Context) ([]byte, error) {
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/v1/quota", nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.hc.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusServiceUnavailable {
			defer resp.Body.Close()
			return io.ReadAll(resp.Body)
		}
		resp.Body.Close()
		if !c.retries.Allow() {
			break
		}
		secs, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
		wait := time.Duration(secs) * time.Second
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(wait):
		}
	}
	return nil, errStatus
}

// GetConfigured waits the delay the caller configured.
func (c *Client) GetConfigured(ctx context.Context, path string) ([]byte, error) {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+path, nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.hc.Do(req)
		if err == nil {
			defer resp.Body.Close()
			return io.ReadAll(resp.Body)
		}
		lastErr = err
		if !c.retries.Allow() {
			break
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(c.cfg.RetryDelay):
		}
	}
	return nil, lastErr
}

// GetWithPolicy asks a caller-supplied function for each delay.
func (c *Client) GetWithPolicy(ctx context.Context, path string) ([]byte, error) {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+path, nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.hc.Do(req)
		if err == nil {
			defer resp.Body.Close()
			return io.ReadAll(resp.Body)
		}
		lastErr = err
		if !c.retries.Allow() {
			break
		}
		if err := budget.Sleep(ctx, c.cfg.Backoff(attempt)); err != nil {
			return nil, err
		}
	}
	return nil, lastErr
}

// GetBlob retries gateway errors chosen by a switch on the status code.
func (c *Client) GetBlob(ctx context.Context, name string) ([]byte, error) {
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/v1/blobs/"+name, nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.hc.Do(req)
		if err != nil {
			return nil, err
		}
		switch resp.StatusCode {
		case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
			resp.Body.Close()
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(time.Second):
			}
			continue
		}
		defer resp.Body.Close()
		return io.ReadAll(resp.Body)
	}
	return nil, errStatus
}

// Rotating is a client that moves to the next server after a failure
// (the server-pool shape of nats.go and the consul agent list).
type Rotating struct {
	servers []string
	cur     int
	hc      *http.Client
}

// Get asks each server at most once, advancing the cursor on failure.
func (r *Rotating) Get(path string) ([]byte, error) {
	var lastErr error
	for attempt := 0; attempt < len(r.servers); attempt++ {
		resp, err := r.hc.Get(r.servers[r.cur] + path)
		if err == nil {
			defer resp.Body.Close()
			return io.ReadAll(resp.Body)
		}
		lastErr = err
		r.cur = (r.cur + 1) % len(r.servers)
	}
	return nil, lastErr
}

// GetAuthed refreshes its bearer token after each failure and retries
// the same request with the new token, a second apart.
func (c *Client) GetAuthed(ctx context.Context, path string, token string) ([]byte, error) {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+path, nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := c.hc.Do(req)
		if err == nil {
			defer resp.Body.Close()
			return io.ReadAll(resp.Body)
		}
		lastErr = err
		token = c.refreshToken(ctx, token)
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return nil, lastErr
}

func (c *Client) refreshToken(ctx context.Context, old string) string {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, c.base+"/v1/token", nil)
	if err != nil {
		return old
	}
	var fresh struct {
		Token string `json:"token"`
	}
	resp, err := c.hc.Do(req)
	if err != nil || decode(resp, &fresh) != nil {
		return old
	}
	return fresh.Token
}

// resend re-sends a clone of the same request after a failure.
func (c *Client) resend(ctx context.Context, req *http.Request) (*http.Response, error) {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		resp, err := c.hc.Do(req)
		if err == nil {
			return resp, nil
		}
		lastErr = err
		req = req.Clone(ctx)
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return nil, lastErr
}
