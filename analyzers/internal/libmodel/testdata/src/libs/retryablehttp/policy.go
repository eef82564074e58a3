package retryablehttp

import (
	"context"
	"errors"
	"net/http"

	"github.com/hashicorp/go-retryablehttp"

	"libs/remote"
)

// A retry predicate the model cannot read is not presumed to hold a
// budget (SPEC, "Unknown is not absent", its one exception).
func policyParam(ctx context.Context, policy retryablehttp.CheckRetry) error {
	client := retryablehttp.NewClient()
	client.Backoff = retryablehttp.LinearJitterBackoff
	client.CheckRetry = policy
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, "http://example.com", nil)
	if err != nil {
		return err
	}
	_, err = client.Do(req) // want `retrybudget: retryablehttp client retries with no retry budget`
	return err
}

// The same predicate from a field of the caller's.
type policies struct{ check retryablehttp.CheckRetry }

func (p *policies) get(ctx context.Context) error {
	client := retryablehttp.NewClient()
	client.Backoff = retryablehttp.LinearJitterBackoff
	client.CheckRetry = p.check
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, "http://example.com", nil)
	if err != nil {
		return err
	}
	_, err = client.Do(req) // want `retrybudget: retryablehttp client retries with no retry budget`
	return err
}

// A PrepareRetry hook the model cannot read runs before every retry and
// can refuse it: a budget may be there (unknown).
func prepareParam(ctx context.Context, prepare retryablehttp.PrepareRetry) error {
	client := retryablehttp.NewClient()
	client.Backoff = retryablehttp.LinearJitterBackoff
	client.PrepareRetry = prepare
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, "http://example.com", nil)
	if err != nil {
		return err
	}
	_, err = client.Do(req)
	return err
}

// An unreadable predicate beside a hook that refuses a retry the budget
// does not allow.
func policyAndBudget(ctx context.Context, policy retryablehttp.CheckRetry) error {
	client := retryablehttp.NewClient()
	client.Backoff = retryablehttp.LinearJitterBackoff
	client.CheckRetry = policy
	client.PrepareRetry = func(*http.Request) error {
		if !remote.Limiter.Allow() {
			return errors.New("retry budget exhausted")
		}
		return nil
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, "http://example.com", nil)
	if err != nil {
		return err
	}
	_, err = client.Do(req)
	return err
}

// An unreadable predicate on a client that never retries.
func policyNoRetries(ctx context.Context, policy retryablehttp.CheckRetry) error {
	client := retryablehttp.NewClient()
	client.RetryMax = 0
	client.CheckRetry = policy
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, "http://example.com", nil)
	if err != nil {
		return err
	}
	_, err = client.Do(req)
	return err
}
