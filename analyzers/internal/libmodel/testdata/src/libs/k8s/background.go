package k8s

import (
	"context"
	"time"

	"k8s.io/client-go/util/retry"

	"libs/remote"
)

// The attempts run under a context made here by context.TODO, and the
// library sleeps with time.Sleep: nothing bounds them in time.
func updateTODO() error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error { // want `retrybudget: retry.RetryOnConflict around a remote call consults no retry budget`
		return remote.Fetch(context.TODO()) // want `retrydeadline: retry.RetryOnConflict runs its attempts under a context made by context.TODO`
	})
}

// The caller's context reaches the function: the attempts are bounded by
// no TODO, and the library's sleeps never observe ctx; but DefaultRetry's
// waits together stay under a second, so a cancelled caller waits no
// longer than that.
func updateCaller(ctx context.Context) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error { // want `retrybudget: retry.RetryOnConflict around a remote call consults no retry budget`
		return remote.Fetch(context.TODO())
	})
}

// Look-alike: a per-attempt timeout bounds each attempt.
func updateTimeout() error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error { // want `retrybudget: retry.RetryOnConflict around a remote call consults no retry budget`
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return remote.Fetch(ctx)
	})
}
