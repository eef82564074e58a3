// Package keyheaders is checked with the key headers configured as
// X-Request-Key only.
package keyheaders

import (
	"context"

	"github.com/go-resty/resty/v2"
)

func configured(ctx context.Context) error {
	client := resty.New().SetRetryCount(2).AddRetryHook(func(r *resty.Response, err error) {})
	_, err := client.R().SetContext(ctx).SetHeader("X-Request-Key", "k").Post("http://example.com") // want `retrybudget: resty client retries with no retry budget`
	return err
}

func defaultName(ctx context.Context) error {
	client := resty.New().SetRetryCount(2).AddRetryHook(func(r *resty.Response, err error) {})
	_, err := client.R().SetContext(ctx).SetHeader("Idempotency-Key", "k").Post("http://example.com") // want `retryidempotency: POST request re-sent by resty without an idempotency key header` `retrybudget: resty client retries with no retry budget`
	return err
}
