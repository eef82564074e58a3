package flow

import (
	"fmt"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/analyzers/internal/astq"
	"golang.org/x/tools/go/ssa"
)

// Bound is what ends a site's attempts while its operation keeps failing.
type Bound int

const (
	// BoundUnknown: failure leaves by a test the model cannot read.
	BoundUnknown Bound = iota
	// BoundNone: failure never leaves the cycle.
	BoundNone
	// BoundCounter: a value the cycle steps each lap, compared.
	BoundCounter
	// BoundDeadline: a context's end, a deadline timer or an elapsed
	// time, tested.
	BoundDeadline
)

var boundNames = [...]string{"unknown", "none", "counter", "deadline"}

func (b Bound) String() string { return boundNames[b] }

// Delay is how the wait between a site's attempts is computed.
type Delay int

const (
	// DelayUnknown: a wait whose delay the model cannot read (a
	// parameter, a field, a helper's own).
	DelayUnknown Delay = iota
	// DelayNone: no wait on the way round.
	DelayNone
	// DelayFixed: a constant delay.
	DelayFixed
	// DelayGrowing: a delay made from a value the cycle increases each
	// lap (an attempt number, a delay it doubles).
	DelayGrowing
)

var delayNames = [...]string{"unknown", "none", "fixed", "growing"}

func (d Delay) String() string { return delayNames[d] }

// Evidence is what a site's values say of its attempts: what ends them,
// and the wait between them. It is computed once, with the site.
type Evidence struct {
	Bound Bound
	Delay Delay
	// Jitter: a value from math/rand flows into the delay.
	Jitter bool
	// Deadline is the deadline the operation's attempts run under.
	Deadline Deadline
	// Local: the operation is known to be local work (a compare-and-swap
	// of sync/atomic, a TryLock): lockstep retries of it hit nobody.
	Local bool
}

func (e Evidence) String() string {
	s := fmt.Sprintf("bound=%s delay=%s jitter=%t deadline=%s", e.Bound, e.Delay, e.Jitter, e.Deadline)
	if e.Local {
		s += " local"
	}
	return s
}

// localOp reports whether op is known to be local work: a function or
// method of sync/atomic, or a TryLock of package sync.
func localOp(op *ssa.Call) bool {
	fn := calleeFunc(op)
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	switch fn.Pkg().Path() {
	case "sync/atomic":
		return true
	case "sync":
		return fn.Name() == "TryLock" || fn.Name() == "TryRLock"
	}
	return false
}

// evidence computes a loop site's evidence from the edges by which its
// failure leaves the cycle and the waits on its way round from fail.
func (p *paths) evidence(fail, from *ssa.BasicBlock) Evidence {
	ev := Evidence{Bound: BoundNone, Delay: DelayNone}
	// Failure leaves by its own tests, a deadline's, a predicate's, or any
	// test no operation's outcome decides; not by another operation's failure
	// (a refresh that fails ends nothing while the operation keeps failing
	// and the refresh succeeding).
	keep := func(b, s *ssa.BasicBlock) bool {
		if ifi, ok := last(b).(*ssa.If); ok && (p.deadlineTest(ifi.Cond, 0) || p.predicate(ifi.Cond)) {
			return true
		}
		return p.ownOutcome(b, s)
	}
	p.walk(fail, from, keep, nil, func(e Edge) {
		if aborts(e.To) {
			return
		}
		b := p.exitBound(e)
		if ev.Bound == BoundNone || b > ev.Bound {
			ev.Bound = b
		}
	})
	p.walk(fail, from, nil, func(b *ssa.BasicBlock) {
		for _, in := range b.Instrs {
			d, ok := p.a.delayValue(in)
			if !ok {
				if _, waits := p.a.wait(in); waits && ev.Delay == DelayNone {
					// a wait whose delay is set elsewhere (a helper of
					// the package, a ticker's period)
					ev.Delay = DelayUnknown
				}
				continue
			}
			v := p.classify(d)
			if ev.Delay == DelayNone || v.delay > ev.Delay || v.delay == DelayUnknown {
				ev.Delay = v.delay
			}
			ev.Jitter = ev.Jitter || v.random
		}
	}, nil)
	return ev
}

// exitBound reads the test on which an edge leaves the cycle.
func (p *paths) exitBound(e Edge) Bound {
	ifi, ok := last(e.From).(*ssa.If)
	if !ok {
		return BoundUnknown
	}
	switch {
	case p.deadlineTest(ifi.Cond, 0):
		return BoundDeadline
	case p.counterTest(ifi.Cond, 0):
		return BoundCounter
	}
	return BoundUnknown
}

// counterTest reports whether cond compares a value the loop steps each
// lap (an attempt counter).
func (p *paths) counterTest(v ssa.Value, depth int) bool {
	if depth > 6 {
		return false
	}
	switch v := v.(type) {
	case *ssa.Phi:
		return p.steps(v)
	case *ssa.BinOp:
		return p.counterTest(v.X, depth+1) || p.counterTest(v.Y, depth+1)
	case *ssa.UnOp:
		return v.Op == token.NOT && p.counterTest(v.X, depth+1)
	case *ssa.Convert:
		return p.counterTest(v.X, depth+1)
	}
	return false
}

// steps reports whether a φ-node of the loop's header takes, on an edge
// from inside the loop, itself changed by a constant or multiplied (a
// counter, a doubling delay).
func (p *paths) steps(phi *ssa.Phi) bool {
	if phi.Block() != p.l.header {
		return false
	}
	for _, e := range phi.Edges {
		bin, ok := e.(*ssa.BinOp)
		if !ok || !p.l.inside(bin) {
			continue
		}
		switch bin.Op {
		case token.ADD, token.SUB, token.MUL, token.SHL:
			if unconv(bin.X) == phi || unconv(bin.Y) == phi {
				return true
			}
		}
	}
	return false
}

func unconv(v ssa.Value) ssa.Value {
	for {
		c, ok := v.(*ssa.Convert)
		if !ok {
			return v
		}
		v = c.X
	}
}

// deadlineTest reports whether cond reads a context's end (ctx.Err(), a
// select case receiving from ctx.Done()) or an elapsed time.
func (p *paths) deadlineTest(v ssa.Value, depth int) bool {
	if depth > 6 {
		return false
	}
	switch v := v.(type) {
	case *ssa.Call:
		return contextMethod(v, "Err") || timeCall(v)
	case *ssa.BinOp:
		if sel := selectIndex(v.X); sel != nil {
			return doneCase(sel, v.Y)
		}
		return p.deadlineTest(v.X, depth+1) || p.deadlineTest(v.Y, depth+1)
	case *ssa.UnOp:
		return v.Op == token.NOT && p.deadlineTest(v.X, depth+1)
	case *ssa.Extract:
		return p.deadlineTest(v.Tuple, depth+1)
	}
	return false
}

// selectIndex returns the select whose chosen case v is, or nil.
func selectIndex(v ssa.Value) *ssa.Select {
	if x, ok := v.(*ssa.Extract); ok && x.Index == 0 {
		sel, _ := x.Tuple.(*ssa.Select)
		return sel
	}
	return nil
}

// doneCase reports whether the select case k names receives from a
// context's Done channel.
func doneCase(sel *ssa.Select, k ssa.Value) bool {
	c, ok := k.(*ssa.Const)
	if !ok || c.Value == nil {
		return false
	}
	i := int(c.Int64())
	if i < 0 || i >= len(sel.States) {
		return false
	}
	ch, ok := sel.States[i].Chan.(*ssa.Call)
	return ok && contextMethod(ch, "Done")
}

// contextMethod reports whether c calls method name of a context.Context.
func contextMethod(c *ssa.Call, name string) bool {
	if c.Call.IsInvoke() {
		return c.Call.Method.Name() == name && isContext(c.Call.Value.Type())
	}
	return false
}

func isContext(t types.Type) bool { return astq.IsNamed(t, "context", "Context") }

// timeCall reports whether c reads the clock or an elapsed time.
func timeCall(c *ssa.Call) bool {
	f := c.Call.StaticCallee()
	if f == nil || f.Pkg == nil || f.Pkg.Pkg.Path() != "time" {
		return false
	}
	switch f.Name() {
	case "Since", "Until", "Now", "After", "Before", "Sub":
		return true
	}
	return false
}

// delayValue returns the delay in sets going (time.Sleep, time.After,
// time.NewTimer, Timer.Reset), if it does.
func (a *analysis) delayValue(in ssa.Instruction) (ssa.Value, bool) {
	call, ok := in.(*ssa.Call)
	if !ok {
		return nil, false
	}
	f := call.Call.StaticCallee()
	if f == nil {
		return nil, false
	}
	args := call.Call.Args
	switch {
	case isTimerReset(f) && len(args) == 2:
		return args[1], true
	case (isTimeFunc(f, "Sleep") || isTimeFunc(f, "After") || isTimeFunc(f, "NewTimer")) && len(args) == 1:
		return args[0], true
	}
	return nil, false
}

// delayClass is what classify found of a delay's operands.
type delayClass struct {
	delay  Delay
	random bool
}

// classify reads a delay: constant, made from a value the loop increases
// each lap, with randomness in it, or unknown.
func (p *paths) classify(d ssa.Value) delayClass {
	var growing, random, unknown bool
	seen := map[ssa.Value]bool{}
	var visit func(v ssa.Value, depth int)
	visit = func(v ssa.Value, depth int) {
		if v == nil || seen[v] || depth > 10 {
			unknown = unknown || depth > 10
			return
		}
		seen[v] = true
		switch v := v.(type) {
		case *ssa.Const:
			return
		case *ssa.Phi:
			if p.steps(v) {
				growing = true
				return
			}
			for _, e := range v.Edges {
				visit(e, depth+1)
			}
			return
		case *ssa.Call:
			if randomCall(v) {
				// rand.N(d): random, and as large as d grows
				random = true
				for _, a := range v.Call.Args {
					visit(a, depth+1)
				}
				return
			}
			unknown = true
			return
		case *ssa.BinOp:
			visit(v.X, depth+1)
			visit(v.Y, depth+1)
			return
		case *ssa.Convert:
			visit(v.X, depth+1)
			return
		case *ssa.ChangeType:
			visit(v.X, depth+1)
			return
		}
		unknown = true
	}
	visit(d, 0)
	switch {
	case growing:
		return delayClass{DelayGrowing, random}
	case unknown:
		return delayClass{DelayUnknown, random}
	}
	return delayClass{DelayFixed, random}
}

// randomCall reports whether c calls a function of math/rand or
// math/rand/v2 (an instance of a generic one, rand.N, included).
func randomCall(c *ssa.Call) bool {
	f := c.Call.StaticCallee()
	if f == nil {
		return false
	}
	if o := f.Origin(); o != nil {
		f = o
	}
	if f.Pkg == nil {
		return false
	}
	switch f.Pkg.Pkg.Path() {
	case "math/rand", "math/rand/v2":
		return true
	}
	return false
}

// predicate reports whether cond tests only calls that return no error (a
// limit a policy keeps, tries()): a test, not another operation failing.
func (p *paths) predicate(cond ssa.Value) bool {
	ts := p.a.tests(cond)
	for _, t := range ts {
		if returnsError(t.op) {
			return false
		}
	}
	return len(ts) > 0
}

func returnsError(c *ssa.Call) bool {
	res := c.Call.Signature().Results()
	for i := range res.Len() {
		if isError(res.At(i).Type()) {
			return true
		}
	}
	return false
}
