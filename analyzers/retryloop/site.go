package retryloop

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"net/textproto"
	"slices"
	"strings"
	"time"

	"github.com/retrylint/retrylint/analyzers/internal/libmodel"

	"github.com/retrylint/retrylint/analyzers/internal/astq"
)

// Result lists the retry sites of a package in source order.
type Result struct {
	Sites []*Site
	// Quiet are library retry sites no check has a finding on: retry
	// layers all the same (nested retries, the inventory).
	Quiet []*Site
	// KeyHeaders are the extra idempotency key header names the sites
	// were classified with (-retryidempotency.headers), as given.
	KeyHeaders []string
	// Resent are the writes built here with a request builder and handed
	// to a sender that re-sends them through a retrying client (a
	// wrapper's Do method): judged where they are built.
	Resent []*Request
	// Directives are the package's retrylint directive comments
	// (diag.Directives), read once here for every reporter.
	Directives []*ast.Comment
	// FactOf returns the fact of a function of this package or another,
	// or nil (instruments read it; nil when the package has no site).
	FactOf func(fn *types.Func) *FuncFact
}

// Shape is the syntactic form of a retry site.
type Shape int

const (
	ShapeCounted   Shape = iota + 1 // for i := 0; i < n; i++ / for range n
	ShapeBare                       // for { } or for cond { } with a success exit
	ShapeFlag                       // for !done { } driven by a flag set on success
	ShapeGoto                       // a label jumped back to on failure
	ShapeRecursion                  // a function that calls itself after a failure
	ShapeLibrary                    // a call into a retry library
	ShapeHelper                     // a call to a retry helper of the code base, judged through its fact
)

var shapeNames = map[Shape]string{
	ShapeCounted: "counted", ShapeBare: "bare", ShapeFlag: "flag",
	ShapeGoto: "goto", ShapeRecursion: "recursion", ShapeLibrary: "library", ShapeHelper: "helper",
}

func (s Shape) String() string { return shapeNames[s] }

// Bound says what limits the number of attempts.
type Bound int

const (
	BoundNone     Bound = iota // nothing visible limits the attempts
	BoundCounter               // an attempt counter
	BoundElapsed               // an elapsed-time check
	BoundDeadline              // a context deadline consulted between attempts
	BoundUnknown               // a bound the analysis cannot judge (library config it cannot see)
)

var boundNames = [...]string{"none", "counter", "elapsed", "deadline", "unknown"}

func (b Bound) String() string { return boundNames[b] }

// Growth says how the delay between attempts evolves.
type Growth int

const (
	GrowthUnknown Growth = iota // cannot tell: silent
	GrowthAbsent                // no wait at all: immediate retry
	GrowthFixed                 // the same value every time
	GrowthGrowing               // grows with the attempt (*=, <<, math.Pow, base*n, ...)
	GrowthServer                // directed by the server (Retry-After, rate-limit reset)
)

var growthNames = [...]string{"unknown", "absent", "fixed", "growing", "server"}

func (g Growth) String() string { return growthNames[g] }

// WaitKind is how a wait is performed.
type WaitKind int

const (
	WaitSleep   WaitKind = iota + 1 // time.Sleep
	WaitAfter                       // <-time.After outside a select
	WaitSelect                      // a select with a timer case
	WaitTimer                       // <-t.C of a time.Timer
	WaitTicker                      // <-t.C of a time.Ticker / time.Tick
	WaitHelper                      // a function that waits
	WaitLibrary                     // inside a retry library
)

var waitNames = map[WaitKind]string{
	WaitSleep: "sleep", WaitAfter: "after", WaitSelect: "select", WaitTimer: "timer",
	WaitTicker: "ticker", WaitHelper: "helper", WaitLibrary: "library",
}

func (w WaitKind) String() string { return waitNames[w] }

// Wait is one wait between attempts.
type Wait struct {
	Kind        WaitKind
	Node        ast.Node // the wait call, receive or select statement
	Call        *ast.CallExpr
	Delay       ast.Expr // the delay expression, if any
	Growth      Growth
	Jitter      bool // randomness flows into the delay
	Cancellable bool // the wait is raced against a context or stop channel
	// StopOn are the channels a cancellable select receives from besides
	// its timers (ctx.Done(), s.stop).
	StopOn []ast.Expr
	// Sleeps: a helper's wait that sleeps through cancellation
	// (time.Sleep, or SleepsOn: time.After, a timer's channel)
	// consulting nothing.
	Sleeps   bool
	SleepsOn string
	// Shared: successful rounds wait here too, for a delay of their own;
	// Delay is the one a failure chooses (wait = time.Second).
	Shared bool
	// Related are places that decide the delay (a function computing it).
	Related []token.Pos
	// Note describes where the growth was seen, for messages.
	Note string
}

// Deadline classifies the deadline of a context.
type Deadline int

const (
	DeadlineUnknown Deadline = iota // cannot tell
	DeadlineNone                    // context.Background/TODO made in the function, or no context at all
	DeadlineCaller                  // received as a parameter: the caller's deadline
	DeadlineSet                     // derived with WithTimeout/WithDeadline
)

var deadlineNames = [...]string{"unknown", "none", "caller", "set"}

func (d Deadline) String() string { return deadlineNames[d] }

// Context describes the context of a retry site.
type Context struct {
	// InScope is a context.Context variable visible at the site, or nil.
	InScope *types.Var
	// StopChan is a stop channel visible at the site, or nil.
	StopChan *types.Var
	// Attempts is the deadline under which the attempts run.
	Attempts Deadline
	// AttemptTimeout reports whether each attempt has its own timeout
	// (WithTimeout inside the loop, an http.Client with Timeout, a net.Dialer with Timeout).
	AttemptTimeout bool
	// Consulted reports whether the site checks ctx.Err()/ctx.Done() (or the
	// stop channel) between attempts.
	Consulted bool
	// BackgroundCall is the context.Background/TODO call the attempts run
	// under, when it was made in the function (for fixes).
	BackgroundCall *ast.CallExpr
}

// Request is an HTTP request sent by the operation of a site.
type Request struct {
	Pos    token.Pos     // the send (Do, Post, ...) or the call reaching it
	Send   *ast.CallExpr // the send call
	Build  *ast.CallExpr // the http.NewRequest* call, if seen
	Method string        // upper-case method, "" if unknown
	// Headers are the canonical header names set on the request.
	Headers []string
	// KeyInLoop reports whether a key header value is minted on every attempt.
	KeyInLoop bool
	KeyPos    token.Pos
	KeyVal    ast.Expr // the key header's value expression, if seen
	// Shortcut reports whether the send is http.Post/PostForm or (*http.Client).Post/PostForm.
	Shortcut bool
	// Via is the function (another package or this one) that sends the request, if not direct.
	Via types.Object
	// Client describes the client used: whether it has a timeout.
	ClientTimeout Tri
}

// JumpKind is what a branch statement in a loop body does to the loop.
type JumpKind int

const (
	JumpOther JumpKind = iota // of an inner loop, switch or select, or to another loop's label
	JumpNext                  // continue (or continue L) of this loop: the next attempt
	JumpLeave                 // break (or break L) of this loop: the code after it runs
	JumpGoto                  // goto: anywhere
)

// Jump is one branch statement of a loop site's body.
type Jump struct {
	Stmt *ast.BranchStmt
	Kind JumpKind
}

// JumpsIn reports whether one of the site's jumps of the given kinds
// lies within the statements.
func (s *Site) JumpsIn(stmts []ast.Stmt, kinds ...JumpKind) bool {
	for _, j := range s.Jumps {
		if !slices.Contains(kinds, j.Kind) {
			continue
		}
		for _, st := range stmts {
			if st.Pos() <= j.Stmt.Pos() && j.Stmt.End() <= st.End() {
				return true
			}
		}
	}
	return false
}

// Flow is what the path simulation found of one retried operation's
// outcomes: how every path of one round ends under its success and under
// its failure.
type Flow struct {
	Op *ast.CallExpr
	// Success and Failure are the ends of the round's paths when Op
	// succeeds and when it returns an error (a failure status with no
	// error is not walked here: a site that retries one is StatusRetry).
	Success, Failure []End
}

// End is how one simulated path of a round ended.
type End struct {
	// Pos is where the path stopped in the round: the return, break,
	// continue or goto, or the call that does not return; token.NoPos
	// when it ran to the end of the round (and then left at the loop's
	// condition or went round).
	Pos token.Pos
	// Leaves: the path left the site (else it went round again).
	Leaves bool
	// Decided: the operation's outcome decided that the path leaves (a
	// success exit), not a branch on something else.
	Decided bool
}

// Exits returns where a success of the operation leaves the site as its
// outcome decided (token.NoPos for the loop's condition, after a round
// run to its end).
func (f *Flow) Exits() []token.Pos {
	var out []token.Pos
	for _, e := range f.Success {
		if e.Leaves && e.Decided && !slices.Contains(out, e.Pos) {
			out = append(out, e.Pos)
		}
	}
	return out
}

// SuccessMayReach reports whether a path under the operation's success
// may reach pos in the round: one that stops at or after pos, or runs to
// the end. (Positions say "after", not "through": the answer errs
// towards yes.)
func (f *Flow) SuccessMayReach(pos token.Pos) bool {
	for _, e := range f.Success {
		if !e.Pos.IsValid() || e.Pos >= pos {
			return true
		}
	}
	return false
}

// FailureStopsIn reports whether a path under the operation's failure
// stops in [from, to): it leaves there (gives up) or goes round from
// there by a jump.
func (f *Flow) FailureStopsIn(from, to token.Pos) bool {
	for _, e := range f.Failure {
		if e.Pos.IsValid() && from <= e.Pos && e.Pos < to {
			return true
		}
	}
	return false
}

// GivesUpIn reports whether a path under the operation's failure leaves
// the site in [from, to).
func (f *Flow) GivesUpIn(from, to token.Pos) bool {
	return f.failureEndsIn(from, to, true)
}

// RoundsIn reports whether a path under the operation's failure goes
// round to the next attempt by a jump in [from, to) (continue, a goto
// back): a retry edge there.
func (f *Flow) RoundsIn(from, to token.Pos) bool {
	return f.failureEndsIn(from, to, false)
}

func (f *Flow) failureEndsIn(from, to token.Pos, leaves bool) bool {
	for _, e := range f.Failure {
		if e.Leaves == leaves && e.Pos.IsValid() && from <= e.Pos && e.Pos < to {
			return true
		}
	}
	return false
}

// FlowOf returns the flow of the retried operation op, or nil.
func (s *Site) FlowOf(op *ast.CallExpr) *Flow {
	for _, f := range s.Flows {
		if f != nil && f.Op == op {
			return f
		}
	}
	return nil
}

// Kept is one assignment that keeps a failure past the loop.
type Kept struct {
	Var *types.Var
	Pos token.Pos // the assignment
}

// Tri is a three-valued truth.
type Tri int

const (
	Unknown Tri = iota
	Yes
	No
)

// Site is one retry site.
type Site struct {
	Shape Shape
	// Node is the loop (*ast.ForStmt, *ast.RangeStmt), the labeled
	// statement, the recursive *ast.FuncDecl or the library *ast.CallExpr.
	Node ast.Node
	// Pos is where diagnostics about the site go (the loop keyword, the goto, the call).
	Pos token.Pos
	End token.Pos
	// Func is the enclosing function (*ast.FuncDecl or *ast.FuncLit).
	Func ast.Node
	File *ast.File
	// Consume reports whether the site is the error branch of a consume loop
	// (continues on success; waits and calls again on error).
	Consume bool
	// Ops are the retried operations.
	Ops []*ast.CallExpr
	// OpFunc is the closure a helper call is handed by name (try :=
	// func() error {...}; retry(try)): its calls run on every attempt.
	OpFunc *ast.FuncLit
	// StatusRetry reports whether a response with a failure status code
	// (no error) goes round too, or may (a test of the status the model
	// cannot classify, resp.StatusCode == 200), not only a returned error.
	StatusRetry bool
	// Remote is an operation that reaches the network, or nil;
	// RemoteWhy, when Remote is nil, why remoteness is unknown (an
	// operation is a function value or an interface method).
	Remote    *ast.CallExpr
	RemoteWhy string
	// Repair: the site is one re-attempt after a corrective action,
	// triggered only by the failure it repairs (a token refresh after
	// 401): no retry for retrybudget, retrysleep, retryjitter or
	// retrynested (SPEC, "A repair is not a retry").
	Repair bool
	// Local: every retried operation is known to be local work (an
	// in-memory lookup, a compare-and-swap, a local file or lock).
	Local bool
	// QuietBeside: the site waits nowhere the model sees, and every call
	// of its loop but its operations is known local, so none hides a
	// wait: the wait is known absent even when the operations are unknown.
	QuietBeside bool
	// Counter is the attempt counter of a counted loop, or nil.
	Counter *Counter
	// Jumps are the branch statements of a loop site's body (outside
	// function literals), each with what it does to the loop: fixes
	// read them rather than walk the body again.
	Jumps []Jump
	// Flows are what the path simulation found of each retried
	// operation's outcomes (where a success leaves, where a failure
	// gives up or goes round), in the order of Ops; nil for an operation
	// whose failure was not walked (one retried because of what its
	// result says). Fixes read them rather than decide the loop again.
	Flows []*Flow
	// After is the statement right after a loop site in its statement
	// list: where a loop that runs out of attempts goes on (the give-up
	// path), or nil. Labeled reports that the loop is labeled (After
	// follows its labeled statement).
	After   ast.Stmt
	Labeled bool
	// Kept are the assignments in a loop site's body to error variables
	// declared outside it (lastErr = err): where the loop keeps a
	// failure for the code after it to return.
	Kept []Kept
	// Bound limits the attempts; BoundPos is where (the condition).
	Bound    Bound
	BoundPos token.Pos
	// Waits between attempts (on the paths that retry).
	Waits []*Wait
	// Ctx describes the context.
	Ctx Context
	// Budget lists the budget, limiter or breaker consultations.
	Budget []token.Pos
	// FuncBudget reports whether the enclosing function consults a budget
	// somewhere (before the loop, say).
	FuncBudget bool
	// Requests sent by the operations.
	Requests []*Request
	// Library is the retry library's import path for ShapeLibrary sites.
	Library string
	// HandedOp is set on a generic retry helper's own loop: the retried
	// call of the operation its callers hand it (a parameter). Handed is
	// what the calls in this package hand it: remote work (present, at
	// HandedPos), only local work (absent), or work the model cannot see
	// into, or no call in sight (unknown).
	HandedOp  *ast.CallExpr
	Handed    State
	HandedPos []token.Pos
	// HandedCalls counts the calls in this package that hand the helper
	// work; HandedPlain that its loop calls nothing but its operations
	// and what only reads their error (errors.Is(err, ErrX)), so no call
	// it makes can hold its attempt cap.
	HandedCalls int
	HandedPlain bool
	// HandedFunc: a function value is among the work it is handed (not
	// only values whose methods it calls).
	HandedFunc bool
	// HelperReported is set on a call of a helper in another package whose
	// missing budget is reported at the helper's loop, in its package.
	HelperReported bool
	// LibOp is the operation a library site retries, when an argument;
	// LibBudgetless that the library call holds no budget of its own.
	LibOp         ast.Expr
	LibBudgetless bool
	// LibRemote: the library call's operation reaches the network, or
	// the call sends itself (a client with built-in retries).
	LibRemote bool
	// LibAnyMethod: the library call re-sends its request whatever the
	// method (libmodel.Site.AnyMethod).
	LibAnyMethod bool
	// LibConfig is the construction of the client a library site sends
	// through, when in view (libmodel.Site.Config): where a fix to it is
	// made once for every send.
	LibConfig ast.Node
	// LibFindings are what a library site's configuration shows
	// (libmodel.Finding): the reporters decide and word.
	LibFindings []libmodel.Finding
	// Attempts is the most attempts one run of the site makes, as far as
	// the code shows (AttemptsUnknown, AttemptsUnbounded).
	Attempts int
	// Inner are the retry layers the retried operation reaches: the
	// attempts multiply.
	Inner []*Layer
	// keyHeaders are Result.KeyHeaders, so that String marks a keyed
	// request as the model judged it.
	keyHeaders []string
	// ev is the site's evidence, once the model has finished it.
	ev *Evidences
}

// Counter is what the model knows of a loop's counter: a counted loop's
// (for i := 0; i < n; i++, for range n, for i := range n), or the one a
// for loop's header counts while the bound is elsewhere (for i := 0; ;
// i++).
type Counter struct {
	// Var is the loop variable (nil for for range n).
	Var *types.Var
	// Limit is the number of rounds the loop counts to (n).
	Limit ast.Expr
	// N is Limit's value when it is an integer constant, else 0.
	N int64
	// Plain: the counter starts at 0, counts up by one to Limit
	// exclusive, and nothing in the body reads it; the loop makes
	// exactly N attempts unless an attempt succeeds (a fix may hand N
	// to a library as the attempts).
	Plain bool
	// Steps: the counter starts at 0 and only the loop itself moves
	// it, by one a round (i++ in the header, or range): Var > 0 holds
	// on every attempt but the first.
	Steps bool
}

// Delay returns the growth of the delay between attempts, combining every
// wait: absent when there is none, unknown when any is unknown.
func (s *Site) Delay() Growth {
	if len(s.Waits) == 0 {
		return GrowthAbsent
	}
	g := s.Waits[0].Growth
	for _, w := range s.Waits[1:] {
		if w.Growth != g {
			return GrowthUnknown
		}
	}
	return g
}

// Jittered reports whether randomness flows into any wait.
func (s *Site) Jittered() bool {
	for _, w := range s.Waits {
		if w.Jitter {
			return true
		}
	}
	return false
}

// LibraryFindings returns the library site's findings on the given
// properties that one check reports: the first for a call (a check speaks
// once per call), every one for a service config (each finding stands
// for a method config of its own).
func (s *Site) LibraryFindings(props ...libmodel.Prop) []libmodel.Finding {
	var out []libmodel.Finding
	for _, f := range s.LibFindings {
		if slices.Contains(props, f.Prop()) {
			out = append(out, f)
		}
	}
	if !s.serviceConfig() && len(out) > 1 {
		out = out[:1]
	}
	return out
}

// serviceConfig reports whether the site is a gRPC service config: a
// library site standing for a file's configs rather than a call.
func (s *Site) serviceConfig() bool {
	_, ok := s.Node.(*ast.File)
	return s.Shape == ShapeLibrary && ok
}

// Subject names the site in messages: "retry loop", or "retry helper call".
func (s *Site) Subject() string {
	if s.Shape == ShapeHelper {
		return "retry helper call"
	}
	return "retry loop"
}

// WaitsElsewhere reports whether the site's loop body waits (time.Sleep,
// time.After, a timer, budget.Sleep) somewhere that is not one of its
// Waits: on a path the model could not judge. A fix that rewrote only the
// known waits would leave that one as it was, and hide it.
func (s *Site) WaitsElsewhere(info *types.Info) bool {
	found := false
	ast.Inspect(s.Node, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		c, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		if !astq.IsFunc(astq.Callee(info, c), "time.Sleep", "time.After", "time.NewTimer", "time.Tick", BudgetPath+".Sleep") {
			return true
		}
		for _, w := range s.Waits {
			if w.Node.Pos() <= c.Pos() && c.End() <= w.Node.End() {
				return true
			}
		}
		found = true
		return false
	})
	return found
}

// KeyHeaders returns the extra idempotency key header names the site was
// classified with (Result.KeyHeaders), for Request.HasKey.
func (s *Site) KeyHeaders() []string { return s.keyHeaders }

// String renders a site's classification for the model's tests.
func (s *Site) String() string {
	var b strings.Builder
	b.WriteString("retry site: shape=" + s.Shape.String())
	if s.Consume {
		b.WriteString(" consume")
	}
	b.WriteString(" bound=" + s.Bound.String())
	b.WriteString(" delay=" + s.Delay().String())
	if s.Jittered() {
		b.WriteString(" jitter=yes")
	} else {
		b.WriteString(" jitter=no")
	}
	b.WriteString(" ctx=" + s.Ctx.Attempts.String())
	if s.Ctx.Consulted {
		b.WriteString(" consulted")
	}
	if s.Remote != nil {
		b.WriteString(" remote")
	}
	if len(s.Budget) > 0 {
		b.WriteString(" budget")
	}
	for _, r := range s.Requests {
		m := r.Method
		if m == "" {
			m = "?"
		}
		b.WriteString(" req=" + m)
		if r.hasKey(s.keyHeaders) {
			b.WriteString("+key")
		}
		if r.KeyInLoop {
			b.WriteString("(minted-in-loop)")
		}
	}
	if s.Attempts != AttemptsUnknown {
		b.WriteString(" attempts=" + ChainString([]int{s.Attempts}))
	}
	if in := s.Worst(); in != nil {
		b.WriteString(" nested=" + strings.ReplaceAll(ChainString(in.Chain), " × ", "x"))
	}
	return b.String()
}

// HasKey reports whether the request sets one of the key headers
// (defaults plus extra, canonicalised).
func (r *Request) HasKey(extra []string) bool { return r.hasKey(extra) }

func (r *Request) hasKey(extra []string) bool {
	for _, h := range r.Headers {
		if isKeyHeader(h, extra) {
			return true
		}
	}
	return false
}

func isKeyHeader(h string, extra []string) bool {
	// Any name ending in Idempotency-Key is a key (SPEC: K6-Idempotency-Key,
	// X-Idempotency-Key), whatever its case.
	if len(h) >= len(keySuffix) && strings.EqualFold(h[len(h)-len(keySuffix):], keySuffix) {
		return true
	}
	for _, x := range extra {
		if textproto.CanonicalMIMEHeaderKey(x) == h {
			return true
		}
	}
	return false
}

// keySuffix ends every idempotency key header recognised without
// configuration; the -headers option adds other names.
const keySuffix = "Idempotency-Key"

// defaultKeyHeaders are the idempotency key headers the inventory names as
// always recognised (any name ending in keySuffix is).
var defaultKeyHeaders = []string{"Idempotency-Key", "X-Idempotency-Key"}

// NonIdempotent reports whether the request's method needs a key (POST, PATCH).
func (r *Request) NonIdempotent() bool { return r.Method == "POST" || r.Method == "PATCH" }

// LocalWork reports whether the site retries work known to be local: its
// operations, or, for a generic helper, all that the calls in its package
// hand it (SPEC, "Retries of local work").
func (s *Site) LocalWork() bool {
	if s.HandedOp != nil {
		return s.Handed == StateAbsent
	}
	return s.Local
}

// RetriesRemote reports whether the site's retried work is known to reach
// the network: its operation, or what a generic helper's callers hand it
// here, or a library call's operation (SPEC, "Retries of local work":
// retrybudget and retrynested need it).
func (s *Site) RetriesRemote() bool {
	if s.Shape == ShapeLibrary {
		return s.LibRemote || s.serviceConfig()
	}
	return s.Remote != nil || s.HandedOp != nil && s.Handed == StatePresent
}

// Budgeted reports whether s consults a retry budget.
func (s *Site) Budgeted() bool {
	return len(s.Budget) > 0 || s.FuncBudget || s.Shape == ShapeLibrary && !s.LibBudgetless
}

// Chain returns the attempt counts of s and of its worst inner layers,
// outermost first.
func (s *Site) Chain() []int {
	chain := []int{s.Attempts}
	if x := s.Worst(); x != nil {
		chain = append(chain, x.Chain...)
	}
	return chain
}

// Worst returns the inner layer whose chain makes the most attempts (an
// unbounded one first), or nil when the operation does not retry again.
func (s *Site) Worst() *Layer { return WorstLayer(s.Inner) }

// WaitsBelow reports whether the waits of one run of the site, all
// attempts together, are known to stay under limit: an attempt cap the
// code shows, and waits that are fixed constants it can add up (one wait
// per attempt, the last included: an upper bound). A wait it cannot
// add up (a growing one, a helper's, a library's) makes it false.
func (s *Site) WaitsBelow(info *types.Info, limit time.Duration) bool {
	if s.Attempts <= 0 || len(s.Waits) == 0 {
		return false
	}
	var round time.Duration
	for _, w := range s.Waits {
		if w.Growth != GrowthFixed || w.Jitter || w.Delay == nil {
			return false
		}
		switch w.Kind {
		case WaitSleep, WaitAfter, WaitTimer, WaitSelect, WaitTicker:
		default:
			return false
		}
		tv, ok := info.Types[w.Delay]
		if !ok || tv.Value == nil {
			return false
		}
		d, exact := constant.Int64Val(constant.ToInt(tv.Value))
		if !exact || d < 0 || d >= int64(limit) {
			return false
		}
		round += time.Duration(d)
		if round >= limit {
			return false
		}
	}
	return int64(round) < int64(limit)/int64(s.Attempts)
}
