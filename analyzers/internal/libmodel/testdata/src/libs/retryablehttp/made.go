package retryablehttp

import (
	"context"
	"errors"
	"net/http"

	"github.com/hashicorp/go-retryablehttp"
)

// Clients made and configured by a function of the package that returns
// them: judged by what that function sets.

func newRetrying() *retryablehttp.Client {
	c := retryablehttp.NewClient()
	c.RetryMax = 3
	c.Backoff = retryablehttp.LinearJitterBackoff
	return c
}

func madeGet(ctx context.Context) error {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, "http://example.com", nil)
	if err != nil {
		return err
	}
	_, err = newRetrying().Do(req) // want `retrybudget: retryablehttp client retries with no retry budget`
	return err
}

func madePost(ctx context.Context) error {
	client := newRetrying()
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, "http://example.com", nil) // want `retryidempotency: POST request re-sent by retryablehttp without an idempotency key header`
	if err != nil {
		return err
	}
	_, err = client.Do(req) // want `retrybudget: retryablehttp client retries with no retry budget`
	return err
}

// An error beside the client: the nil return is no client.
func newChecked(url string) (*retryablehttp.Client, error) {
	if url == "" {
		return nil, errors.New("no url")
	}
	c := retryablehttp.NewClient()
	c.Backoff = retryablehttp.LinearJitterBackoff
	return c, nil
}

func madeChecked(ctx context.Context, url string) error {
	client, err := newChecked(url)
	if err != nil {
		return err
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	_, err = client.Do(req) // want `retrybudget: retryablehttp client retries with no retry budget`
	return err
}

// The caller turns retries off after it is made: no retry site.
func madeOff(ctx context.Context) error {
	client := newRetrying()
	client.RetryMax = 0
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, "http://example.com", nil)
	if err != nil {
		return err
	}
	_, err = client.Do(req)
	return err
}

// The function consults the budget in the client's CheckRetry.
func newBudgeted() *retryablehttp.Client {
	c := retryablehttp.NewClient()
	c.Backoff = retryablehttp.LinearJitterBackoff
	c.CheckRetry = budgetPolicy
	return c
}

func madeBudgeted(ctx context.Context) error {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, "http://example.com", nil)
	if err != nil {
		return err
	}
	_, err = newBudgeted().Do(req)
	return err
}

// Two clients from one function: which one is unknown.
func newEither(fast bool) *retryablehttp.Client {
	if fast {
		c := retryablehttp.NewClient()
		c.RetryMax = 1
		return c
	}
	return retryablehttp.NewClient()
}

func madeEither(ctx context.Context, fast bool) error {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, "http://example.com", nil)
	if err != nil {
		return err
	}
	_, err = newEither(fast).Do(req)
	return err
}

// A client handed in by the caller of the function: not followed.
func newWrapped(c *retryablehttp.Client) *retryablehttp.Client {
	return c
}

func madeWrapped(ctx context.Context, c *retryablehttp.Client) error {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, "http://example.com", nil)
	if err != nil {
		return err
	}
	_, err = newWrapped(c).Do(req)
	return err
}

// A client made with no retries at all.
func newSingle() *retryablehttp.Client {
	c := retryablehttp.NewClient()
	c.RetryMax = 0
	return c
}

func madeSingle(ctx context.Context) error {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, "http://example.com", nil)
	if err != nil {
		return err
	}
	_, err = newSingle().Do(req)
	return err
}

// The caller hands the client to a function that may set a budget hook
// on it: what it holds after is unknown.
func madeHanded(ctx context.Context) error {
	client := newRetrying()
	addBudget(client)
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, "http://example.com", nil)
	if err != nil {
		return err
	}
	_, err = client.Do(req)
	return err
}

func addBudget(c *retryablehttp.Client) { c.CheckRetry = budgetPolicy }

// The same for a client made in place.
func inPlaceHanded(ctx context.Context) error {
	client := retryablehttp.NewClient()
	client.Backoff = retryablehttp.LinearJitterBackoff
	addBudget(client)
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, "http://example.com", nil)
	if err != nil {
		return err
	}
	_, err = client.Do(req)
	return err
}
