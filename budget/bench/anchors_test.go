package bench

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/cenkalti/backoff/v5"
	"github.com/retrylint/retrylint/budget"
	"github.com/sony/gobreaker/v2"
)

// gobreakerSettings configure gobreaker v2 as the zero budget.Breaker is:
// a 10 s window in 1 s buckets, open above 50% failures once there are 20
// requests, 5 s open.
func gobreakerSettings() gobreaker.Settings {
	return gobreaker.Settings{
		Interval:     10 * time.Second,
		BucketPeriod: time.Second,
		Timeout:      5 * time.Second,
		ReadyToTrip: func(c gobreaker.Counts) bool {
			return c.Requests >= 20 && 2*c.TotalFailures > c.Requests
		},
	}
}

// BenchmarkBreaker is a breaker's healthy path: an attempt is admitted and
// its success reported.
func BenchmarkBreaker(b *testing.B) {
	b.Run("budget.Breaker", func(b *testing.B) {
		var br budget.Breaker
		run(b, func(int) {
			if p, ok := br.Admit(); ok {
				p.Done(nil)
			}
		})
	})
	b.Run("gobreaker.TwoStep", func(b *testing.B) {
		cb := gobreaker.NewTwoStepCircuitBreaker[struct{}](gobreakerSettings())
		run(b, func(int) {
			if done, err := cb.Allow(); err == nil {
				done(nil)
			}
		})
	})
	b.Run("gobreaker.Execute", func(b *testing.B) {
		cb := gobreaker.NewCircuitBreaker[struct{}](gobreakerSettings())
		op := func() (struct{}, error) { return struct{}{}, nil }
		run(b, func(int) { _, _ = cb.Execute(op) })
	})
}

// BenchmarkBackoff is the delays of one call that retries twice: a fresh
// per-call state and two delays, as a retry loop uses them.
func BenchmarkBackoff(b *testing.B) {
	b.Run("budget.Backoff", func(b *testing.B) {
		bo := budget.Backoff{}
		run(b, func(int) {
			s := bo.Start()
			s.Next()
			s.Next()
		})
	})
	b.Run("backoff.ExponentialBackOff", func(b *testing.B) {
		run(b, func(int) {
			e := backoff.NewExponentialBackOff()
			e.NextBackOff()
			e.NextBackOff()
		})
	})
}

// BenchmarkDo is a call that succeeds at once: budget.Do with its
// defaults (the process-wide Adaptive, the zero Backoff) against
// backoff.Retry with its defaults (ExponentialBackOff, 15 min of retries).
func BenchmarkDo(b *testing.B) {
	ctx := context.Background()
	b.Run("budget.Do", func(b *testing.B) {
		op := func(context.Context) error { return nil }
		run(b, func(int) { _ = budget.Do(ctx, op) })
	})
	b.Run("budget.Do+WithBudget", func(b *testing.B) {
		var bu budget.Adaptive
		opt := budget.WithBudget(&bu) // built once, as the Option docs allow
		op := func(context.Context) error { return nil }
		run(b, func(int) { _ = budget.Do(ctx, op, opt) })
	})
	b.Run("backoff.Retry", func(b *testing.B) {
		op := func() (struct{}, error) { return struct{}{}, nil }
		run(b, func(int) { _, _ = backoff.Retry(ctx, op) })
	})
}

// TestBreakersAgree checks that gobreaker, configured as above, opens and
// stays closed where budget.Breaker does, so the comparison is like for
// like: 19 failures leave both closed, the 20th opens both, and a healthy
// stream never opens either.
func TestBreakersAgree(t *testing.T) {
	fail := errors.New("unavailable")
	var br budget.Breaker
	cb := gobreaker.NewTwoStepCircuitBreaker[struct{}](gobreakerSettings())
	for i := 1; i <= 20; i++ {
		p, ok := br.Admit()
		done, err := cb.Allow()
		if !ok || err != nil {
			t.Fatalf("attempt %d: budget.Breaker admits %v, gobreaker refuses with %v; want both to admit", i, ok, err)
		}
		p.Done(fail)
		done(fail)
	}
	_, ok := br.Admit()
	_, err := cb.Allow()
	if ok || !errors.Is(err, gobreaker.ErrOpenState) {
		t.Fatalf("after 20 failures: budget.Breaker admits %v, gobreaker says %v; want both open", ok, err)
	}

	var healthy budget.Breaker
	hcb := gobreaker.NewTwoStepCircuitBreaker[struct{}](gobreakerSettings())
	for i := 0; i < 1000; i++ {
		p, ok := healthy.Admit()
		done, err := hcb.Allow()
		if !ok || err != nil {
			t.Fatalf("healthy attempt %d: budget.Breaker admits %v, gobreaker says %v", i, ok, err)
		}
		var e error
		if i%10 == 0 {
			e = fail // 10% failures: under the threshold
		}
		p.Done(e)
		done(e)
	}
}
