package retryablehttp

import (
	"context"
	"net/http"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// Clients held in unexported fields, configured where the field is set.

type service struct {
	http *retryablehttp.Client
}

func newService() *service {
	s := &service{}
	s.http = &retryablehttp.Client{
		Backoff:      retryablehttp.LinearJitterBackoff,
		CheckRetry:   s.checkRetry,
		HTTPClient:   http.DefaultClient,
		RetryWaitMin: 100 * time.Millisecond,
		RetryWaitMax: time.Second,
		RetryMax:     5,
	}
	return s
}

// checkRetry retries rate limits and server errors, whatever the method.
func (s *service) checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	if err != nil {
		return true, err
	}
	return resp.StatusCode == 429 || resp.StatusCode >= 500, nil
}

func (s *service) create(ctx context.Context) error {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, "http://example.com", nil) // want `retryidempotency: POST request re-sent by retryablehttp without an idempotency key header`
	if err != nil {
		return err
	}
	_, err = s.http.Do(req) // want `retrybudget: retryablehttp client retries with no retry budget`
	return err
}

// A request object holding the service's client: a copy of the field.
type call struct {
	http *retryablehttp.Client
}

func (s *service) newCall() *call { return &call{http: s.http} }

func (c *call) update(ctx context.Context) error {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPatch, "http://example.com", nil) // want `retryidempotency: PATCH request re-sent by retryablehttp without an idempotency key header`
	if err != nil {
		return err
	}
	_, err = c.http.Do(req) // want `retrybudget: retryablehttp client retries with no retry budget`
	return err
}

// Look-alikes.

// A literal without RetryMax makes one attempt.
type once struct{ http *retryablehttp.Client }

func newOnce() *once {
	return &once{http: &retryablehttp.Client{
		Backoff:    retryablehttp.LinearJitterBackoff,
		CheckRetry: retryablehttp.DefaultRetryPolicy,
		HTTPClient: http.DefaultClient,
	}}
}

func (o *once) create(ctx context.Context) error {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, "http://example.com", nil)
	if err != nil {
		return err
	}
	_, err = o.http.Do(req)
	return err
}

// Two constructors give the field two clients: not followed.
type twice struct{ http *retryablehttp.Client }

func newTwice(fast bool) *twice {
	if fast {
		return &twice{http: retryablehttp.NewClient()}
	}
	t := &twice{}
	t.http = &retryablehttp.Client{Backoff: retryablehttp.LinearJitterBackoff, CheckRetry: retryablehttp.DefaultRetryPolicy, RetryMax: 2}
	return t
}

func (t *twice) create(ctx context.Context) error {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, "http://example.com", nil)
	if err != nil {
		return err
	}
	_, err = t.http.Do(req)
	return err
}

// Configured in place after it is made: not followed.
type inPlace struct{ http *retryablehttp.Client }

func newInPlace(policy retryablehttp.CheckRetry) *inPlace {
	t := &inPlace{http: retryablehttp.NewClient()}
	t.http.CheckRetry = policy
	return t
}

func (t *inPlace) create(ctx context.Context) error {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, "http://example.com", nil)
	if err != nil {
		return err
	}
	_, err = t.http.Do(req)
	return err
}

// A method-value CheckRetry that looks at the method, and one that
// consults the budget.
type careful struct{ http *retryablehttp.Client }

func newCareful() *careful {
	c := &careful{}
	c.http = &retryablehttp.Client{Backoff: retryablehttp.LinearJitterBackoff, CheckRetry: c.check, RetryMax: 3}
	return c
}

func (c *careful) check(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if resp != nil && resp.Request.Method == http.MethodPost {
		return false, nil
	}
	return budgetPolicy(ctx, resp, err)
}

func (c *careful) create(ctx context.Context) error {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, "http://example.com", nil)
	if err != nil {
		return err
	}
	_, err = c.http.Do(req)
	return err
}

// An exported field may be set by any importer.
type Open struct{ HTTP *retryablehttp.Client }

func (o *Open) Create(ctx context.Context) error {
	o.HTTP = retryablehttp.NewClient()
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, "http://example.com", nil)
	if err != nil {
		return err
	}
	_, err = o.HTTP.Do(req)
	return err
}

// A literal client with the default backoff: the fix replaces the
// literal's value.
func literalDefault(ctx context.Context) error {
	client := &retryablehttp.Client{ // want `retryjitter: retryablehttp's default backoff has no jitter`
		Backoff:    retryablehttp.DefaultBackoff,
		CheckRetry: budgetPolicy,
		HTTPClient: http.DefaultClient,
		RetryMax:   3,
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, "http://example.com", nil)
	if err != nil {
		return err
	}
	_, err = client.Do(req)
	return err
}

// A literal client without a Backoff field has none of the default's.
func literalNoBackoff(ctx context.Context) error {
	client := &retryablehttp.Client{CheckRetry: budgetPolicy, HTTPClient: http.DefaultClient, RetryMax: 3}
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, "http://example.com", nil)
	if err != nil {
		return err
	}
	_, err = client.Do(req)
	return err
}
