package restyv3

import (
	"context"
	"time"

	"resty.dev/v3"
)

// Safe on idempotency: v3 does not retry POST unless allowed. A retry
// condition is no budget (SPEC): that finding stands.
func safePost(ctx context.Context) error {
	client := resty.New().SetRetryCount(3).AddRetryConditions(func(r *resty.Response, err error) bool { return err != nil })
	_, err := client.R().SetContext(ctx).Post("http://example.com") // want `retrybudget: resty v3 client retries with no retry budget`
	return err
}

// Safe on idempotency: non-idempotent retries allowed, with a key; a
// hook is no budget.
func safeKey(ctx context.Context) error {
	client := resty.New().SetRetryCount(3).SetRetryAllowNonIdempotent(true).AddRetryHooks(func(r *resty.Response, err error) {})
	_, err := client.R().SetContext(ctx).SetHeader("X-Idempotency-Key", "k").Patch("http://example.com") // want `retrybudget: resty v3 client retries with no retry budget`
	return err
}

func allowNonIdempotent(ctx context.Context) error {
	client := resty.New().SetRetryCount(3).SetRetryAllowNonIdempotent(true)
	_, err := client.R().SetContext(ctx).Post("http://example.com") // want `retryidempotency: POST request re-sent by resty v3 without an idempotency key header` `retrybudget: resty v3 client retries with no retry budget`
	return err
}

func requestLevel(ctx context.Context) error {
	client := resty.New()
	_, err := client.R().SetContext(ctx).SetRetryCount(2).SetRetryAllowNonIdempotent(true).Patch("http://example.com") // want `retryidempotency: PATCH request re-sent by resty v3` `retrybudget: resty v3 client`
	return err
}

func constant(ctx context.Context) error {
	client := resty.New().SetRetryCount(3).SetRetryDelayStrategy(resty.RetryConstantDelayStrategy(time.Second)) // want `retrysleep: resty v3 RetryConstantDelayStrategy waits the same delay`
	_, err := client.R().SetContext(ctx).Get("http://example.com")                                              // want `retrybudget: resty v3 client retries with no retry budget`
	return err
}
