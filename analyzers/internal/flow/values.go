package flow

import (
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/analyzers/internal/astq"
	"golang.org/x/tools/go/ssa"
)

// advances reports whether op's input changes on the way round l: an
// argument or receiver derives from a value the loop carries and changes
// (an index, a cursor, the next address), from an element a range
// statement yields, or from a channel receive. Each lap then runs a
// different operation (a collection loop, a failover), not the same one
// again. A value a call computes afresh each lap from unchanging inputs (a
// request rebuilt per attempt) does not advance.
func (a *analysis) advances(op *ssa.Call, l *loop) bool {
	seen := map[ssa.Value]bool{}
	var changes func(v ssa.Value) bool
	changes = func(v ssa.Value) bool {
		if v == nil || seen[v] || !l.inside(v) {
			return false
		}
		if isContext(v.Type()) || isDuration(v.Type()) {
			// a context or a timeout made per attempt (longer each
			// time, or carrying the attempt number) sets how the same
			// operation runs, not what it targets
			return false
		}
		seen[v] = true
		switch v := v.(type) {
		case *ssa.Phi:
			for _, w := range v.Edges {
				if w != ssa.Value(v) && l.inside(w) {
					return true
				}
			}
			return false
		case *ssa.Next:
			return true
		case *ssa.UnOp:
			if v.Op == token.ARROW {
				return true
			}
		case *ssa.Call:
			return anyChanges(changes, v.Call.Value, v.Call.Args...)
		case *ssa.Alloc:
			// a variable whose address is taken (a loop variable handed
			// to a pointer method): what is stored in it
			for _, r := range *v.Referrers() {
				if st, ok := r.(*ssa.Store); ok && st.Addr == ssa.Value(v) && changes(st.Val) {
					return true
				}
			}
			return false
		}
		in, ok := v.(ssa.Instruction)
		if !ok {
			return false
		}
		var ops []*ssa.Value
		for _, o := range in.Operands(ops) {
			if o != nil && changes(*o) {
				return true
			}
		}
		return false
	}
	if astq.ReadsStream(calleeFunc(op)) {
		// a read of a stream hands back its next item each lap
		return true
	}
	if op.Call.StaticCallee() == nil && changes(op.Call.Value) {
		// a method of, or a function held in, a value that advances (a
		// predicate of a list, the next node's client)
		return true
	}
	return anyChanges(changes, nil, op.Call.Args...)
}

func isDuration(t types.Type) bool { return astq.IsNamed(t, "time", "Duration") }

func anyChanges(changes func(ssa.Value) bool, v ssa.Value, vs ...ssa.Value) bool {
	if v != nil {
		if _, isFn := v.(*ssa.Function); !isFn && changes(v) {
			return true
		}
	}
	for _, w := range vs {
		if changes(w) {
			return true
		}
	}
	return false
}

// wait reports whether in waits for time to pass, and where: time.Sleep,
// a receive from a timer's or ticker's channel or time.After, a blocking
// select on one, or a call to a function of this package that does one of
// these.
func (a *analysis) wait(in ssa.Instruction) (token.Pos, bool) {
	return a.waitDepth(in, 0)
}

func (a *analysis) waitDepth(in ssa.Instruction, depth int) (token.Pos, bool) {
	switch in := in.(type) {
	case *ssa.Call:
		callee := in.Call.StaticCallee()
		if callee == nil {
			return 0, false
		}
		if isTimeFunc(callee, "Sleep") || isTimerReset(callee) {
			// Re-arming the timer a select waits on is the wait before the
			// next attempt (SPEC: timer-paced retries).
			return in.Pos(), true
		}
		if depth < 2 && callee.Pkg != nil && callee.Pkg == a.fn.Pkg && len(callee.Blocks) > 0 {
			for _, b := range callee.Blocks {
				for _, x := range b.Instrs {
					if _, ok := a.waitDepth(x, depth+1); ok {
						return in.Pos(), true
					}
				}
			}
		}
	case *ssa.UnOp:
		if in.Op == token.ARROW && timerChan(in.X) {
			return in.Pos(), true
		}
	case *ssa.Select:
		if !in.Blocking {
			return 0, false
		}
		for _, st := range in.States {
			if st.Dir == types.RecvOnly && timerChan(st.Chan) {
				return in.Pos(), true
			}
		}
	}
	return 0, false
}

// delay reports whether in sets a delay going: time.Sleep, a timer armed
// or re-armed (time.After, time.NewTimer, time.Tick, Timer.Reset), or a
// call to a function of this package that does one of these. The select
// or receive that then waits for the timer is a waiting point both
// outcomes of a timer-paced loop pass; the delay is what one of them sets.
func (a *analysis) delay(in ssa.Instruction, depth int) bool {
	call, ok := in.(*ssa.Call)
	if !ok {
		return false
	}
	callee := call.Call.StaticCallee()
	if callee == nil {
		return false
	}
	if _, ok := a.delayValue(in); ok || isTimeFunc(callee, "Tick") {
		return true
	}
	if depth < 2 && callee.Pkg != nil && callee.Pkg == a.fn.Pkg {
		for _, b := range callee.Blocks {
			for _, x := range b.Instrs {
				if a.delay(x, depth+1) {
					return true
				}
			}
		}
	}
	return false
}

// timerChan reports whether ch is a channel that fires after a time:
// time.After's or time.Tick's result, the C of a time.Timer or
// time.Ticker, or any other channel of time.Time (a clock the model does
// not know: how long it waits is unknown, but it waits).
func timerChan(ch ssa.Value) bool {
	switch ch := ch.(type) {
	case *ssa.Call:
		if f := ch.Call.StaticCallee(); f != nil && (isTimeFunc(f, "After") || isTimeFunc(f, "Tick")) {
			return true
		}
	case *ssa.UnOp:
		if fa, ok := ch.X.(*ssa.FieldAddr); ok && ch.Op == token.MUL && isTimeStruct(fa.X.Type(), fa.Field) {
			return true
		}
	case *ssa.Field:
		if isTimeStruct(ch.X.Type(), ch.Field) {
			return true
		}
	}
	return astq.IsTimeChan(ch.Type())
}

// isTimeStruct reports whether t (or what it points to) is time.Timer or
// time.Ticker and field its C; with field -1, whether it is time.Timer.
func isTimeStruct(t types.Type, field int) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "time" {
		return false
	}
	if name := n.Obj().Name(); name != "Timer" && name != "Ticker" {
		return false
	}
	if field < 0 {
		return n.Obj().Name() == "Timer"
	}
	st, ok := n.Underlying().(*types.Struct)
	return ok && field < st.NumFields() && st.Field(field).Name() == "C"
}

// isTimerReset reports whether f is (*time.Timer).Reset.
func isTimerReset(f *ssa.Function) bool {
	recv := f.Signature.Recv()
	return recv != nil && f.Name() == "Reset" && f.Pkg != nil && f.Pkg.Pkg.Path() == "time" &&
		isTimeStruct(recv.Type(), -1)
}

func isTimeFunc(f *ssa.Function, name string) bool {
	return f.Pkg != nil && f.Pkg.Pkg.Path() == "time" && f.Name() == name && f.Signature.Recv() == nil
}

// calleeFunc returns the function or method op calls, when it is known:
// an interface's method, or a static callee's object.
func calleeFunc(op *ssa.Call) *types.Func {
	if op.Call.IsInvoke() {
		return op.Call.Method
	}
	if f := op.Call.StaticCallee(); f != nil {
		if o := f.Origin(); o != nil {
			f = o
		}
		fn, _ := f.Object().(*types.Func)
		return fn
	}
	return nil
}
