package budget_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"time"

	"github.com/retrylint/retrylint/budget"
)

// errUnavailable stands for a transient failure of a dependency.
var errUnavailable = errors.New("ledger unavailable")

// A budget per dependency, shared by every call to it.
var ledgerBudget = new(budget.Adaptive)

func ExampleDo() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()

	calls := 0
	err := budget.Do(ctx, func(ctx context.Context) error {
		calls++
		if calls < 2 {
			return errUnavailable // transient: retried with backoff
		}
		return nil
	},
		budget.WithBudget(ledgerBudget),
		budget.WithBackoff(budget.Backoff{Base: time.Millisecond, Cap: 10 * time.Millisecond}),
		budget.OnRetry(func(attempt int, err error, _ time.Duration) {
			fmt.Printf("attempt %d failed: %v\n", attempt, err)
		}))
	fmt.Println("calls:", calls, "err:", err)
	// Output:
	// attempt 1 failed: ledger unavailable
	// calls: 2 err: <nil>
}

func ExampleDo_giveUp() {
	err := budget.Do(context.Background(), func(context.Context) error {
		return errUnavailable
	}, budget.WithBudget(new(budget.TokenBucket)), budget.WithBackoff(budget.Backoff{Base: time.Millisecond}))

	var e *budget.Error
	if errors.As(err, &e) {
		fmt.Println("reason:", e.Reason)
		fmt.Println("attempts:", e.Attempts)
	}
	fmt.Println("is unavailable:", errors.Is(err, errUnavailable))
	fmt.Println(err)
	// Output:
	// reason: attempts exhausted
	// attempts: 3
	// is unavailable: true
	// budget: gave up after 3 attempts (attempts exhausted): ledger unavailable
}

func ExamplePermanent() {
	calls := 0
	err := budget.Do(context.Background(), func(context.Context) error {
		calls++
		return budget.Permanent(errors.New("invalid account number"))
	})
	fmt.Println(calls, err)
	// Output:
	// 1 budget: gave up after 1 attempt (permanent error): invalid account number
}

func ExampleRetryAfter() {
	calls := 0
	var waited time.Duration
	err := budget.Do(context.Background(), func(context.Context) error {
		calls++
		if calls == 1 {
			// The server said "come back in 20ms".
			return budget.RetryAfter(errUnavailable, 20*time.Millisecond)
		}
		return nil
	},
		budget.WithBudget(new(budget.Adaptive)),
		budget.WithBackoff(budget.Backoff{Base: time.Millisecond, Jitter: budget.NoJitter}),
		budget.OnRetry(func(_ int, _ error, d time.Duration) { waited = d }))
	fmt.Println(calls, waited, err)
	// Output:
	// 2 20ms <nil>
}

func ExampleDoValue() {
	balance, err := budget.DoValue(context.Background(), func(context.Context) (int, error) {
		return 42, nil
	}, budget.WithBudget(ledgerBudget))
	fmt.Println(balance, err)
	// Output:
	// 42 <nil>
}

func ExampleAdaptive() {
	var b budget.Adaptive // 10% of the last second's successful first tries, plus one per 5 s

	// A healthy moment: 100 first tries succeed, so 10 retries are earned.
	for i := 0; i < 100; i++ {
		b.Record(nil)
	}
	granted := 0
	for b.Allow() {
		granted++
	}
	fmt.Println("retries granted:", granted) // 10 earned + 1 from the floor
	s := b.Stats()
	fmt.Println("requests:", s.Requests, "allowed:", s.RetriesAllowed, "denied:", s.RetriesDenied)
	// Output:
	// retries granted: 11
	// requests: 100 allowed: 11 denied: 1
}

func ExampleNewAdaptive() {
	if _, err := budget.NewAdaptive(0.1, 0.2, time.Hour); err != nil {
		fmt.Println(err)
	}
	// A quieter floor for a fleet of thousands of small processes.
	b, err := budget.NewAdaptive(0.1, 0, time.Second)
	fmt.Println(b.Allow(), err) // nothing earned, no floor: no retry
	// Output:
	// budget: invalid window 1h0m0s: must be in [100ms, 60s]
	// false <nil>
}

func ExampleTokenBucket() {
	var b budget.TokenBucket // gRPC's: maxTokens 1000, tokenRatio 0.1, full

	// The dependency goes down: every attempt fails.
	for i := 0; i < 500; i++ {
		b.Record(errUnavailable)
	}
	fmt.Println("retry allowed:", b.Allow())

	// It recovers: each success gives back 0.1 token.
	for i := 0; i < 10; i++ {
		b.Record(nil)
	}
	fmt.Println("retry allowed:", b.Allow())
	s := b.Stats()
	fmt.Printf("requests=%d failures=%d retry_ratio=%.3f\n", s.Requests, s.Failures, s.RetryRatio())
	// Output:
	// retry allowed: false
	// retry allowed: true
	// requests=510 failures=500 retry_ratio=0.002
}

func ExampleNewTokenBucket() {
	if _, err := budget.NewTokenBucket(10, 0); err != nil {
		fmt.Println(err)
	}
	b, err := budget.NewTokenBucket(10, 0.1) // the gRFC A6 example
	for i := 0; i < 5; i++ {
		b.Record(errUnavailable) // 5 of 10 tokens gone: no more than half left
	}
	fmt.Println(b.Allow(), err)
	// Output:
	// budget: invalid tokenRatio 0: must be positive
	// false <nil>
}

func ExampleBackoff() {
	// A fixed Rand makes the delays reproducible; leave it nil in production.
	b := budget.Backoff{Rand: func() float64 { return 0.5 }}
	var delays []time.Duration
	seq := b.Start() // one Sequence per call
	for retry := 0; retry < 9; retry++ {
		delays = append(delays, seq.Next())
	}
	fmt.Println(delays)

	// The ceilings themselves, without jitter.
	seq = budget.Backoff{Jitter: budget.NoJitter}.Start()
	delays = delays[:0]
	for i := 0; i < 9; i++ {
		delays = append(delays, seq.Next())
	}
	fmt.Println(delays)
	// Output:
	// [50ms 100ms 200ms 400ms 800ms 1.6s 3.2s 5s 5s]
	// [100ms 200ms 400ms 800ms 1.6s 3.2s 6.4s 10s 10s]
}

func ExampleJitter() {
	d := budget.Jitter(time.Second)
	fmt.Println(d >= 0 && d < time.Second)
	// Output:
	// true
}

func ExampleSleep() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()

	// A 1h wait cannot finish before the 1s deadline: Sleep returns at once.
	start := time.Now()
	err := budget.Sleep(ctx, time.Hour)
	fmt.Println(err, time.Since(start) < time.Second)

	fmt.Println(budget.Sleep(ctx, time.Millisecond))
	// Output:
	// context deadline exceeded true
	// <nil>
}

func ExampleNewIdempotencyKey() {
	// Mint the key once per logical operation, before any retry.
	key := budget.NewIdempotencyKey()
	req, _ := http.NewRequest("POST", "http://ledger.internal/transfers", strings.NewReader(`{"amount":10}`))
	req.Header.Set(budget.IdempotencyKeyHeader, key)

	fmt.Println(len(key), key[14:15], strings.Count(key, "-"))
	// Output:
	// 36 4 4
}

func ExampleTransport() {
	// A server that fails the first attempt of everything.
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hits.Add(1)%2 == 1 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		fmt.Printf("server: %s key=%s attempt=%s\n", r.Method, r.Header.Get(budget.IdempotencyKeyHeader), r.Header.Get(budget.AttemptHeader))
		io.WriteString(w, "done")
	}))
	defer srv.Close()

	client := &http.Client{
		Transport: &budget.Transport{Backoff: budget.Backoff{Base: time.Millisecond}},
		Timeout:   10 * time.Second,
	}

	// A POST with a key is retried with the same key.
	req, _ := http.NewRequest("POST", srv.URL, strings.NewReader("amount=10"))
	req.Header.Set(budget.IdempotencyKeyHeader, "transfer-7")
	resp, err := client.Do(req)
	if err != nil {
		fmt.Println(err)
		return
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Println(resp.StatusCode, string(body))

	// A POST without a key is never sent twice: the 503 comes back.
	resp, err = client.Post(srv.URL, "text/plain", strings.NewReader("amount=10"))
	if err != nil {
		fmt.Println(err)
		return
	}
	resp.Body.Close()
	fmt.Println(resp.StatusCode, "after", hits.Load(), "requests in all")
	// Output:
	// server: POST key=transfer-7 attempt=1
	// 200 done
	// 503 after 3 requests in all
}

func ExampleBreaker() {
	br := &budget.Breaker{Name: "ledger", Cooldown: 10 * time.Millisecond}
	for i := 0; i < 20; i++ { // 20 of 20 requests fail within 10s
		if p, ok := br.Admit(); ok {
			p.Done(errUnavailable)
		}
	}
	_, ok := br.Admit()
	fmt.Println(br.Stats().State, ok)

	time.Sleep(10 * time.Millisecond) // the cooldown passes
	probe, ok := br.Admit()
	_, again := br.Admit()
	fmt.Println(ok, br.Stats().State, again)

	probe.Done(nil) // the probe succeeded
	fmt.Println(br.Stats().State)

	err := budget.Do(context.Background(), func(context.Context) error { return nil }, budget.WithBreaker(br))
	fmt.Println(err)
	// Output:
	// open false
	// true half-open false
	// closed
	// <nil>
}
