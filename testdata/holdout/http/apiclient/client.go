// Package apiclient is a JSON REST client for the accounts service.
package apiclient

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/retrylint/retrylint/budget"
)

// APIError is a non-2xx answer.
type APIError struct {
	StatusCode int
	RetryAfter time.Duration
	Message    string
}

func (e *APIError) Error() string {
	return fmt.Sprintf("api: HTTP %d: %s", e.StatusCode, e.Message)
}

// Temporary reports whether the request may succeed if sent again.
func (e *APIError) Temporary() bool {
	return e.StatusCode == http.StatusTooManyRequests || e.StatusCode >= 500
}

// Client is a JSON REST client.
type Client struct {
	BaseURL string
	HTTP    *http.Client
	Tokens  *TokenSource

	budget budget.Adaptive
}

func parseRetryAfter(h string) time.Duration {
	if h == "" {
		return 0
	}
	if secs, err := strconv.Atoi(h); err == nil {
		return time.Duration(secs) * time.Second
	}
	if t, err := http.ParseTime(h); err == nil {
		return time.Until(t)
	}
	return 0
}

func (c *Client) do(ctx context.Context, method, path string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.BaseURL+path, body)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<12))
		return &APIError{
			StatusCode: resp.StatusCode,
			RetryAfter: parseRetryAfter(resp.Header.Get("Retry-After")),
			Message:    string(msg),
		}
	}
	if out == nil {
		return nil
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

func (c *Client) getJSON(ctx context.Context, path string, out any) error {
	return c.do(ctx, http.MethodGet, path, nil, out)
}

func (c *Client) postJSON(ctx context.Context, path string, in, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.BaseURL+path, nil)
	if err != nil {
		return err
	}
	b, err := json.Marshal(in)
	if err != nil {
		return err
	}
	req.Body = io.NopCloser(bytes.NewReader(b))
	req.ContentLength = int64(len(b))
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return &APIError{StatusCode: resp.StatusCode, RetryAfter: parseRetryAfter(resp.Header.Get("Retry-After"))}
	}
	if out == nil {
		return nil
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// User is an account holder.
type User struct {
	ID    string `json:"id"`
	Email string `json:"email"`
}

// ListUsers pages through every user, 100 at a time.
func (c *Client) ListUsers(ctx context.Context) ([]User, error) {
	var users []User
	for page := 1; ; page++ {
		var batch []User
		if err := c.getJSON(ctx, "/v2/users?per_page=100&page="+strconv.Itoa(page), &batch); err != nil {
			return nil, fmt.Errorf("list users, page %d: %w", page, err)
		}
		users = append(users, batch...)
		if len(batch) < 100 {
			break
		}
	}
	return users, nil
}

// GetUser reads one user, honouring the server's Retry-After on 429.
func (c *Client) GetUser(ctx context.Context, id string) (u User, err error) {
	seq := budget.Backoff{}.Start()
	for attempt := 0; attempt < 3; attempt++ {
		err = c.getJSON(ctx, "/v2/users/"+id, &u)
		c.budget.Record(err)
		if err == nil {
			return u, nil
		}
		var apiErr *APIError
		if errors.As(err, &apiErr) && !apiErr.Temporary() {
			return u, err
		}
		if !c.budget.Allow() {
			return u, err
		}
		wait := seq.Next()
		if apiErr != nil && apiErr.RetryAfter > 0 {
			// The server told us when to come back.
			wait = apiErr.RetryAfter
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return u, ctx.Err()
		case <-t.C:
		}
	}
	return u, err
}

// GetUserQuota reads a user's quota; on 429 it waits exactly as long as the
// server asked.
func (c *Client) GetUserQuota(ctx context.Context, id string) (quota int64, err error) {
	for attempt := 0; attempt < 3; attempt++ {
		err = c.getJSON(ctx, "/v2/users/"+id+"/quota", &quota)
		var apiErr *APIError
		if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusTooManyRequests {
			return quota, err
		}
		if !c.budget.Allow() {
			return quota, err
		}
		if err := budget.Sleep(ctx, apiErr.RetryAfter); err != nil {
			return quota, err
		}
	}
	return quota, err
}

// CreateUser creates a user.
func (c *Client) CreateUser(ctx context.Context, in User) (out User, err error) {
	seq := budget.Backoff{}.Start()
	for attempt := 0; attempt < 3; attempt++ {
		if attempt > 0 {
			if !c.budget.Allow() {
				break
			}
			if err := budget.Sleep(ctx, seq.Next()); err != nil {
				return out, err
			}
		}
		err = c.postJSON(ctx, "/v2/users", in, &out)
		c.budget.Record(err)
		if err == nil {
			return out, nil
		}
	}
	return out, err
}

// fetchWithRetry reads path into out, trying again up to attemptsLeft-1
// more times on error.
func (c *Client) fetchWithRetry(ctx context.Context, path string, out any, attemptsLeft int) error {
	err := c.getJSON(ctx, path, out)
	if err != nil && attemptsLeft > 1 {
		time.Sleep(time.Second)
		return c.fetchWithRetry(ctx, path, out, attemptsLeft-1)
	}
	return err
}

// Settings reads the account settings.
func (c *Client) Settings(ctx context.Context) (map[string]string, error) {
	var s map[string]string
	err := c.fetchWithRetry(ctx, "/v2/settings", &s, 3)
	return s, err
}

// ExportUsers streams the NDJSON export, one user per line.
func (c *Client) ExportUsers(ctx context.Context, fn func(User) error) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.BaseURL+"/v2/users/export", nil)
	if err != nil {
		return err
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		var u User
		if err := json.Unmarshal(sc.Bytes(), &u); err != nil {
			return fmt.Errorf("export: %w", err)
		}
		if err := fn(u); err != nil {
			return err
		}
	}
	return sc.Err()
}

// readChunks copies r to w in 32 KiB chunks, counting bytes.
func readChunks(r io.Reader, w io.Writer) (n int64, err error) {
	buf := make([]byte, 32<<10)
	for {
		m, rerr := r.Read(buf)
		if m > 0 {
			if _, werr := w.Write(buf[:m]); werr != nil {
				return n, werr
			}
			n += int64(m)
		}
		if rerr == io.EOF {
			return n, nil
		}
		if rerr != nil {
			return n, rerr
		}
	}
}
