package retryablehttp

import (
	"net/http"

	"github.com/hashicorp/go-retryablehttp"
)

// StandardClient wraps the retrying client in a *http.Client: every send
// through the result retries with the client's policy.
func standardDefault() *http.Client {
	rc := retryablehttp.NewClient() // want `retryjitter: retryablehttp's default backoff has no jitter`
	rc.RetryMax = 4
	return rc.StandardClient() // want `retrybudget: retryablehttp client retries with no retry budget`
}

func standardJitter() *http.Client {
	rc := retryablehttp.NewClient()
	rc.Backoff = retryablehttp.LinearJitterBackoff
	return rc.StandardClient() // want `retrybudget: retryablehttp client retries with no retry budget`
}

// Look-alike: RetryMax 0 does not retry.
func standardOff() *http.Client {
	rc := retryablehttp.NewClient()
	rc.RetryMax = 0
	return rc.StandardClient()
}

// Look-alike: a client from the caller is unknown.
func standardGiven(rc *retryablehttp.Client) *http.Client {
	return rc.StandardClient()
}
