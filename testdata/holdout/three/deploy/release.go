package deploy

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/retrylint/retrylint/budget"
)

// ReleaseSpec describes a release to create.
type ReleaseSpec struct {
	App     string            `json:"app"`
	Version string            `json:"version"`
	Labels  map[string]string `json:"labels,omitempty"`
}

// Release is a release as the API lists it.
type Release struct {
	ID      string `json:"id"`
	Version string `json:"version"`
	Phase   string `json:"phase"`
}

// CreateRelease registers a new release and returns its id.
func (c *Client) CreateRelease(ctx context.Context, spec ReleaseSpec) (id string, err error) {
	body, err := json.Marshal(spec)
	if err != nil {
		return "", err
	}
	for attempt := 1; attempt <= maxAttempts; attempt++ {
		var req *http.Request
		req, err = c.newRequest(ctx, http.MethodPost, "/v1/releases", bytes.NewReader(body))
		if err != nil {
			return "", err
		}
		var resp *http.Response
		resp, err = c.hc.Do(req)
		if err == nil {
			err = checkResponse(resp)
			if err == nil {
				var out struct {
					ID string `json:"id"`
				}
				err = json.NewDecoder(resp.Body).Decode(&out)
				resp.Body.Close()
				return out.ID, err
			}
			resp.Body.Close()
		}
		if !retryable(err) {
			return "", err
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(jittered(attempt)):
		}
	}
	return "", fmt.Errorf("create release %s: %w", spec.Version, err)
}

// Promote moves a release to env.
func (c *Client) Promote(ctx context.Context, releaseID, env string) error {
	payload := fmt.Sprintf(`{"environment":%q}`, env)
	seq := budget.Backoff{}.Start()
	var lastErr error
	for attempt := 0; attempt < maxAttempts; attempt++ {
		if attempt > 0 {
			if !c.budget.Allow() {
				return fmt.Errorf("promote %s: retry budget exhausted: %w", releaseID, lastErr)
			}
			if err := budget.Sleep(ctx, seq.Next()); err != nil {
				return err
			}
		}
		req, err := c.newRequest(ctx, http.MethodPost, "/v1/releases/"+releaseID+"/promote", strings.NewReader(payload))
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", budget.NewIdempotencyKey())
		resp, err := c.hc.Do(req)
		if err == nil {
			err = checkResponse(resp)
			resp.Body.Close()
		}
		c.budget.Record(err)
		if err == nil {
			return nil
		}
		if !retryable(err) {
			return err
		}
		lastErr = err
	}
	return fmt.Errorf("promote %s: %w", releaseID, lastErr)
}

// SetReplicas scales a deployment with a merge patch.
func (c *Client) SetReplicas(ctx context.Context, deployment string, replicas int) error {
	patch := fmt.Sprintf(`{"spec":{"replicas":%d}}`, replicas)
	key := budget.NewIdempotencyKey() // same key for every attempt
	var err error
	for attempt := range maxAttempts {
		if attempt > 0 {
			if !c.budget.Allow() {
				break
			}
			if err := budget.Sleep(ctx, jittered(attempt)); err != nil {
				return err
			}
		}
		var req *http.Request
		if req, err = c.newRequest(ctx, http.MethodPatch, "/v1/deployments/"+deployment, strings.NewReader(patch)); err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/merge-patch+json")
		req.Header.Set(budget.IdempotencyKeyHeader, key)
		var resp *http.Response
		if resp, err = c.hc.Do(req); err == nil {
			err = checkResponse(resp)
			resp.Body.Close()
		}
		c.budget.Record(err)
		if err == nil || !retryable(err) {
			return err
		}
	}
	return fmt.Errorf("scale %s: %w", deployment, err)
}

// ListReleases pages through every release.
func (c *Client) ListReleases(ctx context.Context) ([]Release, error) {
	var all []Release
	path := "/v1/releases?limit=100"
	for path != "" {
		req, err := c.newRequest(ctx, http.MethodGet, path, nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.hc.Do(req)
		if err != nil {
			return nil, fmt.Errorf("list releases: %w", err)
		}
		var page struct {
			Items []Release `json:"items"`
			Next  string    `json:"next"`
		}
		err = checkResponse(resp)
		if err == nil {
			err = json.NewDecoder(resp.Body).Decode(&page)
		}
		resp.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("list releases: %w", err)
		}
		all = append(all, page.Items...)
		path = page.Next
	}
	return all, nil
}

type rolloutStatus struct {
	Phase   string `json:"phase"`
	Message string `json:"message"`
}

func (c *Client) rolloutStatus(ctx context.Context, releaseID string) (rolloutStatus, error) {
	var st rolloutStatus
	req, err := c.newRequest(ctx, http.MethodGet, "/v1/releases/"+releaseID+"/rollout", nil)
	if err != nil {
		return st, err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return st, err
	}
	defer resp.Body.Close()
	if err := checkResponse(resp); err != nil {
		return st, err
	}
	err = json.NewDecoder(resp.Body).Decode(&st)
	return st, err
}

// WaitForRollout polls the rollout until it settles, backing off as it
// goes. A failed status call ends the wait.
func (c *Client) WaitForRollout(ctx context.Context, releaseID string) error {
	interval := 500 * time.Millisecond
	for {
		st, err := c.rolloutStatus(ctx, releaseID)
		if err != nil {
			return fmt.Errorf("rollout %s: %w", releaseID, err)
		}
		switch st.Phase {
		case "Succeeded":
			return nil
		case "Failed":
			return fmt.Errorf("rollout %s failed: %s", releaseID, st.Message)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(interval):
		}
		interval = min(interval*2, 15*time.Second)
	}
}

// FetchManifest downloads the rendered manifest of a release, honouring
// Retry-After when the API sheds load.
func (c *Client) FetchManifest(ctx context.Context, releaseID string) (m []byte, err error) {
	var resp *http.Response
attempts:
	for attempt := 0; attempt < maxAttempts; attempt++ {
		req, err := c.newRequest(ctx, http.MethodGet, "/v1/releases/"+releaseID+"/manifest", nil)
		if err != nil {
			return nil, err
		}
		resp, err = c.hc.Do(req)
		wait := jittered(attempt)
		switch {
		case err != nil:
			// transport error: try again
		case resp.StatusCode == http.StatusOK:
			break attempts
		case resp.StatusCode == http.StatusTooManyRequests, resp.StatusCode == http.StatusServiceUnavailable:
			if s, perr := strconv.Atoi(resp.Header.Get("Retry-After")); perr == nil {
				wait = time.Duration(s) * time.Second
			}
			resp.Body.Close()
		case resp.StatusCode >= 500:
			resp.Body.Close()
		default:
			defer resp.Body.Close()
			return nil, checkResponse(resp)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(wait):
		}
	}
	if resp == nil || resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("manifest %s: retries exhausted", releaseID)
	}
	defer resp.Body.Close()
	return io.ReadAll(resp.Body)
}
