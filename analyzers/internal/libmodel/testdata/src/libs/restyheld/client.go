// Package restyheld is an SDK over a resty client held in a field: the
// constructor makes it, another function switches its retries on, and a
// wrapper makes every request (the linodego shape).
package restyheld

import (
	"context"
	"net/http"

	"github.com/go-resty/resty/v2"
)

type Client struct {
	resty *resty.Client
}

func NewClient(hc *http.Client) *Client {
	c := &Client{}
	if hc != nil {
		c.resty = resty.NewWithClient(hc)
	} else {
		c.resty = resty.New()
	}
	configureRetries(c)
	return c
}

func configureRetries(c *Client) {
	c.resty.SetRetryCount(1000).AddRetryCondition(tooManyRequests).AddRetryCondition(serviceUnavailable) // want `retrybudget: resty client retries with no retry budget`
}

func tooManyRequests(r *resty.Response, _ error) bool {
	return r.StatusCode() == http.StatusTooManyRequests
}

func serviceUnavailable(r *resty.Response, _ error) bool {
	return r.StatusCode() == http.StatusServiceUnavailable
}

// SetRetryCount is the user's knob: judged where the user calls it.
func (c *Client) SetRetryCount(n int) *Client {
	c.resty.SetRetryCount(n)
	return c
}

// AddRetryCondition adds a user's condition: it can only add retries.
func (c *Client) AddRetryCondition(f func(*resty.Response, error) bool) *Client {
	c.resty.AddRetryCondition(f)
	return c
}

// R makes every request of the SDK.
func (c *Client) R(ctx context.Context) *resty.Request {
	return c.resty.R().
		SetHeader("Content-Type", "application/json").
		SetContext(ctx)
}

type Instance struct{ ID int }

type ListOptions struct{ Filter string }

func applyListOptions(opts *ListOptions, req *resty.Request) {
	if opts != nil && opts.Filter != "" {
		req.SetHeader("X-Filter", opts.Filter)
	}
}

// Create sends a POST the client re-sends on a 429 or a 503 with no key.
func (c *Client) Create(ctx context.Context, body any) (*Instance, error) {
	var out Instance
	req := c.R(ctx).SetResult(&out).SetBody(body)
	if _, err := req.Post("/instances"); err != nil { // want `retryidempotency: POST request re-sent by the resty client held in resty`
		return nil, err
	}
	return &out, nil
}

// List posts a search, its request handed to a function of the package
// that sets a constant header that is no key.
func (c *Client) List(ctx context.Context, opts *ListOptions) ([]Instance, error) {
	var out []Instance
	req := c.R(ctx).SetResult(&out)
	applyListOptions(opts, req)
	_, err := req.Post("/instances/search") // want `retryidempotency: POST request re-sent by the resty client held in resty`
	return out, err
}

// Look-alikes: a PUT (idempotent); a POST with a key minted once per
// call; a request handed to a function that may set any header; a GET.
func (c *Client) Update(ctx context.Context, id int, body any) error {
	_, err := c.R(ctx).SetBody(body).Put("/instances/1")
	return err
}

func (c *Client) CreateKeyed(ctx context.Context, key string, body any) error {
	_, err := c.R(ctx).SetHeader("Idempotency-Key", key).SetBody(body).Post("/instances")
	return err
}

func (c *Client) CreateDecorated(ctx context.Context, body any, decorate func(*resty.Request)) error {
	req := c.R(ctx).SetBody(body)
	decorate(req)
	_, err := req.Post("/instances")
	return err
}

func (c *Client) Get(ctx context.Context) error {
	_, err := c.R(ctx).Get("/instances/1")
	return err
}

// A second client whose retry count comes from configuration: whether it
// retries at all is unknown.
type Config struct{ Retries int }

type tunedClient struct {
	rc  *resty.Client
	cfg Config
}

func newTuned(cfg Config) *tunedClient {
	t := &tunedClient{rc: resty.New(), cfg: cfg}
	t.rc.SetRetryCount(t.cfg.Retries)
	return t
}

func (t *tunedClient) r(ctx context.Context) *resty.Request {
	return t.rc.R().SetContext(ctx)
}

func (t *tunedClient) create(ctx context.Context, body any) error {
	_, err := t.r(ctx).SetBody(body).Post("/things")
	return err
}

// A third client whose retries are never switched on.
type plainClient struct{ rc *resty.Client }

func (p *plainClient) r(ctx context.Context) *resty.Request { return p.rc.R().SetContext(ctx) }

func (p *plainClient) create(ctx context.Context, body any) error {
	_, err := p.r(ctx).SetBody(body).Post("/things")
	return err
}
