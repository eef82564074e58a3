// Package deploy is the API client behind deployctl: it registers releases,
// uploads build artifacts and promotes them between environments.
package deploy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"

	"github.com/retrylint/retrylint/budget"
)

// maxAttempts is how many times a call to the deploy API is tried.
const maxAttempts = 4

// Client talks to the deploy API.
type Client struct {
	hc     *http.Client
	base   string
	token  string
	budget *budget.Adaptive // shared by every call to the deploy API
}

// NewClient returns a client for the API at base.
func NewClient(base, token string) *Client {
	return &Client{
		hc:     &http.Client{Timeout: 30 * time.Second},
		base:   strings.TrimRight(base, "/"),
		token:  token,
		budget: new(budget.Adaptive),
	}
}

// APIError is a non-2xx answer from the deploy API.
type APIError struct {
	Status int
	Body   string
}

func (e *APIError) Error() string { return fmt.Sprintf("deploy api: %d %s", e.Status, e.Body) }

// newRequest builds an authenticated request for path.
func (c *Client) newRequest(ctx context.Context, method, path string, body io.Reader) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, body)
	if err != nil {
		return nil, fmt.Errorf("build %s %s: %w", method, path, err)
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("User-Agent", "deployctl/1.4")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return req, nil
}

// checkResponse turns a non-2xx response into an *APIError.
func checkResponse(resp *http.Response) error {
	if resp.StatusCode < 300 {
		return nil
	}
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<10))
	return &APIError{Status: resp.StatusCode, Body: strings.TrimSpace(string(b))}
}

// retryable reports whether err is worth another attempt.
func retryable(err error) bool {
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		return apiErr.Status == http.StatusTooManyRequests || apiErr.Status >= 500
	}
	return !errors.Is(err, context.Canceled)
}

// jittered returns the full-jitter delay before retry n.
func jittered(n int) time.Duration {
	ceil := min(100*time.Millisecond<<n, 10*time.Second)
	return rand.N(ceil)
}

// Ping checks that the API answers.
func (c *Client) Ping(ctx context.Context) error {
	req, err := c.newRequest(ctx, http.MethodGet, "/healthz", nil)
	if err != nil {
		return err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	return checkResponse(resp)
}

// Warm opens a few keep-alive connections before a large upload. Errors
// are ignored: the upload reports its own.
func (c *Client) Warm(ctx context.Context) {
	for range 3 {
		req, err := c.newRequest(ctx, http.MethodHead, "/healthz", nil)
		if err != nil {
			return
		}
		if resp, err := c.hc.Do(req); err == nil {
			resp.Body.Close()
		}
	}
}
