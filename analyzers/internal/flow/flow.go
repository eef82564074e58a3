// Package flow finds retry sites by the SPEC's definition, computed on a
// function's control-flow graph and values (SSA) rather than on its
// syntax: a retry site is a cycle on which an operation's failure leads
// to the same operation again, and its success leaves. A `for` loop, a
// `goto` back to a label and a `select`-paced loop are the same thing
// here, a natural loop of the graph; recursion (a failure that leads to a
// call of the function itself, or of the closure stored in the variable it
// calls, with the same inputs) is the call graph's cycle.
//
// The definition sorts the look-alikes by its own inputs, with no gate per
// shape:
//
//   - periodic work: the outcome does not decide the repeat (success and
//     failure leave the cycle by the same edges, or not at all);
//   - collection and failover: the operation's input advances on the way
//     round (an element of a slice, a map or a channel, a loop-carried
//     value);
//   - read and consume loops: success goes round; a consume loop, whose
//     failure waits before it goes round and whose success does not, is
//     kept as a Consume site (its error branch is judged for its delay
//     and its cancellation, SPEC "Consume loops").
//
// This package is the engine of the model v3 and runs in the shadow of
// the v2 model (analyzers/retryloop) until it is at least as good on the
// frozen test split.
package flow

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Kind is what a site's cycle does with its operation's outcomes.
type Kind int

const (
	// Retry: failure goes round to the same operation, success leaves.
	Retry Kind = iota + 1
	// Consume: success goes round, and failure waits before it goes round
	// (the error branch of a consume loop).
	Consume
)

func (k Kind) String() string {
	switch k {
	case Retry:
		return "retry"
	case Consume:
		return "consume"
	}
	return "?"
}

// Site is one retried operation on one cycle.
type Site struct {
	Kind Kind
	// Op is the retried operation.
	Op *ssa.Call
	// Header is the cycle's entry block (the loop head, the goto's label).
	Header *ssa.BasicBlock
	// Test is the branch that decides on the operation's outcome;
	// Failure and Success are its successors on failure and on success.
	Test             *ssa.If
	Failure, Success *ssa.BasicBlock
	// Exits are the edges by which success leaves the cycle and failure
	// does not (empty for a Consume site).
	Exits []Edge
	// Waits are the waits on the failure path back to the operation.
	Waits []token.Pos
	// Lo and Hi span the positions of the cycle's instructions (zero for
	// recursion): the innermost loop statement holding them is the one
	// whose cycle this is.
	Lo, Hi token.Pos
	// Status: the test that sends failure round compares a status code
	// the operation returned, not its error.
	Status bool
	// Evidence is what the loop site's values say of its attempts (the
	// zero value, all unknown, for a consume or recursive site).
	Evidence Evidence
	// Recursive is the call of the function itself that runs the
	// operation again, for a site whose cycle is the call graph's (Header
	// is then nil).
	Recursive *ssa.Call
}

// Edge is a control-flow edge.
type Edge struct{ From, To *ssa.BasicBlock }

// Sites returns the retry and consume sites of fn, one per operation and
// cycle, in the order of their operations' positions. It never panics on
// well-formed SSA, and gives up (returns what it has) on a function whose
// path search exceeds its state limit.
func Sites(fn *ssa.Function) []*Site {
	if fn == nil || len(fn.Blocks) < 2 {
		return nil
	}
	a := &analysis{fn: fn, origins: map[ssa.Value][]*ssa.Call{}}
	loops := naturalLoops(fn)
	// The tests of each operation, known polarity first.
	type branchTest struct {
		b   *ssa.BasicBlock
		ifi *ssa.If
		t   test
	}
	byOp := map[*ssa.Call][]branchTest{}
	var ops []*ssa.Call
	for _, b := range fn.Blocks {
		ifi, ok := last(b).(*ssa.If)
		if !ok {
			continue
		}
		for _, t := range a.tests(ifi.Cond) {
			if byOp[t.op] == nil {
				ops = append(ops, t.op)
			}
			byOp[t.op] = append(byOp[t.op], branchTest{b, ifi, t})
		}
	}
	var sites []*Site
	for _, op := range ops {
		tests := byOp[op]
		// Known polarity first, and among those the tests that tell
		// success from every failure before those of one kind of failure.
		rank := func(t test) int { return 2*boolInt(t.known) + boolInt(!t.kind) }
		slices.SortStableFunc(tests, func(x, y branchTest) int { return rank(y.t) - rank(x.t) })
		// Where the operation's success is known (err == nil, a true ok),
		// it is where success starts, whatever test sends failure round;
		// failing that, the other branch of a test of one kind of failure
		// (success, or another failure).
		var success *Edge
		for _, bt := range tests {
			if bt.t.known {
				e := Edge{bt.b, bt.b.Succs[0]}
				if bt.t.failTrue {
					e.To = bt.b.Succs[1]
				}
				success = &e
				break
			}
		}
		for _, bt := range tests {
			s := a.site(loops, bt.b, bt.ifi, bt.t, success)
			if s == nil {
				s = a.recursion(op, bt.b, bt.ifi, bt.t)
			}
			if s != nil {
				sites = append(sites, s)
				break
			}
		}
	}
	slices.SortFunc(sites, func(x, y *Site) int { return int(x.Op.Pos() - y.Op.Pos()) })
	return sites
}

// analysis holds one function's caches.
type analysis struct {
	fn      *ssa.Function
	origins map[ssa.Value][]*ssa.Call
}

// site decides whether the test t of ifi (ending block b) makes t.op a
// site of the innermost loop around it on which its failure goes round.
// success is the edge on which the operation's success is known to start,
// or nil: then a status test's other branch is its success, and a
// classifier's verdict alone decides nothing (what it says of a success is
// not known).
func (a *analysis) site(loops []*loop, b *ssa.BasicBlock, ifi *ssa.If, t test, success *Edge) *Site {
	for _, l := range loops { // innermost first
		if !l.blocks[b] || !l.blocks[t.op.Block()] {
			continue
		}
		for _, failTrue := range t.polarities() {
			fail, succ := b.Succs[1], b.Succs[0]
			if failTrue {
				fail, succ = succ, fail
			}
			p := &paths{a: a, l: l, op: t.op}
			if !p.reaches(fail, b) {
				continue
			}
			succFrom := b
			switch {
			case t.known && !t.kind:
			case success != nil:
				succFrom, succ = success.From, success.To
			case !t.status:
				return nil
			}
			// The innermost loop on which failure goes round decides.
			if a.advances(t.op, l) {
				return nil
			}
			s := &Site{Op: t.op, Header: l.header, Test: ifi, Failure: fail, Success: succ, Status: t.status}
			s.Lo, s.Hi = l.span()
			failExits := p.exits(fail, b)
			for _, e := range p.exits(succ, succFrom) {
				if !slices.Contains(failExits, e) {
					s.Exits = append(s.Exits, e)
				}
			}
			if len(s.Exits) > 0 && t.verdict && len(p.waits(fail, b)) == 0 {
				return nil // an iterator's loop: it goes on at once
			}
			if len(s.Exits) > 0 {
				s.Kind = Retry
				s.Waits = p.waits(fail, b)
				s.Evidence = p.evidence(fail, b)
				s.Evidence.Deadline = OpDeadline(t.op)
				s.Evidence.Local = localOp(t.op)
				return s
			}
			if t.known && (p.consumes(fail, succ, b) || p.choosesDelay(fail, succ, b)) {
				s.Kind = Consume
				s.Waits = p.waits(fail, b)
				return s
			}
			return nil
		}
	}
	return nil
}

// last returns b's terminating instruction.
func last(b *ssa.BasicBlock) ssa.Instruction {
	if len(b.Instrs) == 0 {
		return nil
	}
	return b.Instrs[len(b.Instrs)-1]
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

var errorType = types.Universe.Lookup("error").Type()

func isError(t types.Type) bool { return types.Identical(t, errorType) }
