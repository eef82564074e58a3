// Package restyheldmethod: the same SDK shape, but a retry condition of
// the package reads the request's method: writes may be spared, so the
// POST is not judged.
package restyheldmethod

import (
	"context"
	"net/http"

	"github.com/go-resty/resty/v2"
)

type Client struct {
	resty *resty.Client
}

func NewClient() *Client {
	c := &Client{resty: resty.New()}
	c.resty.SetRetryCount(3).AddRetryCondition(idempotentOnly) // want `retrybudget: resty client retries with no retry budget`
	return c
}

func idempotentOnly(r *resty.Response, err error) bool {
	if r.Request.Method == http.MethodPost {
		return false
	}
	return err != nil || r.StatusCode() >= 500
}

func (c *Client) R(ctx context.Context) *resty.Request {
	return c.resty.R().SetContext(ctx)
}

func (c *Client) Create(ctx context.Context, body any) error {
	_, err := c.R(ctx).SetBody(body).Post("/instances")
	return err
}
