// Package restyheldhelper: the condition asks a helper of the package,
// handed the request, whether it is a write: writes may be spared, so
// the POST is not judged.
package restyheldhelper

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
	c.resty.SetRetryCount(3).AddRetryCondition(retryable) // want `retrybudget: resty client retries with no retry budget`
	return c
}

func retryable(r *resty.Response, err error) bool {
	return !isWrite(r.Request) && (err != nil || r.StatusCode() >= 500)
}

func isWrite(req *resty.Request) bool {
	return req.Method == http.MethodPost || req.Method == http.MethodPatch
}

func (c *Client) R(ctx context.Context) *resty.Request {
	return c.resty.R().SetContext(ctx)
}

func (c *Client) Create(ctx context.Context, body any) error {
	_, err := c.R(ctx).SetBody(body).Post("/instances")
	return err
}
