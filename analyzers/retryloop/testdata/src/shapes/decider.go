package shapes

import (
	"context"
	"errors"
	"net/http"
	"time"
)

// A retry policy behind an interface: it is handed the outcome of each
// attempt and says how long to wait before the next one, or that there is
// none (a negative duration). What it says of a success cannot be seen;
// the SPEC counts a policy asked about the outcome as the retry decision,
// so a success leaves by the branch that leaves.
type retryPolicy interface {
	Retry(attempt int, resp *http.Response, err error) (time.Duration, error)
}

type policyTransport struct {
	base   http.RoundTripper
	policy retryPolicy
}

func (t *policyTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	attempt := 0
	for { // want `retry site: shape=bare bound=deadline delay=unknown jitter=no ctx=unknown consulted remote req=\?$`
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
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return nil, ctx.Err()
		case <-timer.C:
		}
		attempt++
	}
}

// A predicate held in a field, asked directly in the condition.
type checkingClient struct {
	hc         *http.Client
	checkRetry func(ctx context.Context, resp *http.Response, err error) bool
}

func (c *checkingClient) do(ctx context.Context, req *http.Request) (*http.Response, error) {
	for i := 0; i < 4; i++ { // want `retry site: shape=counted bound=counter delay=fixed jitter=no ctx=unknown remote req=\? attempts=4$`
		resp, err := c.hc.Do(req.WithContext(ctx))
		if !c.checkRetry(ctx, resp, err) {
			return resp, err
		}
		time.Sleep(time.Second)
	}
	return nil, errors.New("gave up")
}

// Look-alike: the policy is handed no outcome (it only counts): what it
// says is no judgement of the call, and a success goes round as well.
type ticker interface {
	Next(attempt int) (time.Duration, bool)
}

func pollTicks(ctx context.Context, hc *http.Client, url string, tk ticker) {
	for attempt := 0; ; attempt++ {
		if resp, err := hc.Get(url); err == nil {
			resp.Body.Close()
		}
		d, ok := tk.Next(attempt)
		if !ok {
			return
		}
		time.Sleep(d)
	}
}

// Look-alike: a stream read whose outcome a handler judges; both
// branches go on reading: no exit on success, no retry.
type handler interface{ Handle(n int, err error) bool }

func readAll(c interface {
	Read(p []byte) (int, error)
}, h handler) {
	buf := make([]byte, 512)
	for {
		n, err := c.Read(buf)
		if h.Handle(n, err) {
			continue
		}
	}
}
