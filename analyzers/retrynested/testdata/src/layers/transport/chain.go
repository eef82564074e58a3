package transport

import (
	"net/http"
	"time"
)

// Next is the next link of a middleware chain: the round trip's signature.
type Next = func(*http.Request) (*http.Response, error)

// Config is the SDK shape: the request it holds is sent by a handler
// built from the client's Do and the middlewares, up to MaxRetries times
// again.
type Config struct {
	Request     *http.Request
	HC          *http.Client
	Middlewares []func(*http.Request, Next) (*http.Response, error)
	MaxRetries  int
}

func (c *Config) handler() Next {
	h := c.HC.Do
	for i := len(c.Middlewares) - 1; i >= 0; i-- {
		mw, next := c.Middlewares[i], h
		h = func(r *http.Request) (*http.Response, error) { return mw(r, next) }
	}
	return h
}

// Execute sends the request, retrying through the handler.
func (c *Config) Execute() error {
	handler := c.handler()
	for n := 0; ; n++ {
		last := n >= c.MaxRetries
		res, err := handler(c.Request.Clone(c.Request.Context()))
		if last || !retryable(c.Request, res, err) {
			return err
		}
		time.Sleep(time.Duration(n+1) * 100 * time.Millisecond)
	}
}

// ExecuteOnce sends the request once through the handler.
func (c *Config) ExecuteOnce() error {
	_, err := c.handler()(c.Request)
	return err
}

func retryable(req *http.Request, res *http.Response, err error) bool {
	if req.GetBody == nil && req.Body != nil {
		return false
	}
	return err != nil || res.StatusCode >= 500
}
