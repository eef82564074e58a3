// Package client retries a send four times around a transport that
// retries three times itself.
package client

import (
	"net/http"
	"time"

	"example.com/nested/transport"
)

type Client struct{ T *transport.T }

// Send makes up to 4 attempts, each up to 3 in the transport.
func (c *Client) Send(req *http.Request) error {
	var err error
	for i := 1; i <= 4; i++ {
		if _, err = c.T.RoundTrip(req); err == nil {
			return nil
		}
		time.Sleep(time.Duration(i) * 100 * time.Millisecond)
	}
	return err
}

// Get is a wrapper: it returns the failure of a call that retries.
func (c *Client) Get(req *http.Request) (*http.Response, error) {
	resp, err := c.T.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	return resp, nil
}

// Plain retries a call that does not retry.
func (c *Client) Plain(req *http.Request) error {
	var err error
	for i := 0; i < 3; i++ {
		if _, err = c.T.Once(req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Logged calls the retrying transport but only logs its failure: not a
// layer for its callers.
func (c *Client) Logged(req *http.Request) error {
	if _, err := c.T.RoundTrip(req); err != nil {
		println(err.Error())
	}
	return c.T.Background(req)
}

// Forever retries a transport that retries without limit.
func (c *Client) Forever(req *http.Request) error {
	var err error
	for i := 0; i < 2; i++ {
		if _, err = c.T.Unbounded(req.Context(), req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
