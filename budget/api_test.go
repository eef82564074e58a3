package budget

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"
)

func TestBreakerPermitFromAnOldGenerationIsIgnored(t *testing.T) {
	clk := newFakeClock()
	br := clocked{(&Breaker{MinRequests: 1}), clk}
	old, ok := br.Admit()
	if !ok {
		t.Fatal("closed breaker refused")
	}
	br.Open()
	clk.Advance(DefaultBreakerCooldown)
	probe, ok := br.Admit()
	if !ok || br.Stats().State != BreakerHalfOpen {
		t.Fatal("no probe after the cooldown")
	}
	old.Done(nil)
	if br.Stats().State != BreakerHalfOpen {
		t.Fatalf("an old permit's success moved the breaker to %v", br.Stats().State)
	}
	probe.Done(nil)
	if br.Stats().State != BreakerClosed {
		t.Fatalf("the probe's success left the breaker %v", br.Stats().State)
	}
}

func TestBreakerClassification(t *testing.T) {
	clk := newFakeClock()
	errNotFound := errors.New("not found")
	br := clocked{(&Breaker{
		Name:         "ledger",
		MinRequests:  2,
		IsSuccessful: func(err error) bool { return errors.Is(err, errNotFound) },
		IsExcluded:   func(err error) bool { return errors.Is(err, context.Canceled) || errors.Is(err, errBoom) },
	}), clk}
	for range 10 {
		br.Record(errNotFound) // an answer
		br.Record(errBoom)     // excluded
	}
	if s := br.Stats(); s.State != BreakerClosed || s.Requests != 10 || s.Failures != 0 || s.Name != "ledger" {
		t.Fatalf("Stats %+v", s)
	}
	// An excluded probe frees the slot for the next one.
	br.Open()
	clk.Advance(DefaultBreakerCooldown)
	p, _ := br.Admit()
	p.Done(context.Canceled)
	if _, ok := br.Admit(); !ok {
		t.Fatal("an excluded probe blocked the next one")
	}
}

func TestDoPermanentTakesNoToken(t *testing.T) {
	b := new(TokenBucket)
	errNotFound := errors.New("not found")
	calls := 0
	err := Do(context.Background(), func(context.Context) error {
		calls++
		return Permanent(errNotFound)
	}, WithBudget(b))
	if e := asError(t, err); e.Reason != ReasonPermanent || calls != 1 || !errors.Is(err, errNotFound) {
		t.Fatalf("Do = %v after %d calls, want a permanent not found after 1", err, calls)
	}
	if b.tokens() != 1000 {
		t.Fatalf("a permanent error took a token: %v", b.tokens())
	}
}

func TestDoAttemptTimeout(t *testing.T) {
	b := new(TokenBucket)
	calls := 0
	err := Do(context.Background(), func(ctx context.Context) error {
		calls++
		ctx, cancel := context.WithTimeout(ctx, 10*time.Millisecond) // the attempt's own bound
		defer cancel()
		if calls == 1 {
			<-ctx.Done() // the first attempt hangs until its own timeout
			return ctx.Err()
		}
		return nil
	}, WithBudget(b), WithBackoff(quick))
	if err != nil || calls != 2 {
		t.Fatalf("Do = %v after %d calls, want success on the second", err, calls)
	}
	if s := b.Stats(); s.Failures != 1 {
		t.Fatalf("the attempt's own timeout was not recorded as a failure: %v", s)
	}
}

func TestTransportHooksAndClassify(t *testing.T) {
	rt := &fakeRT{answer: func(n int, r *http.Request) (*http.Response, error) {
		if n == 1 {
			return status(409, ""), nil
		}
		if r.Header.Get("Authorization") != "fresh" {
			return status(401, ""), nil
		}
		return status(200, "ok"), nil
	}}
	var retried []int
	tr := &Transport{
		Base: rt, Backoff: quick, Budget: new(TokenBucket),
		Classify: func(req *http.Request, resp *http.Response, err error) Outcome {
			if resp != nil && resp.StatusCode == 409 {
				return OutcomeRetry
			}
			return OutcomeDefault
		},
		OnRetry: func(req *http.Request, attempt int, resp *http.Response, err error, delay time.Duration) {
			retried = append(retried, resp.StatusCode)
		},
		PrepareRetry: func(r *http.Request) error { r.Header.Set("Authorization", "fresh"); return nil },
	}
	resp, err := tr.RoundTrip(newRequest(t, context.Background(), "GET", "http://example.test/", ""))
	if err != nil || resp.StatusCode != 200 || len(rt.reqs) != 2 {
		t.Fatalf("RoundTrip = %v, %v after %d attempts", resp, err, len(rt.reqs))
	}
	if len(retried) != 1 || retried[0] != 409 {
		t.Fatalf("OnRetry saw %v", retried)
	}
	// OutcomeFail stops at once and drains nothing.
	b := new(TokenBucket)
	rt2 := &fakeRT{answer: func(int, *http.Request) (*http.Response, error) { return status(503, ""), nil }}
	tr2 := &Transport{Base: rt2, Backoff: quick, Budget: b,
		Classify: func(*http.Request, *http.Response, error) Outcome { return OutcomeFail }}
	resp, _ = tr2.RoundTrip(newRequest(t, context.Background(), "GET", "http://example.test/", ""))
	if resp.StatusCode != 503 || len(rt2.reqs) != 1 || b.tokens() != 1000 {
		t.Fatalf("OutcomeFail: %d attempts, tokens %v", len(rt2.reqs), b.tokens())
	}
	// PrepareRetry's error ends the round trip.
	rt3 := &fakeRT{answer: func(int, *http.Request) (*http.Response, error) { return status(503, ""), nil }}
	errSign := errors.New("cannot sign")
	tr3 := &Transport{Base: rt3, Backoff: quick, Budget: new(TokenBucket), PrepareRetry: func(*http.Request) error { return errSign }}
	if _, err := tr3.RoundTrip(newRequest(t, context.Background(), "GET", "http://example.test/", "")); err != errSign || len(rt3.reqs) != 1 {
		t.Fatalf("PrepareRetry error: %v after %d attempts", err, len(rt3.reqs))
	}
}
