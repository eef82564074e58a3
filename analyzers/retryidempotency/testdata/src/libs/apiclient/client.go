// Package apiclient is an API client in the shape many are written in: a
// builder of request wrappers and a Do method on the wrapper that sends
// through a retryablehttp client the constructor configured.
package apiclient

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

type Client struct {
	http    *retryablehttp.Client
	headers http.Header
	token   string
}

func NewClient(token string) *Client {
	c := &Client{token: token, headers: http.Header{}}
	c.http = &retryablehttp.Client{ // want `retrying client re-sends writes \(PATCH, POST\) without an idempotency key at 3 request sites`
		Backoff:      retryablehttp.LinearJitterBackoff,
		CheckRetry:   c.checkRetry,
		HTTPClient:   &http.Client{Timeout: 30 * time.Second},
		RetryWaitMin: 100 * time.Millisecond,
		RetryWaitMax: time.Second,
		RetryMax:     10,
	}
	return c
}

// checkRetry retries rate limits and server errors whatever the method.
func (c *Client) checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	if err != nil {
		return true, err
	}
	return resp.StatusCode == 429 || resp.StatusCode >= 500, nil
}

// Request is a request ready to be sent.
type Request struct {
	req    *retryablehttp.Request
	http   *retryablehttp.Client
	Header http.Header
}

// NewRequest builds a request; the method is the caller's.
func (c *Client) NewRequest(method, path string, body any) (*Request, error) {
	return c.newRequest(method, path, body)
}

func (c *Client) newRequest(method, path string, body any) (*Request, error) {
	var buf bytes.Buffer
	if body != nil {
		if err := json.NewEncoder(&buf).Encode(body); err != nil {
			return nil, err
		}
	}
	req, err := retryablehttp.NewRequest(method, "https://api.example.com/"+path, buf.Bytes())
	if err != nil {
		return nil, err
	}
	h := make(http.Header)
	h.Set("Authorization", "Bearer "+c.token)
	h.Set("Content-Type", "application/json")
	for k, v := range c.headers {
		req.Header[k] = v
	}
	for k, v := range h {
		req.Header[k] = v
	}
	return &Request{req: req, http: c.http, Header: req.Header}, nil
}

// NewCreate builds a POST of its own.
func (c *Client) NewCreate(path string, body any) (*Request, error) {
	return c.newRequest(http.MethodPost, path, body)
}

// NewRequestWithHeaders copies headers the caller gives: what they hold
// cannot be seen.
func (c *Client) NewRequestWithHeaders(method, path string, h http.Header) (*Request, error) {
	req, err := retryablehttp.NewRequest(method, "https://api.example.com/"+path, nil)
	if err != nil {
		return nil, err
	}
	for k, v := range h {
		req.Header[k] = v
	}
	return &Request{req: req, http: c.http, Header: req.Header}, nil
}

// Do sends the request, retried by the client.
func (r *Request) Do(ctx context.Context, v any) error { // related: the requests are re-sent through Do here
	resp, err := r.http.Do(r.req.WithContext(ctx))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if v == nil {
		return nil
	}
	return json.NewDecoder(resp.Body).Decode(v)
}

// Once sends the request with a plain client: no retry.
func (r *Request) Once(ctx context.Context) error {
	resp, err := http.DefaultClient.Do(r.req.Request.WithContext(ctx))
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
