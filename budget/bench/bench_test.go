package bench

import (
	"sync"
	"testing"

	"github.com/retrylint/retrylint/budget"
	"golang.org/x/time/rate"
)

// mutexThrottle is a retry throttle the way grpc-go writes it: float64
// tokens behind a sync.Mutex, with the same gRFC A6 rules as budget.GRPCBudget.
// It exists only as a baseline for these benchmarks.
type mutexThrottle struct {
	mu     sync.Mutex
	max    float64
	thresh float64
	ratio  float64
	tokens float64
}

func newMutexThrottle(maxTokens, ratio float64) *mutexThrottle {
	return &mutexThrottle{max: maxTokens, thresh: maxTokens / 2, ratio: ratio, tokens: maxTokens}
}

// failure takes a token and reports whether a retry may be sent, as
// grpc-go's throttle() does in one critical section.
func (t *mutexThrottle) failure() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.tokens--
	if t.tokens < 0 {
		t.tokens = 0
	}
	return t.tokens > t.thresh
}

func (t *mutexThrottle) success() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.tokens += t.ratio
	if t.tokens > t.max {
		t.tokens = t.max
	}
}

func (t *mutexThrottle) allow() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.tokens > t.thresh
}

// workloads are the outcome mixes of the record/allow benchmark: failed
// reports whether attempt i fails. A failure is followed by the retry
// decision, as in a retry loop.
var workloads = []struct {
	name   string
	failed func(i int) bool
}{
	// healthy: every attempt succeeds; the bucket stays full.
	{"healthy", func(int) bool { return false }},
	// mixed: one attempt in ten fails; the bucket hovers near empty, so
	// every event changes the tokens.
	{"mixed", func(i int) bool { return i%10 == 9 }},
	// outage: every attempt fails; the bucket is empty and retries are
	// denied.
	{"outage", func(int) bool { return true }},
}

func runBoth(b *testing.B, op func(i int)) {
	b.Run("serial", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			op(i)
		}
	})
	b.Run("parallel", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			i := 0
			for pb.Next() {
				op(i)
				i++
			}
		})
	})
}

// budgets are the two kinds of budget.Budget.
var budgets = []struct {
	name string
	new  func() *budget.Budget
}{
	{"budget.GRPCBudget", budget.GRPCBudget},
	{"budget.Budget", func() *budget.Budget { return new(budget.Budget) }}, // the adaptive zero value
}

// BenchmarkRecordAllow is the record/allow path of a retry budget: every
// attempt's outcome is recorded, and every failure asks whether to retry.
func BenchmarkRecordAllow(b *testing.B) {
	for _, w := range workloads {
		failed := w.failed
		for _, k := range budgets {
			b.Run(w.name+"/"+k.name, func(b *testing.B) {
				bu := k.new()
				runBoth(b, func(i int) {
					if failed(i) {
						bu.RecordFailure()
						bu.Allow()
						return
					}
					bu.RecordSuccess()
				})
			})
		}
		b.Run(w.name+"/mutex-grpc", func(b *testing.B) {
			t := newMutexThrottle(1000, 0.1)
			runBoth(b, func(i int) {
				if failed(i) {
					t.failure()
					return
				}
				t.success()
			})
		})
	}
}

// BenchmarkAllow is the admission decision alone.
func BenchmarkAllow(b *testing.B) {
	b.Run("budget.GRPCBudget", func(b *testing.B) {
		bu := budget.GRPCBudget()
		runBoth(b, func(int) { bu.Allow() })
	})
	b.Run("budget.Budget", func(b *testing.B) {
		var bu budget.Budget // the adaptive zero value: no successes, so the floor decides
		runBoth(b, func(int) { bu.Allow() })
	})
	b.Run("mutex-grpc", func(b *testing.B) {
		t := newMutexThrottle(1000, 0.1)
		runBoth(b, func(int) { t.allow() })
	})
	b.Run("rate.Limiter", func(b *testing.B) {
		// 1e6 events/s with a burst of 1000: the benchmark runs faster than
		// that, so most calls take the deny path after the burst, as a
		// retry limiter under a storm would.
		lim := rate.NewLimiter(1e6, 1000)
		runBoth(b, func(int) { lim.Allow() })
	})
}

// TestThrottlesAgree checks that the baseline follows the same rules as
// budget.GRPCBudget, so the comparison is like for like.
func TestThrottlesAgree(t *testing.T) {
	bu := budget.GRPCBudget()
	m := newMutexThrottle(1000, 0.1)
	for i := 0; i < 20000; i++ {
		var want, got bool
		if i%7 < 4 {
			bu.RecordFailure()
			got = bu.Allow()
			want = m.failure()
		} else {
			bu.RecordSuccess()
			m.success()
			got, want = bu.Allow(), m.allow()
		}
		if got != want {
			t.Fatalf("step %d: budget.Budget allows %v, the mutex throttle %v (tokens %v vs %v)", i, got, want, bu.Tokens(), m.tokens)
		}
	}
}
