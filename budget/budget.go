package budget

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync/atomic"
)

// Defaults of the token-bucket Budget, taken from gRPC retry throttling
// (gRFC A6) as the seed pattern sizes it.
const (
	// DefaultMaxTokens is the bucket size of a zero Budget.
	DefaultMaxTokens = 1000
	// DefaultTokenRatio is what each success gives back to a zero Budget.
	DefaultTokenRatio = 0.1
)

// milli is the fixed-point scale of a Budget: one token is 1000 milli-tokens,
// which is the 3-decimal precision gRFC A6 allows for tokenRatio.
const milli = 1000

// maxMaxTokens bounds maxTokens so that every milli-token computation fits in
// an int64 with room to spare.
const maxMaxTokens = 1e12

// Limiter is what Do and Transport consult before a retry and tell about every
// attempt's outcome. *Budget, *RatioBudget and *Breaker implement it.
//
// Implementations must be safe for concurrent use: one Limiter is shared by
// every call to a dependency.
type Limiter interface {
	// Allow reports whether a retry may be sent now.
	Allow() bool
	// Record reports the outcome of one attempt: nil for success.
	Record(err error)
}

// DefaultBudget is the process-wide Budget that Do and DoValue consult when no
// WithBudget option is given. It has the default size (maxTokens 1000,
// tokenRatio 0.1) and is shared by every such call in the process, so one
// failing dependency can starve retries to another: give each dependency its
// own Budget with WithBudget when that matters.
var DefaultBudget = new(Budget)

// Budget is a token-bucket retry budget with the semantics of gRPC retry
// throttling (gRFC A6). The bucket starts full with maxTokens tokens. Each
// failed attempt takes one token, each successful attempt gives back
// tokenRatio, and the bucket never holds fewer than zero or more than
// maxTokens tokens. A retry is allowed only while more than maxTokens/2 tokens
// remain, so in the long run retries stay near tokenRatio × successes (about
// 10% with the defaults), and when a dependency is down its callers stop
// retrying after maxTokens/2 failures instead of multiplying the load.
//
// Allow does not take a token: the bucket is drained by the failures that
// Record reports, so an allowed retry that fails pays for itself.
//
// The zero value is a full bucket with maxTokens 1000 and tokenRatio 0.1,
// ready to use. NewBudget builds one of another size.
//
// A Budget is safe for concurrent use by any number of goroutines. It holds
// integer milli-tokens updated with atomic compare-and-swap, takes no lock
// and allocates nothing; a success on a full bucket and a failure on an empty
// one only read the token word, and the counters are striped across cache
// lines, so concurrent callers rarely contend. A Budget must not be copied
// after first use.
type Budget struct {
	// spent is how many milli-tokens are missing from a full bucket, so that
	// the zero value is a full bucket whatever its size.
	spent atomic.Int64
	_     [cacheLine - 8]byte // keep the token word off the counters' lines

	maxMilli   int64 // 0 means DefaultMaxTokens
	ratioMilli int64 // 0 means DefaultTokenRatio
	_          [cacheLine - 16]byte

	// The counters are striped so that concurrent callers mostly write to
	// different cache lines; Stats sums the stripes.
	stripes [stripes]counterStripe
}

// cacheLine is the size the hot fields are padded to.
const cacheLine = 64

// stripes is how many counter stripes a Budget has: a power of two.
const stripes = 8

type counterStripe struct {
	successes atomic.Uint64
	failures  atomic.Uint64
	allowed   atomic.Uint64
	denied    atomic.Uint64
	_         [cacheLine - 32]byte
}

// stripe returns a counter stripe picked at random. math/rand/v2's global
// source is per-thread in the runtime, so the pick takes no lock and two
// goroutines running at once usually land on different stripes.
func (b *Budget) stripe() *counterStripe {
	return &b.stripes[rand.Uint32()&(stripes-1)]
}

// NewBudget returns a full Budget holding maxTokens tokens, to which every
// success gives back tokenRatio tokens. Both are kept to 3 decimal places
// (milli-tokens), as in gRFC A6.
//
// NewBudget returns an error naming the parameter, and no Budget, when
// maxTokens or tokenRatio is NaN, infinite, zero or negative, rounds to less
// than 0.001, or when maxTokens exceeds 1e12. It never clamps a bad value
// into range. gRPC itself caps maxTokens at 1000; larger buckets are allowed
// here but take longer to notice an outage.
func NewBudget(maxTokens, tokenRatio float64) (*Budget, error) {
	maxMilli, err := milliTokens("maxTokens", maxTokens)
	if err != nil {
		return nil, err
	}
	ratioMilli, err := milliTokens("tokenRatio", tokenRatio)
	if err != nil {
		return nil, err
	}
	return &Budget{maxMilli: maxMilli, ratioMilli: ratioMilli}, nil
}

// milliTokens converts a validated token count to milli-tokens.
func milliTokens(name string, v float64) (int64, error) {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return 0, fmt.Errorf("budget: invalid %s %v: must be a finite number", name, v)
	case v <= 0:
		return 0, fmt.Errorf("budget: invalid %s %v: must be positive", name, v)
	case v > maxMaxTokens:
		return 0, fmt.Errorf("budget: invalid %s %v: must not exceed %g", name, v, float64(maxMaxTokens))
	}
	m := int64(math.Round(v * milli))
	if m < 1 {
		return 0, fmt.Errorf("budget: invalid %s %v: below the resolution of 0.001 tokens", name, v)
	}
	return m, nil
}

func (b *Budget) max() int64 {
	if b.maxMilli == 0 {
		return DefaultMaxTokens * milli
	}
	return b.maxMilli
}

func (b *Budget) ratio() int64 {
	if b.ratioMilli == 0 {
		return DefaultTokenRatio * milli
	}
	return b.ratioMilli
}

// Allow reports whether a retry may be sent now: whether more than half of
// maxTokens remain in the bucket. It takes no token. Each call counts in
// Stats as one retry allowed or one retry denied, so call it once per retry
// you are about to send, not to poll.
//
// Allow is lock-free and does not allocate.
func (b *Budget) Allow() bool {
	full := b.max()
	// tokens > max/2, in integers without rounding: 2*(max-spent) > max.
	if 2*(full-b.spent.Load()) > full {
		b.stripe().allowed.Add(1)
		return true
	}
	b.stripe().denied.Add(1)
	return false
}

// RecordSuccess reports a successful attempt: the bucket gains tokenRatio
// tokens, up to maxTokens. It is lock-free and does not allocate.
func (b *Budget) RecordSuccess() {
	b.stripe().successes.Add(1)
	r := b.ratio()
	for {
		s := b.spent.Load()
		if s <= 0 {
			return // full: nothing to write, so a healthy bucket is read-only
		}
		n := s - r
		if n < 0 {
			n = 0
		}
		if b.spent.CompareAndSwap(s, n) {
			return
		}
	}
}

// RecordFailure reports a failed attempt: the bucket loses one token, down to
// zero. It is lock-free and does not allocate.
func (b *Budget) RecordFailure() {
	b.stripe().failures.Add(1)
	b.take()
}

func (b *Budget) take() {
	full := b.max()
	for {
		s := b.spent.Load()
		if s >= full {
			return // empty: nothing to write
		}
		n := s + milli
		if n > full {
			n = full
		}
		if b.spent.CompareAndSwap(s, n) {
			return
		}
	}
}

// Record reports the outcome of one attempt: RecordSuccess when err is nil,
// RecordFailure otherwise. An error marked with Permanent is counted as a
// request but leaves the tokens alone: as in gRFC A6, only failures that
// would be retried drain the bucket, so a caller's own bad requests cannot
// starve its retries.
func (b *Budget) Record(err error) {
	if err == nil {
		b.RecordSuccess()
		return
	}
	if isPermanent(err) {
		b.stripe().failures.Add(1)
		return
	}
	b.RecordFailure()
}

// Tokens returns how many tokens the bucket holds now, between 0 and
// maxTokens.
func (b *Budget) Tokens() float64 {
	return float64(b.max()-b.spent.Load()) / milli
}

// MaxTokens returns the bucket size.
func (b *Budget) MaxTokens() float64 { return float64(b.max()) / milli }

// TokenRatio returns what each success gives back.
func (b *Budget) TokenRatio() float64 { return float64(b.ratio()) / milli }

// Stats returns the counters. Each is read atomically, but not all at once,
// so under concurrent use they may be a few events apart from each other.
func (b *Budget) Stats() Stats {
	var s Stats
	for i := range b.stripes {
		c := &b.stripes[i]
		f := c.failures.Load()
		s.Requests += c.successes.Load() + f
		s.Failures += f
		s.RetriesAllowed += c.allowed.Load()
		s.RetriesDenied += c.denied.Load()
	}
	return s
}

// Stats are the counters of a Budget or RatioBudget since it was created.
type Stats struct {
	// Requests counts the attempt outcomes recorded: first attempts and
	// retries, successes and failures.
	Requests uint64
	// Failures counts the recorded outcomes that were errors.
	Failures uint64
	// RetriesAllowed counts the calls to Allow that returned true.
	RetriesAllowed uint64
	// RetriesDenied counts the calls to Allow that returned false: retries
	// the budget saved the dependency from.
	RetriesDenied uint64
}

// RetryRatio returns RetriesAllowed / Requests: the share of the traffic that
// was retries, when Allow is called once before every retry and every
// attempt is recorded, as Do and Transport do. It is the retry-amplification
// SLI: near tokenRatio (10%) in a healthy fleet; alarm when it stays above
// about 20%. It returns 0 before any request is recorded.
func (s Stats) RetryRatio() float64 {
	if s.Requests == 0 {
		return 0
	}
	return float64(s.RetriesAllowed) / float64(s.Requests)
}

// String formats the counters for logs.
func (s Stats) String() string {
	return fmt.Sprintf("requests=%d failures=%d retries_allowed=%d retries_denied=%d retry_ratio=%.3f",
		s.Requests, s.Failures, s.RetriesAllowed, s.RetriesDenied, s.RetryRatio())
}

// isPermanent reports whether err, or an error it wraps, was marked with
// Permanent. It walks the chain by hand rather than with errors.As, which
// would allocate on the failure path of Record.
func isPermanent(err error) bool {
	for err != nil {
		switch e := err.(type) {
		case *permanentError:
			return true
		case interface{ Unwrap() error }:
			err = e.Unwrap()
		case interface{ Unwrap() []error }:
			for _, inner := range e.Unwrap() {
				if isPermanent(inner) {
					return true
				}
			}
			return false
		default:
			return false
		}
	}
	return false
}
