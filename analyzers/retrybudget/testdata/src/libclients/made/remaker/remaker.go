// Package remaker configures further the clients package maker makes:
// its summary is maker's, with what it sets after.
package remaker

import (
	"sync"
	"time"

	"github.com/hashicorp/go-retryablehttp"

	"libclients/made/maker"
)

// Slower waits longer, still with no budget.
func Slower() *retryablehttp.Client {
	c := maker.New()
	c.RetryWaitMax = 30 * time.Second
	return c
}

// Guarded sets a hook that can refuse a retry: a budget may be behind it.
func Guarded(prepare retryablehttp.PrepareRetry) *retryablehttp.Client {
	c := maker.New()
	c.PrepareRetry = prepare
	return c
}

// Off turns the retries maker set off.
func Off() *retryablehttp.Client {
	c := maker.New()
	c.RetryMax = 0
	return c
}

var (
	shared *retryablehttp.Client
	once   sync.Once
)

// Shared returns a client kept in a package variable, configured once in
// a function literal: not followed, unknown.
func Shared() *retryablehttp.Client {
	once.Do(func() {
		shared = retryablehttp.NewClient()
		shared.RetryMax = 3
	})
	return shared
}

// SetPrepare lets the program guard the shared client with a hook.
func SetPrepare(prepare retryablehttp.PrepareRetry) { shared.PrepareRetry = prepare }

var pooled *retryablehttp.Client

// Pooled makes the client it keeps in a package variable and configures
// it here.
func Pooled() *retryablehttp.Client {
	pooled = retryablehttp.NewClient()
	pooled.RetryMax = 5
	return pooled
}

// PooledMax only reads the kept client: another function that configures
// nothing leaves Pooled's summary as it is.
func PooledMax() int { return pooled.RetryMax }
