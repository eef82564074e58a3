//go:build go1.25

// The module's go 1.22 line keeps the pre-1.23 timer channels, which
// testing/synctest does not support; the test binary opts into the new ones.
//go:debug asynctimerchan=0

package budget

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"testing/synctest"
	"time"
)

// The tests in this file wait on fake time in a synctest bubble, so the
// waits are exact and take no real time.

func TestSyncDoWaitsTheBackoff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		var at []time.Duration
		err := Do(context.Background(), func(context.Context) error {
			at = append(at, time.Since(start))
			return errBoom
		}, WithBudget(new(TokenBucket)), WithAttempts(4), WithBackoff(Backoff{Jitter: NoJitter}))
		if e := asError(t, err); e.Reason != ReasonAttempts || e.Attempts != 4 {
			t.Fatalf("Do = %v", err)
		}
		want := []time.Duration{0, 100 * time.Millisecond, 300 * time.Millisecond, 700 * time.Millisecond}
		for i := range want {
			if at[i] != want[i] {
				t.Fatalf("attempts at %v, want %v", at, want)
			}
		}
	})
}

func TestSyncDoFullJitter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		var at []time.Duration
		op, _ := failing(2, errBoom)
		err := Do(context.Background(), func(ctx context.Context) error {
			at = append(at, time.Since(start))
			return op(ctx)
		}, WithBudget(new(TokenBucket)), WithBackoff(Backoff{Rand: fixed(0.5)}))
		if err != nil {
			t.Fatal(err)
		}
		// Half of [0,100ms), then half of [0,200ms).
		want := []time.Duration{0, 50 * time.Millisecond, 150 * time.Millisecond}
		for i := range want {
			if at[i] != want[i] {
				t.Fatalf("attempts at %v, want %v", at, want)
			}
		}
	})
}

func TestSyncDoStopsBeforeTheDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 250*time.Millisecond)
		defer cancel()
		start := time.Now()
		err := Do(ctx, func(context.Context) error { return errBoom },
			WithBudget(new(TokenBucket)), WithAttempts(5), WithBackoff(Backoff{Jitter: NoJitter}))
		// Attempts at 0 and 100ms; the next wait (200ms) would end at 300ms,
		// past the 250ms deadline, so Do gives up at 100ms without waiting.
		if e := asError(t, err); e.Reason != ReasonDeadline || e.Attempts != 2 {
			t.Fatalf("Do = %+v, want ReasonDeadline after 2", e)
		}
		if el := time.Since(start); el != 100*time.Millisecond {
			t.Fatalf("gave up after %v, want 100ms", el)
		}
	})
}

func TestSyncDoDeadlineDuringAttempt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		err := Do(ctx, func(ctx context.Context) error {
			<-ctx.Done() // the dependency stalls past the deadline
			return ctx.Err()
		}, WithBudget(new(TokenBucket)))
		e := asError(t, err)
		if e.Reason != ReasonDeadline || e.Attempts != 1 || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Do = %+v, want ReasonDeadline after 1", e)
		}
	})
}

func TestSyncSleep(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		start := time.Now()
		if err := Sleep(ctx, 400*time.Millisecond); err != nil {
			t.Fatal(err)
		}
		if el := time.Since(start); el != 400*time.Millisecond {
			t.Fatalf("slept %v, want 400ms", el)
		}
		if err := Sleep(ctx, time.Second); err != context.DeadlineExceeded {
			t.Fatalf("Sleep past the deadline = %v", err)
		}
		if el := time.Since(start); el != 400*time.Millisecond {
			t.Fatalf("a wait past the deadline was started: %v", el)
		}
		c2, cancel2 := context.WithCancel(context.Background())
		time.AfterFunc(time.Second, cancel2)
		if err := Sleep(c2, time.Hour); err != context.Canceled {
			t.Fatalf("Sleep = %v, want context.Canceled", err)
		}
		if el := time.Since(start); el != 1400*time.Millisecond {
			t.Fatalf("cancel observed at %v, want 1.4s", el)
		}
	})
}

func TestSyncTransportRetryAfter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		var at []time.Duration
		rt := &fakeRT{answer: func(n int, _ *http.Request) (*http.Response, error) {
			at = append(at, time.Since(start))
			switch n {
			case 1:
				r := status(429, "")
				r.Header.Set("Retry-After", "2")
				return r, nil
			case 2:
				r := status(503, "")
				r.Header.Set("Retry-After", time.Now().Add(5*time.Second).UTC().Format(http.TimeFormat))
				return r, nil
			}
			return status(200, "ok"), nil
		}}
		tr := &Transport{Base: rt, Backoff: quick, Budget: new(TokenBucket)}
		resp, err := tr.RoundTrip(newRequest(t, context.Background(), "GET", "http://example.test/", ""))
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("RoundTrip = %v, %v", resp, err)
		}
		want := []time.Duration{0, 2 * time.Second, 7 * time.Second}
		for i := range want {
			if at[i] != want[i] {
				t.Fatalf("attempts at %v, want %v", at, want)
			}
		}
	})
}

func TestSyncAdaptiveAndBreakerRealClock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, _ := NewAdaptive(0.5, 0, time.Second)
		for i := 0; i < 4; i++ {
			r.Record(nil)
		}
		if !r.Allow() || !r.Allow() || r.Allow() {
			t.Fatal("want exactly 2 retries for 4 requests at 50%")
		}
		time.Sleep(time.Second)
		if r.Allow() {
			t.Fatal("requests outlived the window")
		}

		var b Breaker
		for i := 0; i < 20; i++ {
			p, _ := b.Admit()
			p.Done(errBoom)
		}
		if _, ok := b.Admit(); ok {
			t.Fatal("breaker did not open")
		}
		time.Sleep(5 * time.Second)
		if _, ok := b.Admit(); !ok {
			t.Fatal("no probe after the cooldown")
		}
	})
}
