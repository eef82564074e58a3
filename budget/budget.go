package budget

import (
	"fmt"
	"math"
	"sync/atomic"
	"unsafe"
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

// RetryBudget is what Do and Transport consult before a retry and tell
// about every attempt's outcome: *Budget and *RatioBudget implement it. A
// circuit breaker is not one (it has no Stats): pass a *Breaker with
// WithBreaker, where it is asked before every attempt, the first included.
//
// Allow means the same for both: true grants one retry, about to be sent,
// and counts it in Stats as a retry (a RatioBudget also takes it from its
// share); false counts a denial. Do and Transport ask just before sending,
// after any wait and after the breaker let the attempt through, so only
// retries that were sent are counted.
//
// Implementations must be safe for concurrent use: one RetryBudget is
// shared by every call to a dependency.
type RetryBudget interface {
	// Allow reports whether a retry may be sent now, and counts it.
	Allow() bool
	// Record reports the outcome of one attempt: nil for success.
	Record(err error)
	// Stats returns the counters.
	Stats() Stats
}

// Limiter is the old name of RetryBudget.
//
// Deprecated: use RetryBudget; it reads less like rate.Limiter.
type Limiter = RetryBudget

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
// A Budget is safe for concurrent use by any number of goroutines. It takes
// no lock and allocates nothing. The tokens are integer milli-tokens in one
// atomic word, changed by compare-and-swap; calls that change no token
// (Allow, a success on a full bucket, a failure on an empty one) only read
// that word and add to a counter striped by goroutine. So in the two steady
// states, a healthy dependency (bucket full) and a dead one (bucket empty),
// concurrent callers share no written cache line, and in between each
// event costs a single compare-and-swap. A Budget must not be copied after
// first use.
type Budget struct {
	// state packs the bucket and a success count into one word so that a
	// success that changes the tokens is one atomic operation. The low
	// spentBits bits hold how many milli-tokens are missing from a full
	// bucket (so the zero value is full whatever the size); the high bits
	// count those successes modulo 2^(64-spentBits).
	state atomic.Uint64
	// wraps counts how many times the success count in state wrapped.
	wraps atomic.Uint64

	maxMilli   int64 // 0 means DefaultMaxTokens
	ratioMilli int64 // 0 means DefaultTokenRatio
	_          [cacheLine - 32]byte

	// The other counters are striped over cache lines so that goroutines
	// running at once rarely write to the same line; Stats sums them.
	stripes [stripes]counterStripe
}

// cacheLine is the unit the hot fields are padded to.
const cacheLine = 64

// stripes is how many counter stripes a Budget has.
const (
	stripeBits = 3
	stripes    = 1 << stripeBits
)

type counterStripe struct {
	fullSuccesses atomic.Uint64 // successes on a full bucket, which change no token
	failures      atomic.Uint64
	allowed       atomic.Uint64
	denied        atomic.Uint64
	// Two lines per stripe, so that no line holds two stripes' counters
	// however the Budget is aligned.
	_ [2*cacheLine - 32]byte
}

// stripe picks the counter stripe for the calling goroutine from the address
// of its stack: goroutines have separate stacks, so those running at once
// usually get different stripes, at the cost of a multiply. The pointer is
// only hashed, never turned back into a pointer.
func (b *Budget) stripe() *counterStripe {
	var here byte
	h := uint64(uintptr(unsafe.Pointer(&here))) >> 12 // page of the stack
	return &b.stripes[(h*0x9e3779b97f4a7c15)>>(64-stripeBits)]
}

// The layout of Budget.state. 20 bits hold up to 1048.575 tokens, enough for
// gRFC A6's largest bucket of 1000; 44 bits count 1.7e13 successes between
// wraps.
const (
	spentBits  = 20
	spentMask  = 1<<spentBits - 1
	successOne = 1 << spentBits
)

// NewBudget returns a full Budget holding maxTokens tokens, to which every
// success gives back tokenRatio tokens. Both are kept to 3 decimal places
// (milli-tokens), as in gRFC A6.
//
// NewBudget returns an error naming the parameter, and no Budget, when
// maxTokens or tokenRatio is NaN, infinite, zero or negative or rounds to
// less than 0.001, or when maxTokens exceeds 1000, the limit gRFC A6 sets
// (tokenRatio has no upper limit). It never clamps a bad value into range.
func NewBudget(maxTokens, tokenRatio float64) (*Budget, error) {
	maxMilli, err := milliTokens("maxTokens", maxTokens, MaxBudgetTokens)
	if err != nil {
		return nil, err
	}
	ratioMilli, err := milliTokens("tokenRatio", tokenRatio, math.MaxInt32)
	if err != nil {
		return nil, err
	}
	return &Budget{maxMilli: maxMilli, ratioMilli: ratioMilli}, nil
}

// MaxBudgetTokens is the largest maxTokens NewBudget accepts, as in gRFC A6.
const MaxBudgetTokens = 1000

// milliTokens converts a token count to milli-tokens, or says why it cannot.
func milliTokens(name string, v, limit float64) (int64, error) {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return 0, fmt.Errorf("budget: invalid %s %v: must be a finite number", name, v)
	case v <= 0:
		return 0, fmt.Errorf("budget: invalid %s %v: must be positive", name, v)
	case v > limit:
		return 0, fmt.Errorf("budget: invalid %s %v: must not exceed %g", name, v, limit)
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
	spent := int64(b.state.Load() & spentMask)
	// tokens > max/2, in integers without rounding: 2*(max-spent) > max.
	if 2*(full-spent) > full {
		b.stripe().allowed.Add(1)
		return true
	}
	b.stripe().denied.Add(1)
	return false
}

// peekRetry is Allow without counting a grant; a denial is counted.
func (b *Budget) peekRetry() bool {
	full := b.max()
	spent := int64(b.state.Load() & spentMask)
	if 2*(full-spent) > full {
		return true
	}
	b.stripe().denied.Add(1)
	return false
}

// RecordSuccess reports a successful attempt: the bucket gains tokenRatio
// tokens, up to maxTokens. On a full bucket it is one atomic add to a
// counter; otherwise one compare-and-swap when uncontended. It does not
// allocate.
func (b *Budget) RecordSuccess() {
	r := b.ratio()
	for {
		old := b.state.Load()
		if old&spentMask == 0 {
			// Full: the healthy steady state. Count it where no
			// compare-and-swap can fail.
			b.stripe().fullSuccesses.Add(1)
			return
		}
		spent := int64(old&spentMask) - r
		if spent < 0 {
			spent = 0
		}
		// Adding to the high bits wraps the count modulo 2^44 by itself.
		n := (old&^spentMask + successOne) | uint64(spent)
		if b.state.CompareAndSwap(old, n) {
			if n>>spentBits == 0 {
				b.wraps.Add(1)
			}
			return
		}
	}
}

// RecordFailure reports a failed attempt: the bucket loses one token, down to
// zero. It is lock-free and does not allocate.
func (b *Budget) RecordFailure() {
	b.stripe().failures.Add(1)
	full := uint64(b.max())
	for {
		old := b.state.Load()
		spent := old & spentMask
		if spent >= full {
			return // empty: nothing to write
		}
		spent += milli
		if spent > full {
			spent = full
		}
		if b.state.CompareAndSwap(old, old&^spentMask|spent) {
			return
		}
	}
}

// Record reports the outcome of one attempt: RecordSuccess when err is nil,
// RecordFailure otherwise. An error marked with Permanent is counted as a
// failed request but leaves the tokens alone: as in gRFC A6, only failures
// that would be retried drain the bucket, so a caller's own bad requests
// cannot starve its retries.
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
	return float64(b.max()-int64(b.state.Load()&spentMask)) / milli
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
		s.Requests += c.fullSuccesses.Load()
		s.Failures += c.failures.Load()
		s.RetriesAllowed += c.allowed.Load()
		s.RetriesDenied += c.denied.Load()
	}
	s.Requests += s.Failures + b.wraps.Load()<<(64-spentBits) + b.state.Load()>>spentBits
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

// GRPCBudget returns a full Budget with gRPC's retry throttling numbers
// (gRFC A6 as the seed sizes it): maxTokens 1000, tokenRatio 0.1.
func GRPCBudget() *Budget {
	return &Budget{maxMilli: DefaultMaxTokens * milli, ratioMilli: DefaultTokenRatio * milli}
}
