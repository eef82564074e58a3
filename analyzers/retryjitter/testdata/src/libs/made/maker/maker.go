// Package maker makes the retryablehttp clients package use sends
// through.
package maker

import "github.com/hashicorp/go-retryablehttp"

// Default keeps the default backoff, which has no jitter.
func Default() *retryablehttp.Client {
	c := retryablehttp.NewClient()
	c.RetryMax = 3
	return c
}

// Jittered sets a backoff with jitter.
func Jittered() *retryablehttp.Client {
	c := retryablehttp.NewClient()
	c.Backoff = retryablehttp.LinearJitterBackoff
	return c
}
