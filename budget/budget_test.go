package budget

import (
	"errors"
	"math"
	"strings"
	"sync"
	"testing"
)

var errBoom = errors.New("boom")

func TestBudgetZeroValueDefaults(t *testing.T) {
	var b Budget
	if got := b.Tokens(); got != 1000 {
		t.Fatalf("Tokens() = %v, want 1000", got)
	}
	if b.MaxTokens() != 1000 || b.TokenRatio() != 0.1 {
		t.Fatalf("MaxTokens, TokenRatio = %v, %v; want 1000, 0.1", b.MaxTokens(), b.TokenRatio())
	}
	if !b.Allow() {
		t.Fatal("full bucket denied a retry")
	}
}

func TestBudgetThresholdIsStrictlyAboveHalf(t *testing.T) {
	var b Budget
	for i := 0; i < 499; i++ {
		b.RecordFailure()
	}
	if got := b.Tokens(); got != 501 {
		t.Fatalf("after 499 failures Tokens() = %v, want 501", got)
	}
	if !b.Allow() {
		t.Fatal("501 of 1000 tokens: retry denied, want allowed")
	}
	b.RecordFailure()
	if got := b.Tokens(); got != 500 {
		t.Fatalf("after 500 failures Tokens() = %v, want 500", got)
	}
	if b.Allow() {
		t.Fatal("500 of 1000 tokens: retry allowed, want denied (tokens must exceed maxTokens/2)")
	}
	b.RecordSuccess()
	if got := b.Tokens(); got != 500.1 {
		t.Fatalf("after a success Tokens() = %v, want 500.1", got)
	}
	if !b.Allow() {
		t.Fatal("500.1 tokens: retry denied, want allowed")
	}
}

func TestBudgetStaysInBounds(t *testing.T) {
	b, err := NewBudget(10, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 100; i++ {
		b.RecordSuccess()
	}
	if got := b.Tokens(); got != 10 {
		t.Fatalf("successes on a full bucket: Tokens() = %v, want 10", got)
	}
	for i := 0; i < 100; i++ {
		b.RecordFailure()
	}
	if got := b.Tokens(); got != 0 {
		t.Fatalf("failures on an empty bucket: Tokens() = %v, want 0", got)
	}
	// From empty it takes 51 successes of 0.1 to pass 5 tokens (10/2).
	for i := 0; i < 50; i++ {
		b.RecordSuccess()
	}
	if b.Allow() {
		t.Fatalf("Tokens() = %v: retry allowed, want denied", b.Tokens())
	}
	b.RecordSuccess()
	if !b.Allow() {
		t.Fatalf("Tokens() = %v: retry denied, want allowed", b.Tokens())
	}
}

func TestBudgetRatioBelowOneTokenIsExact(t *testing.T) {
	// 0.001 tokens per success is the finest step: 1000 successes refill one token.
	b, err := NewBudget(4, 0.001)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		b.RecordFailure()
	}
	for i := 0; i < 1000; i++ {
		b.RecordSuccess()
	}
	if got := b.Tokens(); got != 3 {
		t.Fatalf("Tokens() = %v, want 3", got)
	}
}

func TestNewBudgetRejectsInvalid(t *testing.T) {
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
		b, err := NewBudget(tt.max, tt.ratio)
		if err == nil {
			t.Errorf("NewBudget(%v, %v) = %v, nil; want an error", tt.max, tt.ratio, b)
			continue
		}
		if b != nil {
			t.Errorf("NewBudget(%v, %v) returned a Budget with its error", tt.max, tt.ratio)
		}
		if !strings.Contains(err.Error(), tt.param) {
			t.Errorf("NewBudget(%v, %v) error %q does not name %s", tt.max, tt.ratio, err, tt.param)
		}
	}
}

func TestNewBudgetAcceptsValid(t *testing.T) {
	for _, tt := range []struct{ max, ratio float64 }{
		{1000, 0.1}, {10, 0.1}, {0.001, 0.001}, {1000, 5}, {3, 10}, {1, 1e6},
	} {
		b, err := NewBudget(tt.max, tt.ratio)
		if err != nil {
			t.Errorf("NewBudget(%v, %v): %v", tt.max, tt.ratio, err)
			continue
		}
		if b.MaxTokens() != tt.max || b.TokenRatio() != tt.ratio || b.Tokens() != tt.max {
			t.Errorf("NewBudget(%v, %v) = max %v ratio %v tokens %v", tt.max, tt.ratio, b.MaxTokens(), b.TokenRatio(), b.Tokens())
		}
	}
}

func TestBudgetRecordAndStats(t *testing.T) {
	var b Budget
	b.Record(nil)
	b.Record(errBoom)
	b.Record(Permanent(errBoom))
	if !b.Allow() {
		t.Fatal("retry denied")
	}
	if got := b.Tokens(); got != 999 {
		// one failure; the success was on a full bucket; the permanent error is neutral
		t.Fatalf("Tokens() = %v, want 999", got)
	}
	for i := 0; i < 600; i++ {
		b.RecordFailure()
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
	if s := want.String(); !strings.Contains(s, "requests=603") || !strings.Contains(s, "retry_ratio=0.002") {
		t.Fatalf("String() = %q", s)
	}
}

// TestBudgetBoundsAmplification replays the seed's outage: a dependency that
// fails every attempt, called 10000 times with 3 attempts each. Without a
// budget that is 30000 attempts; with one, retries stop after the bucket
// falls to half, so the load stays near the demand.
func TestBudgetBoundsAmplification(t *testing.T) {
	var b Budget
	attempts := 0
	for call := 0; call < 10000; call++ {
		for a := 1; a <= 3; a++ {
			attempts++
			b.RecordFailure()
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
	var b Budget
	var successes, retries int
	for call := 0; call < 200000; call++ {
		// Every third first attempt fails; retries fail too. Deterministic.
		if call%3 != 0 {
			b.RecordSuccess()
			successes++
			continue
		}
		b.RecordFailure()
		for a := 2; a <= 3 && b.Allow(); a++ {
			retries++
			b.RecordFailure()
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
	b, err := NewBudget(1000, 0.5)
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
				b.RecordFailure()
				b.Allow()
			}
		}()
	}
	wg.Wait()
	if got, want := b.Tokens(), float64(1000-goroutines*each); got != want {
		t.Fatalf("Tokens() = %v, want %v: a concurrent update was lost", got, want)
	}
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				b.RecordSuccess()
			}
		}()
	}
	wg.Wait()
	if got, want := b.Tokens(), float64(1000-goroutines*each)+0.5*goroutines*each; got != want {
		t.Fatalf("Tokens() = %v, want %v: a concurrent update was lost", got, want)
	}
	s := b.Stats()
	if s.Requests != 2*goroutines*each || s.RetriesAllowed+s.RetriesDenied != goroutines*each {
		t.Fatalf("Stats() = %+v", s)
	}
}

func TestBudgetHotPathDoesNotAllocate(t *testing.T) {
	var b Budget
	var l Limiter = &b
	allocs := testing.AllocsPerRun(1000, func() {
		b.Allow()
		b.RecordSuccess()
		b.RecordFailure()
		b.Record(nil)
		l.Record(errBoom)
		l.Allow()
		_ = b.Stats()
	})
	if allocs != 0 {
		t.Fatalf("hot path allocates %v times per run, want 0", allocs)
	}
}

func TestDefaultBudgetIsDefaultSized(t *testing.T) {
	if DefaultBudget == nil || DefaultBudget.MaxTokens() != 1000 || DefaultBudget.TokenRatio() != 0.1 {
		t.Fatal("DefaultBudget is not a 1000-token, 0.1-ratio Budget")
	}
	var _ RetryBudget = (*Budget)(nil)
	var _ RetryBudget = (*RatioBudget)(nil)
	// A *Breaker is not a RetryBudget (it has no Stats of that kind), so
	// WithBudget(breaker) does not compile.
}

func TestBudgetSuccessCountWraps(t *testing.T) {
	var b Budget
	b.RecordFailure()
	// Put the packed success count one short of wrapping.
	b.state.Store(b.state.Load() | (1<<(64-spentBits)-1)<<spentBits)
	b.RecordSuccess()
	if got := b.wraps.Load(); got != 1 {
		t.Fatalf("wraps = %d, want 1", got)
	}
	if got, want := b.Stats().Requests, uint64(1)<<(64-spentBits)+1; got != want {
		t.Fatalf("Requests = %d, want %d", got, want)
	}
	if got := b.Tokens(); got != 999.1 {
		t.Fatalf("Tokens() = %v, want 999.1: the wrap disturbed the bucket", got)
	}
	b.RecordSuccess()
	if got, want := b.Stats().Requests, uint64(1)<<(64-spentBits)+2; got != want {
		t.Fatalf("Requests = %d, want %d", got, want)
	}
}

func TestBudgetStateHoldsTheLargestBucket(t *testing.T) {
	if MaxBudgetTokens*milli > spentMask {
		t.Fatalf("%d milli-tokens do not fit in %d bits", MaxBudgetTokens*milli, spentBits)
	}
	b, err := NewBudget(MaxBudgetTokens, MaxBudgetTokens)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2*MaxBudgetTokens; i++ {
		b.RecordFailure()
	}
	if b.Tokens() != 0 || b.Stats().Requests != 2*MaxBudgetTokens {
		t.Fatalf("Tokens() = %v, Stats() = %+v", b.Tokens(), b.Stats())
	}
	b.RecordSuccess()
	if b.Tokens() != MaxBudgetTokens || b.Stats().Requests != 2*MaxBudgetTokens+1 {
		t.Fatalf("Tokens() = %v, Stats() = %+v", b.Tokens(), b.Stats())
	}
}
