package a

import (
	"net/http"
	"time"

	"github.com/retrylint/retrylint/budget"
)

// A retry policy behind an interface decides whether and when to try
// again. A cap may live behind it (so the loop is not unbounded), but a
// budget is not presumed behind a retry policy (SPEC): none is visible.
type retryPolicy interface {
	Retry(attempt int, resp *http.Response, err error) (time.Duration, error)
}

type policyTransport struct {
	base   http.RoundTripper
	policy retryPolicy
	budget *budget.Adaptive
}

func (t *policyTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	for attempt := 0; ; attempt++ { // want `retry loop has no retry budget`
		resp, respErr := t.base.RoundTrip(req)
		wait, err := t.policy.Retry(attempt, resp, respErr)
		if err != nil {
			return nil, err
		}
		if wait < 0 {
			return resp, respErr
		}
		if respErr == nil {
			resp.Body.Close()
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(wait):
		}
	}
}

// Look-alike: the same loop asks a budget before each retry.
func (t *policyTransport) budgeted(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	for attempt := 0; ; attempt++ {
		resp, respErr := t.base.RoundTrip(req)
		wait, err := t.policy.Retry(attempt, resp, respErr)
		if err != nil {
			return nil, err
		}
		if wait < 0 || !t.budget.Allow() {
			return resp, respErr
		}
		if respErr == nil {
			resp.Body.Close()
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(wait):
		}
	}
}
