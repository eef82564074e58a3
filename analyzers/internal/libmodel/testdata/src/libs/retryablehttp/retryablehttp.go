package retryablehttp

import (
	"context"
	"net/http"
	"strings"

	"github.com/hashicorp/go-retryablehttp"

	"libs/remote"
)

// budgetPolicy retries only while the shared budget allows.
func budgetPolicy(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if !remote.Limiter.Allow() {
		return false, nil
	}
	return retryablehttp.DefaultRetryPolicy(ctx, resp, err)
}

// Safe: jittered backoff, a budget in CheckRetry, a context, a key.
func safe(ctx context.Context, body string) error {
	client := retryablehttp.NewClient()
	client.Backoff = retryablehttp.LinearJitterBackoff
	client.CheckRetry = func(ctx context.Context, resp *http.Response, err error) (bool, error) {
		if !remote.Limiter.Allow() {
			return false, nil
		}
		return retryablehttp.DefaultRetryPolicy(ctx, resp, err)
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, "http://example.com", strings.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", "k-1")
	_, err = client.Do(req)
	return err
}

// Safe: a named policy (unknown to us: it may check the budget), a GET.
func safeGet(ctx context.Context) error {
	client := retryablehttp.NewClient()
	client.Backoff = retryablehttp.RateLimitLinearJitterBackoff
	client.CheckRetry = budgetPolicy
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, "http://example.com", nil)
	if err != nil {
		return err
	}
	_, err = client.Do(req)
	return err
}

// Safe: the request escapes to a function that may set the key.
func safeEscapes(ctx context.Context, sign func(*retryablehttp.Request)) error {
	client := retryablehttp.NewClient()
	client.Backoff = retryablehttp.LinearJitterBackoff
	client.CheckRetry = budgetPolicy
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPatch, "http://example.com", nil)
	if err != nil {
		return err
	}
	sign(req)
	_, err = client.Do(req)
	return err
}

// Unknown: a client from the caller.
func param(ctx context.Context, client *retryablehttp.Client) error {
	_, err := client.Post("http://example.com", "text/plain", nil)
	return err
}

func defaults(ctx context.Context) error {
	client := retryablehttp.NewClient() // want `retryjitter: retryablehttp's default backoff has no jitter: clients that failed together retry together`
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, "http://example.com", nil)
	if err != nil {
		return err
	}
	_, err = client.Do(req) // want `retrybudget: retryablehttp client retries with no retry budget`
	return err
}

func postNoKey(ctx context.Context) error {
	client := retryablehttp.NewClient()
	client.Backoff = retryablehttp.LinearJitterBackoff
	client.CheckRetry = budgetPolicy
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, "http://example.com", nil) // want `retryidempotency: POST request re-sent by retryablehttp without an idempotency key header`
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	_, err = client.Do(req)
	return err
}

func shortcutPost() error {
	client := retryablehttp.NewClient()
	client.Backoff = retryablehttp.DefaultBackoff // want `retryjitter: retryablehttp's default backoff has no jitter`
	client.CheckRetry = budgetPolicy
	_, err := client.Post("http://example.com", "text/plain", nil) // want `retryidempotency: POST request re-sent by retryablehttp without an idempotency key header`
	return err
}

func noContext(ctx context.Context) error {
	client := retryablehttp.NewClient()
	client.Backoff = retryablehttp.LinearJitterBackoff
	client.CheckRetry = budgetPolicy
	req, err := retryablehttp.NewRequest(http.MethodGet, "http://example.com", nil) // want `retrydeadline: retryablehttp.NewRequest builds a request with no context`
	if err != nil {
		return err
	}
	_, err = client.Do(req)
	return err
}
