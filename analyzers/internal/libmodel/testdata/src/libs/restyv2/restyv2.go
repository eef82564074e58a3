package restyv2

import (
	"context"
	"net/http"
	"time"

	"github.com/go-resty/resty/v2"

	"libs/remote"
)

// Safe: no retries configured: not a retry site.
func noRetry(ctx context.Context) error {
	_, err := resty.New().R().SetContext(ctx).Post("http://example.com")
	return err
}

// Safe: a budget in the retry condition, a key header, a context.
func safe(ctx context.Context) error {
	client := resty.New().
		SetRetryCount(3).
		AddRetryCondition(func(r *resty.Response, err error) bool {
			return err != nil && remote.Limiter.Allow()
		})
	_, err := client.R().
		SetContext(ctx).
		SetHeader("Idempotency-Key", "k-1").
		Post("http://example.com")
	return err
}

// Safe: a GET with a per-attempt timeout, a budget in a hook.
func safeGet() error {
	client := resty.New()
	client.SetRetryCount(2)
	client.SetTimeout(5 * time.Second)
	client.AddRetryCondition(func(r *resty.Response, err error) bool { return remote.Limiter.Allow() })
	_, err := client.R().Get("http://example.com")
	return err
}

// Unknown: a client from the caller.
func param(ctx context.Context, client *resty.Client) error {
	_, err := client.R().Post("http://example.com")
	return err
}

func postNoKey(ctx context.Context) error {
	client := resty.New().SetRetryCount(3)
	req := client.R().SetContext(ctx).SetHeader("Content-Type", "application/json")
	_, err := req.Post("http://example.com") // want `retryidempotency: POST request re-sent by resty without an idempotency key header` `retrybudget: resty client retries with no retry budget`
	return err
}

func executePatch(ctx context.Context) error {
	client := resty.New().SetRetryCount(3)
	_, err := client.R().SetContext(ctx).Execute(http.MethodPatch, "http://example.com") // want `retryidempotency: PATCH request re-sent by resty` `retrybudget: resty client retries with no retry budget`
	return err
}

func fixed(ctx context.Context) error {
	client := resty.New().SetRetryCount(3).SetRetryWaitTime(time.Second).SetRetryMaxWaitTime(time.Second) // want `retrysleep: resty retry wait time not below the max wait time waits the same delay`
	_, err := client.R().SetContext(ctx).Get("http://example.com")                                        // want `retrybudget: resty client retries with no retry budget`
	return err
}

func noContext(ctx context.Context) error {
	client := resty.New().SetRetryCount(3)
	_, err := client.R().Get("http://example.com") // want `retrydeadline: resty request without SetContext\(ctx\)` `retrybudget: resty client`
	return err
}
