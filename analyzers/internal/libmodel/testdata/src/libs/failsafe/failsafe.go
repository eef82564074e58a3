package failsafe

import (
	"context"
	"net/http"
	"time"

	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/budget"
	"github.com/failsafe-go/failsafe-go/circuitbreaker"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
	"github.com/failsafe-go/failsafe-go/timeout"

	"libs/remote"
)

func get() (*http.Response, error) { return http.Get("http://example.com") }

// Safe: backoff with jitter and a retry budget.
func safe(ctx context.Context) error {
	rp := retrypolicy.NewBuilder[any]().
		WithBackoff(100*time.Millisecond, 10*time.Second).
		WithJitterFactor(0.5).
		WithBudget(budget.New()).
		Build()
	return failsafe.With[any](rp).WithContext(ctx).Run(func() error { return remote.Fetch(ctx) })
}

// Safe: random delay and a circuit breaker in the same executor.
func safeBreaker() (*http.Response, error) {
	rp := retrypolicy.NewBuilder[*http.Response]().WithRandomDelay(time.Second, 3*time.Second).Build()
	cb := circuitbreaker.NewWithDefaults[*http.Response]()
	return failsafe.With(rp, cb).Get(get)
}

// Safe: no retry policy: not a retry site.
func noRetry() error {
	return failsafe.With[any](timeout.New[any](time.Second)).Run(remote.Local)
}

// Unknown: the policy comes from the caller.
func param(rp retrypolicy.RetryPolicy[*http.Response]) (*http.Response, error) {
	return failsafe.With(rp).Get(get)
}

func defaults() error {
	rp := retrypolicy.NewWithDefaults[any]() // want `retrysleep: failsafe-go retry policy without a delay retries at once`
	return failsafe.With(rp).Run(remote.Local)
}

func noJitter() error {
	rp := retrypolicy.NewBuilder[any]().WithBackoff(time.Second, time.Minute).Build() // want `retryjitter: failsafe-go retry policy backs off without jitter`
	return failsafe.With(rp).Run(remote.Local)
}

func fixed() error {
	rp := retrypolicy.NewBuilder[any]().WithDelay(time.Second).WithMaxRetries(3).Build() // want `retrysleep: failsafe-go retry policy WithDelay waits the same delay`
	return failsafe.With(rp).Run(remote.Local)
}

func unbounded() error {
	rp := retrypolicy.NewBuilder[any]().WithRandomDelay(time.Second, 2*time.Second).WithMaxRetries(-1).Build() // want `retrybudget: failsafe-go retry policy with no attempt limit`
	return failsafe.With(rp).Run(remote.Local)
}

func noBudget() (*http.Response, error) {
	rp := retrypolicy.NewBuilder[*http.Response]().WithBackoff(time.Second, time.Minute).WithJitter(100 * time.Millisecond).Build()
	return failsafe.With(rp).Get(get) // want `retrybudget: failsafe-go retry policy around a remote call consults no retry budget`
}
