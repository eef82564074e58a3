package apiclient

import (
	"context"
	"crypto/rand"
	"net/http"
)

type Run struct{ ID string }

// Writes built in this package and sent by Do: one finding, at the
// client's construction (client.go), with each write as a related position.

func (c *Client) CreateRun(ctx context.Context, opts any) (*Run, error) {
	req, err := c.NewRequest("POST", "runs", opts) // related: POST request built here
	if err != nil {
		return nil, err
	}
	r := &Run{}
	if err := req.Do(ctx, r); err != nil {
		return nil, err
	}
	return r, nil
}

func (c *Client) UpdateRun(ctx context.Context, id string, opts any) (*Run, error) {
	req, err := c.NewRequest(http.MethodPatch, "runs/"+id, opts) // related: PATCH request built here
	if err != nil {
		return nil, err
	}
	r := &Run{}
	return r, req.Do(ctx, r)
}

func (c *Client) CreateRunFixed(ctx context.Context, opts any) error {
	req, err := c.NewCreate("runs", opts) // related: POST request built here
	if err != nil {
		return err
	}
	return req.Do(ctx, nil)
}

// Look-alikes.

// Idempotent methods.
func (c *Client) ReadRun(ctx context.Context, id string) (*Run, error) {
	req, err := c.NewRequest("GET", "runs/"+id, nil)
	if err != nil {
		return nil, err
	}
	r := &Run{}
	return r, req.Do(ctx, r)
}

func (c *Client) DeleteRun(ctx context.Context, id string) error {
	req, err := c.NewRequest(http.MethodDelete, "runs/"+id, nil)
	if err != nil {
		return err
	}
	return req.Do(ctx, nil)
}

// A key set by the caller, once for all the client's attempts.
func (c *Client) CreateRunKeyed(ctx context.Context, opts any) error {
	req, err := c.NewRequest("POST", "runs", opts)
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", rand.Text())
	return req.Do(ctx, nil)
}

// Headers touched some other way: cannot tell.
func (c *Client) CreateRunHeaders(ctx context.Context, opts any, h http.Header) error {
	req, err := c.NewRequest("POST", "runs", opts)
	if err != nil {
		return err
	}
	req.Header = h
	return req.Do(ctx, nil)
}

// Headers the caller hands over: cannot tell.
func (c *Client) CreateRunWith(ctx context.Context, h http.Header) error {
	req, err := c.NewRequestWithHeaders("POST", "runs", h)
	if err != nil {
		return err
	}
	return req.Do(ctx, nil)
}

// Sent once, without the retrying client.
func (c *Client) CreateRunOnce(ctx context.Context, opts any) error {
	req, err := c.NewRequest("POST", "runs", opts)
	if err != nil {
		return err
	}
	return req.Once(ctx)
}

// Built and never sent.
func (c *Client) Prepare(opts any) (*Request, error) {
	req, err := c.NewRequest("POST", "runs", opts)
	return req, err
}

// A method the caller passes on: unknown here.
func (c *Client) Send(ctx context.Context, method string) error {
	req, err := c.NewRequest(method, "runs", nil)
	if err != nil {
		return err
	}
	return req.Do(ctx, nil)
}

// The wrapper is handed to a helper first: it may set the key.
func (c *Client) CreateRunSigned(ctx context.Context, opts any) error {
	req, err := c.NewRequest("POST", "runs", opts)
	if err != nil {
		return err
	}
	sign(req)
	return req.Do(ctx, nil)
}

func sign(r *Request) { r.Header.Set("Idempotency-Key", rand.Text()) }

// A method of the wrapper sets the key.
func (c *Client) CreateRunKeyMethod(ctx context.Context, opts any) error {
	req, err := c.NewRequest("POST", "runs", opts)
	if err != nil {
		return err
	}
	req.SetKey(rand.Text())
	return req.Do(ctx, nil)
}

func (r *Request) SetKey(k string) { r.Header.Set("Idempotency-Key", k) }
