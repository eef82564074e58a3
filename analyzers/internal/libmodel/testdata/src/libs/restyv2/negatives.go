package restyv2

import (
	"context"

	"github.com/go-resty/resty/v2"
)

// Retries switched off.
func zero(ctx context.Context) error {
	_, err := resty.New().SetRetryCount(0).R().SetContext(ctx).Post("http://example.com")
	return err
}

// A retry count from configuration: a site, but nothing to judge.
func configured(ctx context.Context, n int) error {
	_, err := resty.New().SetRetryCount(n).R().Post("http://example.com")
	return err
}

// The key set on the client (every request carries one): silent on
// idempotency; a retry condition is no budget (SPEC).
func clientKey(ctx context.Context, key string) error {
	client := resty.New().SetRetryCount(2).SetHeader("Idempotency-Key", key).
		AddRetryCondition(func(r *resty.Response, err error) bool { return err != nil })
	_, err := client.R().SetContext(ctx).Patch("http://example.com") // want `retrybudget: resty client retries with no retry budget`
	return err
}
