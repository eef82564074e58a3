package budget

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// quick is a backoff with tiny deterministic delays, for tests that must not wait.
var quick = Backoff{Base: time.Microsecond, Cap: time.Microsecond, Jitter: NoJitter}

// failing returns an op that fails n times with err, then succeeds, and a
// pointer to its call count.
func failing(n int, err error) (func(context.Context) error, *int) {
	calls := 0
	return func(context.Context) error {
		calls++
		if calls <= n {
			return err
		}
		return nil
	}, &calls
}

func asError(t *testing.T, err error) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not a *budget.Error", err, err)
	}
	return e
}

func TestDoSucceedsFirstTime(t *testing.T) {
	op, calls := failing(0, errBoom)
	var b Adaptive
	if err := Do(context.Background(), op, WithBudget(&b)); err != nil {
		t.Fatalf("Do = %v", err)
	}
	if *calls != 1 {
		t.Fatalf("op ran %d times, want 1", *calls)
	}
	if s := b.Stats(); s.Requests != 1 || s.RetriesAllowed != 0 {
		t.Fatalf("Stats = %+v", s)
	}
}

func TestDoRetriesThenSucceeds(t *testing.T) {
	op, calls := failing(2, errBoom)
	b := new(TokenBucket)
	type retry struct {
		attempt int
		err     error
		delay   time.Duration
	}
	var retries []retry
	err := Do(context.Background(), op, WithBudget(b),
		WithBackoff(Backoff{Base: time.Millisecond, Rand: fixed(0.5)}),
		OnRetry(func(a int, err error, d time.Duration) { retries = append(retries, retry{a, err, d}) }))
	if err != nil {
		t.Fatalf("Do = %v", err)
	}
	if *calls != 3 {
		t.Fatalf("op ran %d times, want 3", *calls)
	}
	want := []retry{{1, errBoom, 500 * time.Microsecond}, {2, errBoom, time.Millisecond}}
	if len(retries) != 2 || retries[0] != want[0] || retries[1] != want[1] {
		t.Fatalf("OnRetry saw %v, want %v", retries, want)
	}
	want2 := Stats{Requests: 3, Failures: 2, RetriesAllowed: 2}
	if s := b.Stats(); s != want2 {
		t.Fatalf("Stats = %+v, want %+v", s, want2)
	}
}

func TestDoGivesUpAfterAttempts(t *testing.T) {
	op, calls := failing(100, errBoom)
	err := Do(context.Background(), op, WithBudget(new(TokenBucket)), WithBackoff(quick))
	e := asError(t, err)
	if e.Reason != ReasonAttempts || e.Attempts != 3 || e.Err != errBoom || *calls != 3 {
		t.Fatalf("Do = %+v after %d calls, want ReasonAttempts after 3", e, *calls)
	}
	if !errors.Is(err, errBoom) {
		t.Fatal("errors.Is does not reach the last failure")
	}
	if got, want := err.Error(), "budget: gave up after 3 attempts (attempts exhausted): boom"; got != want {
		t.Fatalf("Error() = %q, want %q", got, want)
	}
}

func TestDoAttemptLimits(t *testing.T) {
	for _, tt := range []struct{ n, want int }{{-1, 3}, {0, 3}, {1, 1}, {2, 2}, {10, 10}, {11, 10}, {1000, 10}} {
		op, calls := failing(100, errBoom)
		err := Do(context.Background(), op, WithAttempts(tt.n), WithBudget(new(TokenBucket)), WithBackoff(quick))
		if e := asError(t, err); e.Attempts != tt.want || *calls != tt.want {
			t.Errorf("WithAttempts(%d): %d attempts, %d calls; want %d", tt.n, e.Attempts, *calls, tt.want)
		}
	}
}

type codeError struct{ code int }

func (e *codeError) Error() string { return fmt.Sprintf("code %d", e.code) }

func TestDoPermanentStopsAtOnce(t *testing.T) {
	inner := &codeError{400}
	calls := 0
	b := new(TokenBucket)
	err := Do(context.Background(), func(context.Context) error {
		calls++
		return fmt.Errorf("call: %w", Permanent(inner))
	}, WithBudget(b), WithBackoff(quick))
	e := asError(t, err)
	if e.Reason != ReasonPermanent || calls != 1 || e.Attempts != 1 {
		t.Fatalf("Do = %+v after %d calls, want ReasonPermanent after 1", e, calls)
	}
	var ce *codeError
	if !errors.As(err, &ce) || ce.code != 400 {
		t.Fatal("errors.As does not reach the operation's error")
	}
	if b.tokens() != 1000 {
		t.Fatalf("a permanent error took a token: Tokens() = %v", b.tokens())
	}

	// A bare Permanent is unwrapped in Err.
	err = Do(context.Background(), func(context.Context) error { return Permanent(inner) }, WithBudget(new(TokenBucket)))
	if e := asError(t, err); e.Err != inner {
		t.Fatalf("Err = %#v, want the unmarked error", e.Err)
	}
	if Permanent(nil) != nil || RetryAfter(nil, time.Second) != nil {
		t.Fatal("marking a nil error is not nil")
	}
	if !isPermanent(errors.Join(errBoom, Permanent(errBoom))) || isPermanent(errBoom) || isPermanent(nil) {
		t.Fatal("IsPermanent is wrong")
	}
	if Permanent(errBoom).Error() != "boom" || RetryAfter(errBoom, 1).Error() != "boom" {
		t.Fatal("marks change the message")
	}
}

func TestDoBudgetExhausted(t *testing.T) {
	b, _ := NewTokenBucket(10, 0.1)
	for i := 0; i < 5; i++ {
		b.Record(errBoom)
	}
	op, calls := failing(100, errBoom)
	err := Do(context.Background(), op, WithBudget(b), WithBackoff(quick))
	e := asError(t, err)
	if e.Reason != ReasonBudget || e.Attempts != 1 || *calls != 1 || e.Err != errBoom {
		t.Fatalf("Do = %+v after %d calls, want ReasonBudget after 1", e, *calls)
	}
	if s := b.Stats(); s.RetriesDenied != 1 || s.Requests != 6 {
		t.Fatalf("Stats = %+v", s)
	}
}

func TestDoUsesTheSharedBudget(t *testing.T) {
	before := shared.Stats()
	op, _ := failing(1, errBoom)
	if err := Do(context.Background(), op, WithBackoff(quick), WithBudget(nil)); err != nil {
		t.Fatal(err)
	}
	after := shared.Stats()
	if after.Requests-before.Requests != 2 || after.RetriesAllowed-before.RetriesAllowed != 1 {
		t.Fatalf("the shared budget went from %+v to %+v, want 2 requests and 1 retry more", before, after)
	}
}

func TestDoDoesNotStartAWaitPastTheDeadline(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	op, calls := failing(100, errBoom)
	start := time.Now()
	err := Do(ctx, op, WithBudget(new(TokenBucket)),
		WithBackoff(Backoff{Base: 2 * time.Hour, Jitter: NoJitter, Cap: 3 * time.Hour}),
		OnRetry(func(int, error, time.Duration) { t.Error("OnRetry called for a wait past the deadline") }))
	if el := time.Since(start); el > time.Second {
		t.Fatalf("Do waited %v", el)
	}
	e := asError(t, err)
	if e.Reason != ReasonDeadline || e.Attempts != 1 || *calls != 1 || e.Err != errBoom {
		t.Fatalf("Do = %+v after %d calls, want ReasonDeadline after 1", e, *calls)
	}
	if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, errBoom) {
		t.Fatal("errors.Is does not match both the deadline and the failure")
	}
	if errors.Is(err, context.Canceled) {
		t.Fatal("a deadline give-up matches context.Canceled")
	}
}

func TestDoCanceledBeforeStart(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	op, calls := failing(0, nil)
	err := Do(ctx, op)
	e := asError(t, err)
	if e.Reason != ReasonCanceled || e.Attempts != 0 || *calls != 0 || e.Err != context.Canceled {
		t.Fatalf("Do = %+v, want ReasonCanceled before any attempt", e)
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatal("errors.Is(err, context.Canceled) = false")
	}
}

func TestDoCanceledDuringWait(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	op, calls := failing(100, errBoom)
	start := time.Now()
	err := Do(ctx, op, WithBudget(new(TokenBucket)),
		WithBackoff(Backoff{Base: time.Hour, Jitter: NoJitter, Cap: time.Hour}),
		OnRetry(func(int, error, time.Duration) { time.AfterFunc(5*time.Millisecond, cancel) }))
	if el := time.Since(start); el > 10*time.Second {
		t.Fatalf("Do waited %v after cancel", el)
	}
	e := asError(t, err)
	if e.Reason != ReasonCanceled || *calls != 1 || e.Err != errBoom {
		t.Fatalf("Do = %+v after %d calls, want ReasonCanceled after 1", e, *calls)
	}
	if !errors.Is(err, context.Canceled) || !errors.Is(err, errBoom) {
		t.Fatal("errors.Is does not match both the cancellation and the failure")
	}
}

func TestDoCanceledByOperation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	err := Do(ctx, func(context.Context) error { cancel(); return errBoom }, WithBudget(new(TokenBucket)))
	if e := asError(t, err); e.Reason != ReasonCanceled || e.Attempts != 1 || e.Err != errBoom {
		t.Fatalf("Do = %+v, want ReasonCanceled after 1 with the failure", e)
	}
}

func TestDoRetryAfter(t *testing.T) {
	tests := []struct {
		name  string
		push  time.Duration
		opts  []Option
		delay time.Duration
	}{
		{"honoured", 30 * time.Millisecond, nil, 30 * time.Millisecond},
		{"negative", -time.Second, nil, time.Microsecond},
		{"shorter than backoff", time.Nanosecond, nil, time.Microsecond},
		{"clamped by default", time.Hour, nil, DefaultMaxRetryAfter},
	}
	for _, tt := range tests {
		ctx, cancel := context.WithCancel(context.Background())
		var got time.Duration
		opts := append([]Option{WithBudget(new(TokenBucket)), WithBackoff(quick),
			OnRetry(func(_ int, _ error, d time.Duration) { got = d; cancel() })}, tt.opts...)
		calls := 0
		err := Do(ctx, func(context.Context) error {
			calls++
			return fmt.Errorf("wrapped: %w", RetryAfter(errBoom, tt.push))
		}, opts...)
		cancel()
		if got != tt.delay {
			t.Errorf("%s: delay %v, want %v", tt.name, got, tt.delay)
		}
		if e := asError(t, err); e.Reason != ReasonCanceled || !errors.Is(err, errBoom) || calls != 1 {
			t.Errorf("%s: Do = %v", tt.name, err)
		}
	}
}

func TestDoRetryAfterPastDeadlineGivesUp(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := Do(ctx, func(context.Context) error { return RetryAfter(errBoom, 20*time.Second) },
		WithBudget(new(TokenBucket)), WithBackoff(quick))
	if e := asError(t, err); e.Reason != ReasonDeadline || e.Err != errBoom {
		t.Fatalf("Do = %+v, want ReasonDeadline wrapping the unmarked failure", e)
	}
}

func TestDoBreaker(t *testing.T) {
	const cooldown = 20 * time.Millisecond
	br := (&Breaker{Cooldown: cooldown})
	// 20 failures open the breaker.
	for i := 0; i < 20; i++ {
		_ = Do(context.Background(), func(context.Context) error { return errBoom },
			WithBreaker(br), WithAttempts(1), WithBudget(new(TokenBucket)))
	}
	if br.Stats().State != BreakerOpen {
		t.Fatalf("breaker %v after 20 failures, want open", br.Stats().State)
	}
	calls := 0
	err := Do(context.Background(), func(context.Context) error { calls++; return nil },
		WithBreaker(br), WithBudget(new(TokenBucket)))
	e := asError(t, err)
	if e.Reason != ReasonBreakerOpen || e.Attempts != 0 || calls != 0 || e.Err != ErrBreakerOpen {
		t.Fatalf("Do = %+v, want ReasonBreakerOpen without an attempt", e)
	}
	if !errors.Is(err, ErrBreakerOpen) {
		t.Fatal("errors.Is(err, ErrBreakerOpen) = false")
	}
	// After the cooldown one probe goes through and closes it.
	time.Sleep(cooldown)
	if err := Do(context.Background(), func(context.Context) error { calls++; return nil },
		WithBreaker(br), WithBudget(new(TokenBucket))); err != nil || calls != 1 {
		t.Fatalf("probe: Do = %v after %d calls", err, calls)
	}
	if br.Stats().State != BreakerClosed {
		t.Fatalf("breaker %v after a successful probe, want closed", br.Stats().State)
	}
}

func TestDoBreakerOpensMidCall(t *testing.T) {
	br := (&Breaker{MinRequests: 2})
	err := Do(context.Background(), func(context.Context) error { return errBoom },
		WithBreaker(br), WithBudget(new(TokenBucket)), WithBackoff(quick), WithAttempts(5))
	if e := asError(t, err); e.Reason != ReasonBreakerOpen || e.Attempts != 2 || e.Err != errBoom {
		t.Fatalf("Do = %+v, want ReasonBreakerOpen after 2 wrapping the failure", e)
	}
}

func TestDoValue(t *testing.T) {
	calls := 0
	v, err := DoValue(context.Background(), func(context.Context) (string, error) {
		calls++
		if calls < 2 {
			return "partial", errBoom
		}
		return "ok", nil
	}, WithBudget(new(TokenBucket)), WithBackoff(quick))
	if err != nil || v != "ok" || calls != 2 {
		t.Fatalf("DoValue = %q, %v after %d calls", v, err, calls)
	}
	v, err = DoValue(context.Background(), func(context.Context) (string, error) { return "partial", errBoom },
		WithBudget(new(TokenBucket)), WithBackoff(quick))
	if v != "" || asError(t, err).Reason != ReasonAttempts {
		t.Fatalf("DoValue = %q, %v; want the zero value and ReasonAttempts", v, err)
	}
}

func TestDoZeroOptionIsIgnored(t *testing.T) {
	op, _ := failing(0, nil)
	if err := Do(context.Background(), op, Option{}); err != nil {
		t.Fatal(err)
	}
}

func TestReasonString(t *testing.T) {
	seen := map[string]bool{}
	for r := ReasonAttempts; r <= ReasonBreakerOpen; r++ {
		s := r.String()
		if seen[s] || strings.HasPrefix(s, "Reason(") {
			t.Errorf("Reason %d String() = %q", int(r), s)
		}
		seen[s] = true
	}
	if got := Reason(0).String(); got != "Reason(0)" {
		t.Errorf("Reason(0).String() = %q", got)
	}
	e := &Error{Reason: ReasonCanceled, Attempts: 1}
	if got := e.Error(); got != "budget: gave up after 1 attempt (context canceled)" {
		t.Errorf("Error() = %q", got)
	}
	if errors.Is(&Error{Reason: ReasonAttempts, Err: errBoom}, context.Canceled) {
		t.Error("an attempts give-up matches context.Canceled")
	}
}

// A call that succeeds at once allocates nothing: the options are data
// and the zero Permit reads no clock.
func TestDoSuccessDoesNotAllocate(t *testing.T) {
	var b Adaptive
	opt := WithBudget(&b)
	op := func(context.Context) error { return nil }
	ctx := context.Background()
	if allocs := testing.AllocsPerRun(1000, func() {
		_ = Do(ctx, op)
		_ = Do(ctx, op, opt, WithAttempts(2))
	}); allocs != 0 {
		t.Fatalf("Do on success allocates %v times per run, want 0", allocs)
	}
}
