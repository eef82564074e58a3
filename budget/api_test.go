package budget

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestBreakerPermitFromAnOldGenerationIsIgnored(t *testing.T) {
	clk := newFakeClock()
	br := clocked{NewBreaker(BreakerConfig{MinRequests: 1}), clk}
	old, ok := br.Admit()
	if !ok {
		t.Fatal("closed breaker refused")
	}
	br.Open()
	clk.Advance(DefaultBreakerCooldown)
	probe, ok := br.Admit()
	if !ok || br.State() != BreakerHalfOpen {
		t.Fatal("no probe after the cooldown")
	}
	old.Done(nil)
	if br.State() != BreakerHalfOpen {
		t.Fatalf("an old permit's success moved the breaker to %v", br.State())
	}
	probe.Done(nil)
	if br.State() != BreakerClosed {
		t.Fatalf("the probe's success left the breaker %v", br.State())
	}
}

func TestBreakerClassificationAndManualControl(t *testing.T) {
	clk := newFakeClock()
	errNotFound := errors.New("not found")
	br := clocked{NewBreaker(BreakerConfig{
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
	br.Open()
	if _, ok := br.Admit(); ok {
		t.Fatal("Open did not open")
	}
	br.Close()
	if _, ok := br.Admit(); !ok || br.State() != BreakerClosed {
		t.Fatal("Close did not close")
	}
	br.Reset()
	if s := br.Stats(); s.Requests != 0 || s.Opens != 0 || s.Rejected != 0 {
		t.Fatalf("Reset left %+v", s)
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

func TestDoRetryIf(t *testing.T) {
	b := GRPCBudget()
	errNotFound := errors.New("not found")
	calls := 0
	err := Do(context.Background(), func(context.Context) error {
		calls++
		return errNotFound
	}, WithBudget(b), RetryIf(func(err error) bool { return !errors.Is(err, errNotFound) }))
	if e := asError(t, err); e.Reason != ReasonPermanent || calls != 1 || !errors.Is(err, errNotFound) {
		t.Fatalf("Do = %v after %d calls, want a permanent not found after 1", err, calls)
	}
	if b.Tokens() != 1000 {
		t.Fatalf("an error RetryIf refused took a token: %v", b.Tokens())
	}
}

func TestDoAttemptTimeout(t *testing.T) {
	b := GRPCBudget()
	calls := 0
	err := Do(context.Background(), func(ctx context.Context) error {
		calls++
		if calls == 1 {
			<-ctx.Done() // the first attempt hangs until its own timeout
			return ctx.Err()
		}
		return nil
	}, WithBudget(b), WithAttemptTimeout(10*time.Millisecond), WithBackoff(quick))
	if err != nil || calls != 2 {
		t.Fatalf("Do = %v after %d calls, want success on the second", err, calls)
	}
	if s := b.Stats(); s.Failures != 1 {
		t.Fatalf("the attempt's own timeout was not recorded as a failure: %v", s)
	}
}

func TestDoWithNameHasItsOwnBudget(t *testing.T) {
	a, b := Named("test-dep-a"), Named("test-dep-b")
	if a == b || Named("test-dep-a") != a {
		t.Fatal("Named does not keep one budget per name")
	}
	Do(context.Background(), func(context.Context) error { return errBoom }, WithName("test-dep-a"), WithBackoff(quick))
	if a.Stats().Requests == 0 || b.Stats().Requests != 0 {
		t.Fatalf("WithName recorded in the wrong budget: a %v, b %v", a.Stats(), b.Stats())
	}
	var m map[string]map[string]float64
	if err := json.Unmarshal([]byte(Vars().String()), &m); err != nil {
		t.Fatal(err)
	}
	if _, ok := m["default"]; !ok || m["test-dep-a"]["requests"] == 0 {
		t.Fatalf("Vars() = %s", Vars().String())
	}
	if s := StatsVar(a.Stats).String(); !strings.Contains(s, `"retries_denied":`) || !strings.Contains(s, `"retry_ratio":`) {
		t.Fatalf("StatsVar = %s", s)
	}
	if s := BreakerStatsVar(NewBreaker(BreakerConfig{Name: "x"}).Stats).String(); !strings.Contains(s, `"state":"closed"`) {
		t.Fatalf("BreakerStatsVar = %s", s)
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
		Base: rt, Backoff: quick, Budget: GRPCBudget(),
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
	b := GRPCBudget()
	rt2 := &fakeRT{answer: func(int, *http.Request) (*http.Response, error) { return status(503, ""), nil }}
	tr2 := &Transport{Base: rt2, Backoff: quick, Budget: b,
		Classify: func(*http.Request, *http.Response, error) Outcome { return OutcomeFail }}
	resp, _ = tr2.RoundTrip(newRequest(t, context.Background(), "GET", "http://example.test/", ""))
	if resp.StatusCode != 503 || len(rt2.reqs) != 1 || b.Tokens() != 1000 {
		t.Fatalf("OutcomeFail: %d attempts, tokens %v", len(rt2.reqs), b.Tokens())
	}
	// PrepareRetry's error ends the round trip.
	rt3 := &fakeRT{answer: func(int, *http.Request) (*http.Response, error) { return status(503, ""), nil }}
	errSign := errors.New("cannot sign")
	tr3 := &Transport{Base: rt3, Backoff: quick, Budget: GRPCBudget(), PrepareRetry: func(*http.Request) error { return errSign }}
	if _, err := tr3.RoundTrip(newRequest(t, context.Background(), "GET", "http://example.test/", "")); err != errSign || len(rt3.reqs) != 1 {
		t.Fatalf("PrepareRetry error: %v after %d attempts", err, len(rt3.reqs))
	}
}
