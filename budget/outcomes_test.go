package budget

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The tests in this file pin that outcomes are counted where they belong:
// each was written against a defect and failed before its fix.

// A request admitted while the breaker was closed and finishing after the
// half-open probe was let through must not decide the probe's verdict.
func TestBreakerStragglerDoesNotDecideProbe(t *testing.T) {
	const cooldown = 20 * time.Millisecond
	br := (&Breaker{Cooldown: cooldown})
	ctx := context.Background()

	// The straggler is admitted while closed and holds on.
	straggler := make(chan struct{})
	started := make(chan struct{})
	stragglerDone := make(chan error)
	go func() {
		stragglerDone <- Do(ctx, func(context.Context) error {
			close(started)
			<-straggler
			return nil
		}, WithBreaker(br), WithAttempts(1))
	}()
	<-started

	// Twenty failures open the breaker.
	for range 20 {
		Do(ctx, func(context.Context) error { return errBoom }, WithBreaker(br), WithAttempts(1))
	}
	if br.Stats().State != BreakerOpen {
		t.Fatalf("state %v after 20 failures, want open", br.Stats().State)
	}
	time.Sleep(cooldown)

	// The probe goes out and holds on; then the straggler succeeds.
	probe := make(chan error)
	probeDone := make(chan error)
	go func() {
		probeDone <- Do(ctx, func(context.Context) error { return <-probe }, WithBreaker(br), WithAttempts(1))
	}()
	waitUntil(t, func() bool { return br.Stats().State == BreakerHalfOpen })
	close(straggler)
	<-stragglerDone
	if s := br.Stats().State; s != BreakerHalfOpen {
		t.Fatalf("the straggler's success moved the breaker to %v; the probe has not reported", s)
	}
	probe <- errBoom
	<-probeDone
	if s := br.Stats().State; s != BreakerOpen {
		t.Fatalf("state %v after the probe failed, want open", s)
	}
}

func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached in 5s")
		}
		time.Sleep(time.Millisecond)
	}
}

// The caller's own cancellation says nothing about the dependency.
func TestDoCallerCancellationIsNotAFailure(t *testing.T) {
	b := new(TokenBucket)
	br := (&Breaker{})
	for range 500 {
		ctx, cancel := context.WithCancel(context.Background())
		Do(ctx, func(ctx context.Context) error {
			cancel()
			return ctx.Err()
		}, WithBudget(b), WithBreaker(br))
	}
	if got := b.tokens(); got != 1000 {
		t.Errorf("tokens %v after 500 cancelled calls, want 1000", got)
	}
	if !b.Allow() {
		t.Error("Allow false after 500 calls the caller cancelled")
	}
	if s := br.Stats().State; s != BreakerClosed {
		t.Errorf("breaker %v after calls the caller cancelled, want closed", s)
	}
	// A deadline of the caller's own is the caller's too.
	for range 20 {
		ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
		Do(ctx, func(ctx context.Context) error {
			<-ctx.Done()
			return ctx.Err()
		}, WithBudget(b), WithBreaker(br))
		cancel()
	}
	if s := br.Stats().State; s != BreakerClosed {
		t.Errorf("breaker %v after 20 calls past the caller's deadline, want closed", s)
	}
	if got := b.tokens(); got != 1000 {
		t.Errorf("tokens %v after calls past the caller's deadline, want 1000", got)
	}
}

// countingRT counts the attempts that reach the base transport.
type countingRT struct {
	base http.RoundTripper
	n    atomic.Int32
}

func (c *countingRT) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return c.base.RoundTrip(r)
}

// Errors no retry can fix are sent once and drain nothing.
func TestTransportDoesNotRetryUnfixableErrors(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	for _, tc := range []struct{ name, url string }{
		{"unsupported scheme", "gopher://" + srv.Listener.Addr().String() + "/"},
		{"unknown authority", srv.URL + "/"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := new(TokenBucket)
			rt := &countingRT{base: http.DefaultTransport}
			c := &http.Client{Transport: &Transport{Base: rt, Budget: b, Backoff: Backoff{Base: time.Millisecond}}}
			resp, err := c.Get(tc.url)
			if err == nil {
				resp.Body.Close()
				t.Fatal("request succeeded, want an error")
			}
			if n := rt.n.Load(); n != 1 {
				t.Errorf("%d attempts for %v, want 1", n, err)
			}
			if got := b.tokens(); got != 1000 {
				t.Errorf("tokens %v, want 1000: the error says nothing about the dependency's load", got)
			}
		})
	}
}

// A retry the breaker refused was never sent and is not counted as one.
func TestDoStatsCountOnlyRetriesSent(t *testing.T) {
	b := new(TokenBucket)
	br := (&Breaker{MinRequests: 1})
	runs := 0
	err := Do(context.Background(), func(context.Context) error {
		runs++
		return errBoom
	}, WithBudget(b), WithBreaker(br), WithBackoff(Backoff{Base: time.Microsecond}))
	if e := asError(t, err); e.Reason != ReasonBreakerOpen {
		t.Fatalf("Do = %v, want the breaker to refuse the retry", err)
	}
	if runs != 1 {
		t.Fatalf("op ran %d times, want 1", runs)
	}
	if s := b.Stats(); s.RetriesAllowed != 0 {
		t.Errorf("Stats %v: counted a retry that was never sent", s)
	}
}

// State changes reach OnStateChange in the order they happened.
func TestBreakerStateChangesInOrder(t *testing.T) {
	var mu sync.Mutex
	var seen [][2]BreakerState
	br := (&Breaker{
		MinRequests: 1,
		Cooldown:    time.Nanosecond,
		OnStateChange: func(from, to BreakerState) {
			mu.Lock()
			seen = append(seen, [2]BreakerState{from, to})
			mu.Unlock()
		},
	})
	changes := func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(seen)
	}
	// How many changes a round makes depends on the scheduler (a loaded
	// machine interleaves less): run rounds until there are enough to
	// judge the order, within a bound.
	for round := 0; round < 20 && changes() < 100; round++ {
		var wg sync.WaitGroup
		for g := range 64 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range 250 {
					var err error
					if (g+i)%2 == 0 {
						err = errBoom
					}
					Do(context.Background(), func(context.Context) error { return err }, WithBreaker(br), WithAttempts(1), WithBudget(new(TokenBucket)))
				}
			}()
		}
		wg.Wait()
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) < 100 {
		t.Fatalf("only %d state changes; the test needs many", len(seen))
	}
	bad := 0
	prev := BreakerClosed
	for _, c := range seen {
		if c[0] != prev {
			bad++
		}
		prev = c[1]
	}
	if bad > 0 {
		t.Errorf("%d of %d state changes delivered out of order", bad, len(seen))
	}
	if st := br.Stats().State; prev != st {
		t.Errorf("last change delivered went to %v, state is %v", prev, st)
	}
}

// Finagle deposits for first tries only: a 20% budget allows retries up to
// 20% of first tries, not of all requests.
