package budget

import (
	"errors"
	"math"
	"strings"
	"sync"
	"testing"
	"time"
)

var errBoom = errors.New("boom")

func TestTokenBucketDefaults(t *testing.T) {
	b := new(TokenBucket)
	if got := b.tokens(); got != 1000 {
		t.Fatalf("Tokens() = %v, want 1000", got)
	}
	if b.maxTokens() != 1000 || b.tokenRatio() != 0.1 {
		t.Fatalf("MaxTokens, TokenRatio = %v, %v; want 1000, 0.1", b.maxTokens(), b.tokenRatio())
	}
	if !b.Allow() {
		t.Fatal("full bucket denied a retry")
	}
}

func TestBudgetThresholdIsStrictlyAboveHalf(t *testing.T) {
	b := new(TokenBucket)
	for i := 0; i < 499; i++ {
		b.Record(errBoom)
	}
	if got := b.tokens(); got != 501 {
		t.Fatalf("after 499 failures Tokens() = %v, want 501", got)
	}
	if !b.Allow() {
		t.Fatal("501 of 1000 tokens: retry denied, want allowed")
	}
	b.Record(errBoom)
	if got := b.tokens(); got != 500 {
		t.Fatalf("after 500 failures Tokens() = %v, want 500", got)
	}
	if b.Allow() {
		t.Fatal("500 of 1000 tokens: retry allowed, want denied (tokens must exceed maxTokens/2)")
	}
	b.Record(nil)
	if got := b.tokens(); got != 500.1 {
		t.Fatalf("after a success Tokens() = %v, want 500.1", got)
	}
	if !b.Allow() {
		t.Fatal("500.1 tokens: retry denied, want allowed")
	}
}

func TestBudgetStaysInBounds(t *testing.T) {
	b, err := NewTokenBucket(10, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 100; i++ {
		b.Record(nil)
	}
	if got := b.tokens(); got != 10 {
		t.Fatalf("successes on a full bucket: Tokens() = %v, want 10", got)
	}
	for i := 0; i < 100; i++ {
		b.Record(errBoom)
	}
	if got := b.tokens(); got != 0 {
		t.Fatalf("failures on an empty bucket: Tokens() = %v, want 0", got)
	}
	// From empty it takes 51 successes of 0.1 to pass 5 tokens (10/2).
	for i := 0; i < 50; i++ {
		b.Record(nil)
	}
	if b.Allow() {
		t.Fatalf("Tokens() = %v: retry allowed, want denied", b.tokens())
	}
	b.Record(nil)
	if !b.Allow() {
		t.Fatalf("Tokens() = %v: retry denied, want allowed", b.tokens())
	}
}

func TestBudgetRatioBelowOneTokenIsExact(t *testing.T) {
	// 0.001 tokens per success is the finest step: 1000 successes refill one token.
	b, err := NewTokenBucket(4, 0.001)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		b.Record(errBoom)
	}
	for i := 0; i < 1000; i++ {
		b.Record(nil)
	}
	if got := b.tokens(); got != 3 {
		t.Fatalf("Tokens() = %v, want 3", got)
	}
}

func TestNewTokenBucketRejectsInvalid(t *testing.T) {
	tests := []struct {
		max, ratio float64
		param      string
	}{
		{0, 0.1, "maxTokens"},
		{-1, 0.1, "maxTokens"},
		{math.NaN(), 0.1, "maxTokens"},
		{math.Inf(1), 0.1, "maxTokens"},
		{math.Inf(-1), 0.1, "maxTokens"},
		{1e13, 0.1, "maxTokens"},
		{1000.001, 0.1, "maxTokens"},
		{1000, 1e10, "tokenRatio"},
		{0.0001, 0.1, "maxTokens"},
		{1000, 0, "tokenRatio"},
		{1000, -0.1, "tokenRatio"},
		{1000, math.NaN(), "tokenRatio"},
		{1000, math.Inf(1), "tokenRatio"},
		{1000, 0.0004, "tokenRatio"},
	}
	for _, tt := range tests {
		b, err := NewTokenBucket(tt.max, tt.ratio)
		if err == nil {
			t.Errorf("NewTokenBucket(%v, %v) = %v, nil; want an error", tt.max, tt.ratio, b)
			continue
		}
		if b != nil {
			t.Errorf("NewTokenBucket(%v, %v) returned a Budget with its error", tt.max, tt.ratio)
		}
		if !strings.Contains(err.Error(), tt.param) {
			t.Errorf("NewTokenBucket(%v, %v) error %q does not name %s", tt.max, tt.ratio, err, tt.param)
		}
	}
}

func TestNewTokenBucketAcceptsValid(t *testing.T) {
	for _, tt := range []struct{ max, ratio float64 }{
		{1000, 0.1}, {10, 0.1}, {0.001, 0.001}, {1000, 5}, {3, 10}, {1, 1e6},
	} {
		b, err := NewTokenBucket(tt.max, tt.ratio)
		if err != nil {
			t.Errorf("NewTokenBucket(%v, %v): %v", tt.max, tt.ratio, err)
			continue
		}
		if b.maxTokens() != tt.max || b.tokenRatio() != tt.ratio || b.tokens() != tt.max {
			t.Errorf("NewTokenBucket(%v, %v) = max %v ratio %v tokens %v", tt.max, tt.ratio, b.maxTokens(), b.tokenRatio(), b.tokens())
		}
	}
}

func TestBudgetRecordAndStats(t *testing.T) {
	b := new(TokenBucket)
	b.Record(nil)
	b.Record(errBoom)
	b.Record(Permanent(errBoom))
	if !b.Allow() {
		t.Fatal("retry denied")
	}
	if got := b.tokens(); got != 999 {
		// one failure; the success was on a full bucket; the permanent error is neutral
		t.Fatalf("Tokens() = %v, want 999", got)
	}
	for i := 0; i < 600; i++ {
		b.Record(errBoom)
	}
	if b.Allow() {
		t.Fatal("retry allowed on an exhausted budget")
	}
	want := Stats{Requests: 603, Failures: 602, RetriesAllowed: 1, RetriesDenied: 1}
	if got := b.Stats(); got != want {
		t.Fatalf("Stats() = %+v, want %+v", got, want)
	}
	if got, want := b.Stats().RetryRatio(), 1.0/603; got != want {
		t.Fatalf("RetryRatio() = %v, want %v", got, want)
	}
	if (Stats{}).RetryRatio() != 0 {
		t.Fatal("RetryRatio of no requests is not 0")
	}
}

// TestBudgetBoundsAmplification replays the seed's outage: a dependency that
// fails every attempt, called 10000 times with 3 attempts each. Without a
// budget that is 30000 attempts; with one, retries stop after the bucket
// falls to half, so the load stays near the demand.
func TestBudgetBoundsAmplification(t *testing.T) {
	b := new(TokenBucket)
	attempts := 0
	for call := 0; call < 10000; call++ {
		for a := 1; a <= 3; a++ {
			attempts++
			b.Record(errBoom)
			if a == 3 || !b.Allow() {
				break
			}
		}
	}
	if attempts > 10500 {
		t.Fatalf("%d attempts for 10000 calls: amplification %.2fx, want at most 1.05x", attempts, float64(attempts)/10000)
	}
	// Each call that retries twice spends 3 tokens; 500 spendable tokens
	// buy about 333 retries in all, and then none.
	if got := b.Stats().RetriesAllowed; got > 500 {
		t.Fatalf("RetriesAllowed = %d, want at most 500", got)
	}
}

// TestBudgetSteadyStateRatio checks the headline: with a partly failing
// dependency, retries settle near tokenRatio (10%) of successes.
func TestBudgetSteadyStateRatio(t *testing.T) {
	b := new(TokenBucket)
	var successes, retries int
	for call := 0; call < 200000; call++ {
		// Every third first attempt fails; retries fail too. Deterministic.
		if call%3 != 0 {
			b.Record(nil)
			successes++
			continue
		}
		b.Record(errBoom)
		for a := 2; a <= 3 && b.Allow(); a++ {
			retries++
			b.Record(errBoom)
		}
	}
	ratio := float64(retries) / float64(successes)
	// Each failure costs a token and each success returns 0.1; the bucket
	// balances at the threshold, so first-attempt failures plus retries ≈
	// 0.1·successes (+ the 500 spent getting there).
	if ratio > 0.1 {
		t.Fatalf("retries/successes = %.3f, want at most 0.1", ratio)
	}
}

func TestBudgetConcurrent(t *testing.T) {
	b, err := NewTokenBucket(1000, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	const goroutines, each = 8, 100
	var wg sync.WaitGroup
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				b.Record(errBoom)
				b.Allow()
			}
		}()
	}
	wg.Wait()
	if got, want := b.tokens(), float64(1000-goroutines*each); got != want {
		t.Fatalf("Tokens() = %v, want %v: a concurrent update was lost", got, want)
	}
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				b.Record(nil)
			}
		}()
	}
	wg.Wait()
	if got, want := b.tokens(), float64(1000-goroutines*each)+0.5*goroutines*each; got != want {
		t.Fatalf("Tokens() = %v, want %v: a concurrent update was lost", got, want)
	}
	s := b.Stats()
	if s.Requests != 2*goroutines*each || s.RetriesAllowed+s.RetriesDenied != goroutines*each {
		t.Fatalf("Stats() = %+v", s)
	}
}

func TestBudgetHotPathDoesNotAllocate(t *testing.T) {
	var b Adaptive
	var l RetryBudget = &b
	allocs := testing.AllocsPerRun(1000, func() {
		b.Allow()
		b.Record(nil)
		b.Record(errBoom)
		b.Record(nil)
		l.Record(errBoom)
		l.Allow()
		_ = b.Stats()
	})
	if allocs != 0 {
		t.Fatalf("hot path allocates %v times per run, want 0", allocs)
	}
	var tb TokenBucket
	l = &tb
	if allocs := testing.AllocsPerRun(1000, func() {
		l.Allow()
		l.Record(nil)
		l.Record(errBoom)
		_ = l.Stats()
	}); allocs != 0 {
		t.Fatalf("token bucket's hot path allocates %v times per run, want 0", allocs)
	}
}

func TestSharedBudgetIsAdaptive(t *testing.T) {
	if shared.c.Ratio() != 0.1 {
		t.Fatal("the budget of calls given none is not an adaptive budget of ratio 0.1")
	}
	var _ RetryBudget = (*Adaptive)(nil)
	var _ RetryBudget = (*TokenBucket)(nil)
	// A *Breaker is not a RetryBudget (it has no Stats of that kind), so
	// WithBudget(breaker) does not compile.
}

func TestBudgetStateHoldsTheLargestBucket(t *testing.T) {
	b, err := NewTokenBucket(MaxBudgetTokens, MaxBudgetTokens)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2*MaxBudgetTokens; i++ {
		b.Record(errBoom)
	}
	if b.tokens() != 0 || b.Stats().Requests != 2*MaxBudgetTokens {
		t.Fatalf("Tokens() = %v, Stats() = %+v", b.tokens(), b.Stats())
	}
	b.Record(nil)
	if b.tokens() != MaxBudgetTokens || b.Stats().Requests != 2*MaxBudgetTokens+1 {
		t.Fatalf("Tokens() = %v, Stats() = %+v", b.tokens(), b.Stats())
	}
}

// The zero Budget bites at any request rate: within about a second of an
// outage (every attempt failing) its retries fall to the floor of one a
// second, whether the process sends 5 or 50 000 requests a second; while
// healthy it allows about 10% of the successful first tries.
func TestAdaptiveBudgetBitesAtAnyRate(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, rate := range []int{5, 17, 500, 50000} {
		var b Adaptive
		step := time.Second / time.Duration(rate)
		now := t0
		// 10 healthy seconds with 1% failures, each retried once if allowed.
		healthyRetries, healthyFirsts := 0, 0
		for i := 0; i < 10*rate; i++ {
			now = now.Add(step)
			healthyFirsts++
			if i%100 == 99 {
				b.recordAt(now, errBoom)
				if b.allowAt(now) {
					healthyRetries++
					b.recordAt(now, nil)
				}
				continue
			}
			b.recordAt(now, nil)
		}
		if want := healthyFirsts / 100; rate >= 100 && healthyRetries != want {
			t.Errorf("%d/s healthy: %d of %d failures retried, want all", rate, healthyRetries, want)
		}
		// The outage: every attempt fails, 3 attempts per call.
		outage := now
		retriesLate := 0
		for i := 0; i < 5*rate; i++ {
			now = now.Add(step)
			b.recordAt(now, errBoom)
			for a := 2; a <= 3 && b.allowAt(now); a++ {
				if now.Sub(outage) >= 1100*time.Millisecond {
					retriesLate++
				}
				b.recordAt(now, errBoom)
			}
		}
		// From 1.1 s in, only the floor: about one a second for 3.9 s.
		if retriesLate > 4 {
			t.Errorf("%d/s: %d retries from 1.1s to 5s into the outage, want at most 4 (the floor)", rate, retriesLate)
		}
	}
}

func TestAdaptiveBudgetEarnsOnFirstTriesOnly(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	b, err := NewAdaptive(0.5, 0, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	for range 10 {
		b.recordAt(now, nil) // 10 successful first tries earn 5
	}
	granted := 0
	for b.allowAt(now) {
		granted++
		b.recordAt(now, nil) // the retry's success earns nothing
	}
	if granted != 5 {
		t.Fatalf("%d retries granted for 10 first tries at 50%%, want 5", granted)
	}
	if got := b.tokensAt(now); got != 0 {
		t.Fatalf("Tokens() = %v, want 0", got)
	}
	// A second later the window has slid past all of it.
	for range 4 {
		b.recordAt(now.Add(time.Second), nil)
	}
	if got := b.tokensAt(now.Add(time.Second)); got != 2 {
		t.Fatalf("Tokens() = %v a window later after 4 successes, want 2", got)
	}
}

func TestNewAdaptiveRejectsInvalid(t *testing.T) {
	for _, tc := range []struct {
		ratio, min float64
		window     time.Duration
	}{
		{0, 1, time.Second}, {1.5, 1, time.Second}, {math.NaN(), 1, time.Second},
		{0.1, -1, time.Second}, {0.1, math.Inf(1), time.Second},
		{0.1, 1, time.Millisecond}, {0.1, 1, time.Hour},
	} {
		if _, err := NewAdaptive(tc.ratio, tc.min, tc.window); err == nil {
			t.Errorf("NewAdaptive(%v, %v, %v) accepted", tc.ratio, tc.min, tc.window)
		}
	}
}

func TestAdaptiveBudgetConcurrent(t *testing.T) {
	var b Adaptive
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 2000; i++ {
				b.Record(nil)
				if i%10 == 0 {
					b.Record(errBoom)
					b.Allow()
				}
			}
		}()
	}
	wg.Wait()
	s := b.Stats()
	if s.Requests != 8*2200 || s.RetriesAllowed+s.RetriesDenied != 8*200 {
		t.Fatalf("Stats() = %+v: lost counts", s)
	}
	if s.RetriesAllowed > 8*2000/10+10 {
		t.Fatalf("Stats() = %+v: more retries than 10%% of successes plus the floor", s)
	}
}

// Between two readings of the clock an Adaptive decides on the window as
// of the first: after a pause longer than the window, a busy budget grants
// at most 8 retries from successes that have left it before it reads the
// clock again, and none after.
func TestAdaptiveStaleGrantsAreBounded(t *testing.T) {
	b, err := NewAdaptive(0.1, 0, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < 200000; i++ { // 2 s at 100 000 successes a second
		now = now.Add(10 * time.Microsecond)
		b.recordAt(now, nil)
	}
	later := now.Add(10 * time.Second)
	granted := 0
	for i := 0; i < 100; i++ {
		if b.allowAt(later) {
			granted++
		}
	}
	if granted > 8 {
		t.Fatalf("%d retries granted 10 s after the last success, want at most 8", granted)
	}
	if got := b.tokensAt(later); got != 0 {
		t.Fatalf("Tokens() = %v 10 s after the last success, want 0", got)
	}
	if s := b.Stats(); s.Requests != 200000 || s.RetriesAllowed != uint64(granted) || s.RetriesDenied != uint64(100-granted) {
		t.Fatalf("Stats() = %+v, want 200000 requests, %d allowed, %d denied", s, granted, 100-granted)
	}
}
