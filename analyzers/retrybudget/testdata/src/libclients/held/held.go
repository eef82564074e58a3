// Package held has a retryablehttp client held in a field and configured
// in its constructor: every send through it lacks the same budget, fixed
// once, at the construction. One finding stands there, the sends related.
package held

import (
	"context"
	"net/http"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

type service struct {
	http *retryablehttp.Client
}

func newService() *service {
	s := &service{}
	s.http = &retryablehttp.Client{ // want `retryablehttp client retries with no retry budget, at 3 sends through this client: under an outage`
		Backoff:      retryablehttp.LinearJitterBackoff,
		CheckRetry:   retryablehttp.DefaultRetryPolicy,
		HTTPClient:   http.DefaultClient,
		RetryWaitMin: 100 * time.Millisecond,
		RetryWaitMax: time.Second,
		RetryMax:     5,
	}
	return s
}

func (s *service) get(ctx context.Context) error {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, "http://example.com/a", nil)
	if err != nil {
		return err
	}
	_, err = s.http.Do(req) // related: sent here
	return err
}

func (s *service) put(ctx context.Context) error {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPut, "http://example.com/b", nil)
	if err != nil {
		return err
	}
	_, err = s.http.Do(req) // related: sent here
	return err
}

func (s *service) head() error {
	_, err := s.http.Head("http://example.com/c") // related: sent here
	return err
}

// A client made where it is sent: its finding stands at the send, as
// it did.
func local() error {
	c := retryablehttp.NewClient()
	_, err := c.Get("http://example.com/d") // want `retryablehttp client retries with no retry budget: under an outage`
	return err
}
