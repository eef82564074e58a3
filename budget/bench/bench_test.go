package bench

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/retrylint/retrylint/budget"
	"golang.org/x/time/rate"
)

// mutexThrottle is a retry throttle the way grpc-go writes it: float64
// tokens behind a sync.Mutex, with the same gRFC A6 rules as
// budget.TokenBucket.
// It exists only as a baseline for these benchmarks.
//
// casBucket, below, is the floor for this algorithm: the same rules as
// one int64 of milli-tokens changed by compare-and-swap, and nothing else.
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

// casBucket is a 20-line lock-free gRFC A6 token bucket: the floor a
// retry budget's hot path is measured against.
type casBucket struct {
	spent atomic.Int64 // milli-tokens missing from 1000 tokens
}

const casFull, casRatio = 1000 * 1000, 100

func (c *casBucket) add(d int64) {
	for {
		old := c.spent.Load()
		n := min(max(old+d, 0), casFull)
		if n == old || c.spent.CompareAndSwap(old, n) {
			return
		}
	}
}

func (c *casBucket) Allow() bool { return 2*(casFull-c.spent.Load()) > casFull }

func (c *casBucket) Record(err error) {
	if err == nil {
		c.add(-casRatio)
		return
	}
	c.add(1000)
}

// countedFloor is the CAS floor that also keeps the four counters of
// budget.Stats: one atomic add per Record and per Allow, each counter on
// its own cache line. A budget whose Stats count every call exactly must
// write on every call (a call that writes nothing leaves no trace to
// count), and in Go an atomic add is the cheapest write that is safe under
// concurrency: so this is the floor once it counts, the least an exact
// Adaptive or TokenBucket can cost.
type countedFloor struct {
	casBucket
	_                 [56]byte
	ok, fail, yes, no paddedCounter
}

type paddedCounter struct {
	atomic.Uint64
	_ [56]byte
}

func (c *countedFloor) Allow() bool {
	ok := c.casBucket.Allow()
	if ok {
		c.yes.Add(1)
	} else {
		c.no.Add(1)
	}
	return ok
}

func (c *countedFloor) Record(err error) {
	c.casBucket.Record(err)
	if err == nil {
		c.ok.Add(1)
	} else {
		c.fail.Add(1)
	}
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

// run runs op on GOMAXPROCS goroutines (b.RunParallel): with -cpu 1,2,N
// that is 1, 2 and N goroutines, one row each.
func run(b *testing.B, op func(i int)) {
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			op(i)
			i++
		}
	})
}

// allowRecorder is what the record/allow benchmark drives.
type allowRecorder interface {
	Allow() bool
	Record(err error)
}

var errFailed = errors.New("failed")

// budgets are the library's two budgets, the CAS floor and the floor that
// counts.
var budgets = []struct {
	name string
	new  func() allowRecorder
}{
	{"budget.TokenBucket", func() allowRecorder { return new(budget.TokenBucket) }},
	{"budget.Adaptive", func() allowRecorder { return new(budget.Adaptive) }}, // the default, zero value
	{"cas-floor", func() allowRecorder { return new(casBucket) }},
	{"cas-floor+count", func() allowRecorder { return new(countedFloor) }},
}

// BenchmarkRecordAllow is the record/allow path of a retry budget: every
// attempt's outcome is recorded, and every failure asks whether to retry.
func BenchmarkRecordAllow(b *testing.B) {
	for _, w := range workloads {
		failed := w.failed
		for _, k := range budgets {
			b.Run(w.name+"/"+k.name, func(b *testing.B) {
				bu := k.new()
				run(b, func(i int) {
					if failed(i) {
						bu.Record(errFailed)
						bu.Allow()
						return
					}
					bu.Record(nil)
				})
			})
		}
		b.Run(w.name+"/mutex-grpc", func(b *testing.B) {
			t := newMutexThrottle(1000, 0.1)
			run(b, func(i int) {
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
	b.Run("budget.TokenBucket", func(b *testing.B) {
		var bu budget.TokenBucket
		run(b, func(int) { bu.Allow() })
	})
	b.Run("cas-floor", func(b *testing.B) {
		var bu casBucket
		run(b, func(int) { bu.Allow() })
	})
	b.Run("cas-floor+count", func(b *testing.B) {
		var bu countedFloor
		run(b, func(int) { bu.Allow() })
	})
	b.Run("budget.Adaptive", func(b *testing.B) {
		var bu budget.Adaptive // the zero value: no successes, so the floor decides
		run(b, func(int) { bu.Allow() })
	})
	b.Run("mutex-grpc", func(b *testing.B) {
		t := newMutexThrottle(1000, 0.1)
		run(b, func(int) { t.allow() })
	})
	b.Run("rate.Limiter", func(b *testing.B) {
		// 1e6 events/s with a burst of 1000: the benchmark runs faster than
		// that, so most calls take the deny path after the burst, as a
		// retry limiter under a storm would.
		lim := rate.NewLimiter(1e6, 1000)
		run(b, func(int) { lim.Allow() })
	})
}

// TestThrottlesAgree checks that the baselines follow the same rules as
// budget.TokenBucket, so the comparison is like for like.
func TestThrottlesAgree(t *testing.T) {
	var bu budget.TokenBucket
	var c casBucket
	var cc countedFloor
	m := newMutexThrottle(1000, 0.1)
	for i := 0; i < 20000; i++ {
		var want, got, floor, counted bool
		if i%7 < 4 {
			bu.Record(errFailed)
			c.Record(errFailed)
			cc.Record(errFailed)
			got, floor, counted = bu.Allow(), c.Allow(), cc.Allow()
			want = m.failure()
		} else {
			bu.Record(nil)
			c.Record(nil)
			cc.Record(nil)
			m.success()
			got, floor, counted, want = bu.Allow(), c.Allow(), cc.Allow(), m.allow()
		}
		if got != want || floor != want || counted != want {
			t.Fatalf("step %d: budget.TokenBucket allows %v, the CAS floor %v, the counting floor %v, the mutex throttle %v (tokens %v)", i, got, floor, counted, want, m.tokens)
		}
	}
	// The counting floor counts as budget.TokenBucket does.
	s := bu.Stats()
	if req, fail, yes, no := cc.ok.Load()+cc.fail.Load(), cc.fail.Load(), cc.yes.Load(), cc.no.Load(); req != s.Requests || fail != s.Failures || yes != s.RetriesAllowed || no != s.RetriesDenied {
		t.Fatalf("the counting floor counted %d requests, %d failures, %d allowed, %d denied; budget.TokenBucket %+v", req, fail, yes, no, s)
	}
}
