package retryablehttp

import (
	"context"
	"net/http"

	"github.com/hashicorp/go-retryablehttp"
)

type api struct{ client *retryablehttp.Client }

// A client from a field is unknown.
func (a *api) send(ctx context.Context) error {
	req, err := retryablehttp.NewRequest(http.MethodPost, "http://example.com", nil)
	if err != nil {
		return err
	}
	_, err = a.client.Do(req)
	return err
}

// A CheckRetry that looks at the method decides idempotency itself.
func methodAware(ctx context.Context) error {
	client := retryablehttp.NewClient()
	client.Backoff = retryablehttp.LinearJitterBackoff
	client.CheckRetry = func(ctx context.Context, resp *http.Response, err error) (bool, error) {
		if resp != nil && resp.Request.Method == http.MethodPost {
			return false, nil
		}
		return budgetPolicy(ctx, resp, err)
	}
	_, err := client.Post("http://example.com", "text/plain", nil)
	return err
}

// A method from a variable is unknown.
func dynamicMethod(ctx context.Context, method string) error {
	client := retryablehttp.NewClient()
	client.Backoff = retryablehttp.LinearJitterBackoff
	client.CheckRetry = budgetPolicy
	req, err := retryablehttp.NewRequestWithContext(ctx, method, "http://example.com", nil)
	if err != nil {
		return err
	}
	_, err = client.Do(req)
	return err
}

// The key header set from a net/http request wrapped with FromRequest.
func fromRequest(ctx context.Context) error {
	client := retryablehttp.NewClient()
	client.Backoff = retryablehttp.LinearJitterBackoff
	client.CheckRetry = budgetPolicy
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://example.com", nil)
	if err != nil {
		return err
	}
	hreq.Header.Set("idempotency-key", "k-2")
	req, err := retryablehttp.FromRequest(hreq)
	if err != nil {
		return err
	}
	_, err = client.Do(req)
	return err
}

// A package-level client keeps its defaults.
var shared = retryablehttp.NewClient() // want `retryjitter: retryablehttp's default backoff has no jitter`

func useShared(ctx context.Context) error {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, "http://example.com", nil)
	if err != nil {
		return err
	}
	_, err = shared.Do(req) // want `retrybudget: retryablehttp client retries with no retry budget`
	return err
}

// A package-level client configured in init is unknown.
var tuned = retryablehttp.NewClient()

func init() {
	tuned.Backoff = retryablehttp.DefaultBackoff
}

func useTuned(ctx context.Context) error {
	_, err := tuned.Get("http://example.com")
	return err
}

// Sending another request through the client does not hide its
// configuration.
func twoRequests(ctx context.Context, other *retryablehttp.Request) error {
	client := retryablehttp.NewClient()
	client.Backoff = retryablehttp.LinearJitterBackoff
	client.CheckRetry = budgetPolicy
	if _, err := client.Do(other); err != nil {
		return err
	}
	_, err := client.Post("http://example.com", "text/plain", nil) // want `retryidempotency: POST request re-sent by retryablehttp without an idempotency key header`
	return err
}

// RetryMax 0: no retries.
func noRetries(ctx context.Context) error {
	client := retryablehttp.NewClient()
	client.RetryMax = 0
	_, err := client.Post("http://example.com", "text/plain", nil)
	return err
}
