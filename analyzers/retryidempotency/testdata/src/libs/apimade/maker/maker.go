// Package maker makes the retryablehttp clients package use sends
// writes through.
package maker

import (
	"context"
	"net/http"

	"github.com/hashicorp/go-retryablehttp"
)

// New retries whatever the method.
func New() *retryablehttp.Client {
	c := retryablehttp.NewClient()
	c.RetryMax = 3
	return c
}

// Careful retries by a policy that reads the request's method.
func Careful() *retryablehttp.Client {
	c := retryablehttp.NewClient()
	c.CheckRetry = func(ctx context.Context, resp *http.Response, err error) (bool, error) {
		if resp != nil && resp.Request.Method != http.MethodGet {
			return false, nil
		}
		return retryablehttp.DefaultRetryPolicy(ctx, resp, err)
	}
	return c
}
