// Package maker makes the retryablehttp clients package use sends
// through: what each constructor sets travels to the callers as a fact.
package maker

import (
	"errors"
	"net/http"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// New retries three times, with no budget.
func New() *retryablehttp.Client {
	c := retryablehttp.NewClient()
	c.RetryMax = 3
	c.Backoff = retryablehttp.LinearJitterBackoff
	return c
}

// NewChecked returns an error beside the client; the nil is no client.
func NewChecked(base string) (*retryablehttp.Client, error) {
	if base == "" {
		return nil, errors.New("maker: no base URL")
	}
	c := retryablehttp.NewClient()
	c.HTTPClient = &http.Client{Timeout: 10 * time.Second}
	return c, nil
}

// Wrapped returns what New makes: a constructor of this package's
// constructor is followed in view.
func Wrapped() *retryablehttp.Client {
	c := New()
	c.RetryWaitMax = 5 * time.Second
	return c
}

// NoRetry makes one attempt: no retry site.
func NoRetry() *retryablehttp.Client {
	c := retryablehttp.NewClient()
	c.RetryMax = 0
	return c
}

// Literal sets no RetryMax: a literal's zero makes one attempt.
func Literal() *retryablehttp.Client {
	return &retryablehttp.Client{HTTPClient: http.DefaultClient, Backoff: retryablehttp.LinearJitterBackoff}
}

// Hooked leaves the decision to a hook it is given: a hook that can
// refuse a retry may consult a budget (unknown).
func Hooked(prepare retryablehttp.PrepareRetry) *retryablehttp.Client {
	c := retryablehttp.NewClient()
	c.PrepareRetry = prepare
	return c
}

// Configured hands the client to a function that may set anything on it.
func Configured(configure func(*retryablehttp.Client)) *retryablehttp.Client {
	c := retryablehttp.NewClient()
	configure(c)
	return c
}

// Either returns one of two clients: not one and the same.
func Either(fast bool) *retryablehttp.Client {
	if fast {
		c := retryablehttp.NewClient()
		c.RetryMax = 1
		return c
	}
	return retryablehttp.NewClient()
}

// Given returns the client it is given: nothing made in view.
func Given(c *retryablehttp.Client) *retryablehttp.Client {
	c.RetryMax = 2
	return c
}
