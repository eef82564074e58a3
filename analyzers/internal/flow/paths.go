package flow

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// maxStates bounds one path search; past it the search stops where it
// is (a function that large decides nothing it has not seen).
const maxStates = 4096

// paths searches the paths of one loop from one branch of a test of op.
type paths struct {
	a  *analysis
	l  *loop
	op *ssa.Call
}

// val is what a path knows of a boolean value: a constant, that it is
// loop-invariant, or unknown (0). A φ-node's binding may instead say
// that it holds the value another loop φ-node had at the start of the
// lap (of).
type val uint8

const (
	vFalse val = iota + 1
	vTrue
	vSame    // unchanged since the lap began (loop-invariant, or a φ-node's lap value)
	vUnknown // bound, but to nothing known
)

// pv is a φ-node's binding on a path.
type pv struct {
	v  val
	of *ssa.Phi // with vSame: the header φ-node whose lap value it holds
}

// env binds boolean φ-nodes of the loop on one path.
type env map[*ssa.Phi]pv

func (e env) key() string {
	if len(e) == 0 {
		return ""
	}
	var b strings.Builder
	for _, p := range slices.SortedFunc(mapsKeys(e), func(x, y *ssa.Phi) int { return strings.Compare(x.Name(), y.Name()) }) {
		b.WriteString(p.Name())
		b.WriteByte(byte('0' + e[p].v))
		if e[p].of != nil {
			b.WriteString(e[p].of.Name())
		}
		b.WriteByte(';')
	}
	return b.String()
}

func mapsKeys(e env) func(func(*ssa.Phi) bool) {
	return func(yield func(*ssa.Phi) bool) {
		for p := range e {
			if !yield(p) {
				return
			}
		}
	}
}

// state is a block reached on a path, with what the path knows.
type state struct {
	b *ssa.BasicBlock
	e env
}

// walk visits the blocks of the loop reachable from start (entered from
// pred), following at each branch the successors the path's knowledge
// allows and keep allows; it calls visit for each block reached and
// exit for each edge leaving the loop, and does not go past op's block.
// It reports whether op's block was reached.
func (p *paths) walk(start, pred *ssa.BasicBlock, keep func(b *ssa.BasicBlock, s *ssa.BasicBlock) bool,
	visit func(*ssa.BasicBlock), exit func(Edge)) bool {
	if !p.l.blocks[start] {
		if exit != nil {
			exit(Edge{pred, start})
		}
		return false
	}
	seen := map[string]bool{}
	queue := []state{{start, p.enter(start, pred, nil)}}
	reached := false
	for n := 0; len(queue) > 0 && n < maxStates; n++ {
		st := queue[0]
		queue = queue[1:]
		k := st.b.String() + "|" + st.e.key()
		if seen[k] {
			continue
		}
		seen[k] = true
		if st.b == p.op.Block() {
			reached = true
			continue
		}
		if visit != nil {
			visit(st.b)
		}
		for _, s := range p.next(st) {
			if keep != nil && !keep(st.b, s) {
				continue
			}
			if !p.l.blocks[s] {
				if exit != nil {
					exit(Edge{st.b, s})
				}
				continue
			}
			queue = append(queue, state{s, p.enter(s, st.b, st.e)})
		}
	}
	return reached
}

// enter returns what the path knows on entering b from pred: b's boolean
// φ-nodes take their values on that edge, all at once.
func (p *paths) enter(b, pred *ssa.BasicBlock, e env) env {
	i := predIndex(b, pred)
	var out env
	for _, in := range b.Instrs {
		phi, ok := in.(*ssa.Phi)
		if !ok {
			break
		}
		if !isBool(phi.Type()) || i < 0 {
			continue
		}
		if out == nil {
			out = make(env, len(e)+1)
			for k, v := range e {
				out[k] = v
			}
		}
		out[phi] = p.bind(phi.Edges[i], e)
	}
	if out == nil {
		return e
	}
	return out
}

// bind returns what e says of v, as a φ-node's binding.
func (p *paths) bind(v ssa.Value, e env) pv {
	switch v := v.(type) {
	case *ssa.Const:
		if v.Value == nil || !isBool(v.Type()) {
			return pv{v: vUnknown}
		}
		if v.Value.String() == "true" {
			return pv{v: vTrue}
		}
		return pv{v: vFalse}
	case *ssa.Phi:
		if x, ok := e[v]; ok {
			return x
		}
		if v.Block() == p.l.header {
			return pv{v: vSame, of: v} // its value on this lap
		}
	}
	if !p.l.inside(v) {
		return pv{v: vSame}
	}
	return pv{v: vUnknown}
}

// resolve returns what e says of v: vTrue, vFalse, vSame (unchanged since
// the lap began) or 0.
func (p *paths) resolve(v ssa.Value, e env) val {
	b := p.bind(v, e)
	switch {
	case b.v == vSame && b.of != nil && b.of != v:
		return 0 // another φ-node's lap value
	case b.v == vUnknown:
		return 0
	}
	return b.v
}

// next returns the successors of st.b a path may take.
func (p *paths) next(st state) []*ssa.BasicBlock {
	b := st.b
	ifi, ok := last(b).(*ssa.If)
	if !ok {
		return b.Succs
	}
	switch p.eval(ifi.Cond, st.e) {
	case vTrue:
		return b.Succs[:1]
	case vFalse:
		return b.Succs[1:]
	case vSame:
		// Unchanged since the previous iteration went round: where the
		// test is on every way round, it goes round again.
		if in := p.inLoop(b.Succs); len(in) == 1 && p.onEveryLap(b) {
			return in
		}
	}
	return b.Succs
}

func (p *paths) inLoop(bs []*ssa.BasicBlock) []*ssa.BasicBlock {
	var out []*ssa.BasicBlock
	for _, b := range bs {
		if p.l.blocks[b] {
			out = append(out, b)
		}
	}
	return out
}

// onEveryLap reports whether b dominates every latch of the loop.
func (p *paths) onEveryLap(b *ssa.BasicBlock) bool {
	for _, h := range p.l.header.Preds {
		if p.l.blocks[h] && !b.Dominates(h) {
			return false
		}
	}
	return true
}

// eval evaluates a boolean condition on what e knows: vTrue, vFalse, vSame
// (unchanged since the previous iteration) or 0.
func (p *paths) eval(v ssa.Value, e env) val {
	switch v := v.(type) {
	case *ssa.UnOp:
		if v.Op == token.NOT {
			switch x := p.eval(v.X, e); x {
			case vTrue:
				return vFalse
			case vFalse:
				return vTrue
			default:
				return x
			}
		}
	case *ssa.BinOp:
		if p.resolve(v.X, e) == vSame && p.resolve(v.Y, e) == vSame {
			return vSame
		}
		return 0
	}
	return p.resolve(v, e)
}

func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsBoolean != 0
}

// reaches reports whether a path from start (a successor of the test's
// block from) goes round to the operation.
func (p *paths) reaches(start, from *ssa.BasicBlock) bool {
	return p.walk(start, from, nil, nil, nil)
}

// exits returns the edges by which a path from start leaves the loop
// before the operation runs again. It does not take the failure branch of
// another operation's test (the exit of a consumer whose handler failed
// is not its receive's success leaving) nor a branch on a stop input (a
// channel receive, a select): those are not this operation's outcome.
func (p *paths) exits(start, from *ssa.BasicBlock) []Edge {
	var out []Edge
	p.walk(start, from, p.ownOutcome, nil, func(e Edge) {
		if !slices.Contains(out, e) && !aborts(e.To) {
			out = append(out, e)
		}
	})
	return out
}

// ownOutcome reports whether the edge b→s may be taken when looking for
// where the operation's outcome leads.
func (p *paths) ownOutcome(b, s *ssa.BasicBlock) bool {
	ifi, ok := last(b).(*ssa.If)
	if !ok {
		return true
	}
	if p.stopInput(ifi.Cond) {
		return p.l.blocks[s]
	}
	ts := p.a.tests(ifi.Cond)
	if len(ts) == 0 {
		return true
	}
	for _, t := range ts {
		if t.op == p.op || !t.known {
			return true
		}
	}
	// Another operation's test: only its success branch.
	t := ts[0]
	succ := b.Succs[1]
	if !t.failTrue {
		succ = b.Succs[0]
	}
	return s == succ
}

// stopInput reports whether cond derives from a channel receive or a
// select: a stop input, not an operation's outcome.
func (p *paths) stopInput(cond ssa.Value) bool {
	seen := map[ssa.Value]bool{}
	var from func(v ssa.Value) bool
	from = func(v ssa.Value) bool {
		if seen[v] {
			return false
		}
		seen[v] = true
		switch v := v.(type) {
		case *ssa.Select:
			return true
		case *ssa.UnOp:
			return v.Op == token.ARROW || from(v.X)
		case *ssa.Extract:
			return from(v.Tuple)
		case *ssa.BinOp:
			return from(v.X) || from(v.Y)
		}
		return false
	}
	return from(cond)
}

// waits returns the positions of the waits on the paths from start back
// to the operation.
func (p *paths) waits(start, from *ssa.BasicBlock) []token.Pos {
	var out []token.Pos
	p.walk(start, from, nil, func(b *ssa.BasicBlock) {
		for _, in := range b.Instrs {
			if pos, ok := p.a.wait(in); ok && !slices.Contains(out, pos) {
				out = append(out, pos)
			}
		}
	}, nil)
	slices.Sort(out)
	return out
}

// consumes reports whether failure sets a delay on its way round and
// success goes round without one: the error branch of a consume loop.
// (Where both set one, the outcome does not decide the repeat: periodic
// work.)
func (p *paths) consumes(fail, succ, from *ssa.BasicBlock) bool {
	waits := func(b *ssa.BasicBlock) bool {
		for _, in := range b.Instrs {
			if p.a.delay(in, 0) {
				return true
			}
		}
		return false
	}
	failWaits := false
	p.walk(fail, from, nil, func(b *ssa.BasicBlock) { failWaits = failWaits || waits(b) }, nil)
	if !failWaits || waits(succ) {
		return false
	}
	return p.walk(succ, from, func(_, s *ssa.BasicBlock) bool { return !waits(s) }, nil, nil)
}

// choosesDelay reports whether the delay both outcomes wait on before
// the operation runs again is chosen by the outcome: the duration of a
// delay on the way round is a value the loop carries, and failure and
// success bring it round with different values (a refresh loop whose
// failures wait a growing retry delay and whose successes the interval).
func (p *paths) choosesDelay(fail, succ, from *ssa.BasicBlock) bool {
	latches := func(start *ssa.BasicBlock) map[ssa.Value]bool {
		vals := map[ssa.Value]bool{}
		p.walk(start, from, func(b, s *ssa.BasicBlock) bool {
			if s == p.l.header {
				for _, phi := range p.delayPhis() {
					if i := predIndex(s, b); i >= 0 {
						vals[phi.Edges[i]] = true
					}
				}
			}
			return true
		}, nil, nil)
		return vals
	}
	if len(p.delayPhis()) == 0 {
		return false
	}
	f, s := latches(fail), latches(succ)
	for v := range f {
		if !s[v] {
			return true
		}
	}
	return false
}

// delayPhis returns the loop header's φ-nodes that a delay in the loop
// waits for.
func (p *paths) delayPhis() []*ssa.Phi {
	var out []*ssa.Phi
	for b := range p.l.blocks {
		for _, in := range b.Instrs {
			call, ok := in.(*ssa.Call)
			if !ok || !p.a.delay(in, 2) || len(call.Call.Args) == 0 {
				continue
			}
			d := call.Call.Args[len(call.Call.Args)-1]
			for {
				conv, ok := d.(*ssa.Convert)
				if !ok {
					break
				}
				d = conv.X
			}
			if phi, ok := d.(*ssa.Phi); ok && phi.Block() == p.l.header && !slices.Contains(out, phi) {
				out = append(out, phi)
			}
		}
	}
	return out
}

// aborts reports whether every path from b ends the goroutine or the
// process without returning (a panic, os.Exit, log.Fatal, a test's
// Fatal or FailNow): an edge into it is no outcome leaving the cycle.
func aborts(b *ssa.BasicBlock) bool {
	for range 8 {
		for _, in := range b.Instrs {
			switch in := in.(type) {
			case *ssa.Panic:
				return true
			case *ssa.Call:
				if noReturn(in.Call.StaticCallee()) {
					return true
				}
			}
		}
		if len(b.Succs) != 1 {
			return false
		}
		b = b.Succs[0]
	}
	return false
}

// noReturn reports whether fn is known never to return to its caller.
func noReturn(fn *ssa.Function) bool {
	if fn == nil || fn.Pkg == nil {
		return false
	}
	path, name := fn.Pkg.Pkg.Path(), fn.Name()
	switch path {
	case "os":
		return name == "Exit"
	case "log":
		return strings.HasPrefix(name, "Fatal") || strings.HasPrefix(name, "Panic")
	case "runtime":
		return name == "Goexit"
	case "testing":
		return fn.Signature.Recv() != nil && (strings.HasPrefix(name, "Fatal") || name == "FailNow" || strings.HasPrefix(name, "Skip"))
	}
	return false
}
