// Package dial reaches the network for package use: what deadline its
// functions' remote calls run under travels to the callers as a fact.
package dial

import (
	"context"
	"net"
	"net/http"
	"time"
)

// Ping dials with no timeout and takes no context: every call of it is an
// attempt with no deadline.
func Ping(addr string) error {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return err
	}
	return c.Close()
}

// Fetch gets through the default client, which has no timeout.
func Fetch(url string) error {
	resp, err := http.Get(url)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Check calls Ping: no deadline, through a function with the fact.
func Check(addr string) error { return Ping(addr) }

// PingTimeout dials with a timeout: each attempt is bounded.
func PingTimeout(addr string) error {
	c, err := net.DialTimeout("tcp", addr, 2*time.Second)
	if err != nil {
		return err
	}
	return c.Close()
}

// PingCtx takes the caller's context: the caller's deadline.
func PingCtx(ctx context.Context, addr string) error {
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return err
	}
	return c.Close()
}

// Client holds a client configured elsewhere: its timeout is unknown.
type Client struct{ HTTP *http.Client }

// Get sends through the held client: unknown.
func (c *Client) Get(url string) error {
	resp, err := c.HTTP.Get(url)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Both makes one call with no deadline and one whose deadline is unknown:
// unknown.
func (c *Client) Both(addr, url string) error {
	if err := Ping(addr); err != nil {
		return err
	}
	return c.Get(url)
}

// Later dials in a function literal it runs elsewhere: not judged.
func Later(addr string, run func(func() error) error) error {
	return run(func() error { return Ping(addr) })
}

// Bounded makes its own deadline for the request.
func Bounded(url string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

var client = &http.Client{Timeout: 10 * time.Second}

// Timed gets through a package client with a timeout: each attempt is
// bounded.
func Timed(url string) error {
	resp, err := client.Get(url)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
