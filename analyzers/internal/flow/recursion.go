package flow

import (
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// recursion returns the site of op when a failure of op leads to a call
// of fn itself (directly, or through the variable a closure is stored in)
// with the same inputs, or a counter stepped by a constant, and success
// returns without one: the call graph's cycle is the retry.
func (a *analysis) recursion(op *ssa.Call, b *ssa.BasicBlock, ifi *ssa.If, t test) *Site {
	if !t.known {
		return nil
	}
	fail, succ := b.Succs[1], b.Succs[0]
	if t.failTrue {
		fail, succ = succ, fail
	}
	self := a.selfCall(fail)
	if self == nil || a.selfCall(succ) != nil || !a.sameInputs(self) {
		return nil
	}
	if !returns(succ) {
		return nil
	}
	return &Site{Kind: Retry, Op: op, Test: ifi, Failure: fail, Success: succ, Recursive: self,
		Waits: a.waitsFrom(fail)}
}

// selfCall returns a call of a.fn itself reachable from start, or nil.
func (a *analysis) selfCall(start *ssa.BasicBlock) *ssa.Call {
	var found *ssa.Call
	forward(start, func(b *ssa.BasicBlock) bool {
		for _, in := range b.Instrs {
			if c, ok := in.(*ssa.Call); ok && a.isSelf(c.Call.Value) {
				found = c
				return false
			}
		}
		return true
	})
	return found
}

// isSelf reports whether v is a.fn: the function itself, or the variable
// its closure was stored in and captured from.
func (a *analysis) isSelf(v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.Function:
		return v == a.fn
	case *ssa.UnOp:
		// the variable the closure was stored in, captured by it
		fv, ok := v.X.(*ssa.FreeVar)
		if !ok || v.Op != token.MUL || fv.Parent() != a.fn {
			return false
		}
		alloc, ok := Binding(fv).(*ssa.Alloc)
		if !ok {
			return false
		}
		mc, ok := StoredOnce(alloc).(*ssa.MakeClosure)
		return ok && mc.Fn == ssa.Value(a.fn)
	}
	return false
}

// sameInputs reports whether the self-call passes each parameter on
// unchanged, or stepped by a constant (an attempt counter): the same
// operation again, not the next element of a walk.
func (a *analysis) sameInputs(c *ssa.Call) bool {
	args := c.Call.Args
	if len(args) != len(a.fn.Params) {
		return false
	}
	for i, arg := range args {
		p := a.fn.Params[i]
		if arg == ssa.Value(p) {
			continue
		}
		if bin, ok := arg.(*ssa.BinOp); ok && (bin.Op == token.ADD || bin.Op == token.SUB) {
			if _, isConst := bin.Y.(*ssa.Const); isConst && bin.X == ssa.Value(p) {
				continue
			}
		}
		return false
	}
	return true
}

// returns reports whether a path from start reaches a return.
func returns(start *ssa.BasicBlock) bool {
	found := false
	forward(start, func(b *ssa.BasicBlock) bool {
		if _, ok := last(b).(*ssa.Return); ok {
			found = true
			return false
		}
		return true
	})
	return found
}

// waitsFrom returns the waits on the paths from start.
func (a *analysis) waitsFrom(start *ssa.BasicBlock) []token.Pos {
	var out []token.Pos
	forward(start, func(b *ssa.BasicBlock) bool {
		for _, in := range b.Instrs {
			if pos, ok := a.wait(in); ok && !slices.Contains(out, pos) {
				out = append(out, pos)
			}
		}
		return true
	})
	slices.Sort(out)
	return out
}

// forward visits the blocks reachable from start, each once, until visit
// returns false.
func forward(start *ssa.BasicBlock, visit func(*ssa.BasicBlock) bool) {
	seen := map[*ssa.BasicBlock]bool{}
	stack := []*ssa.BasicBlock{start}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[b] {
			continue
		}
		seen[b] = true
		if !visit(b) {
			return
		}
		stack = append(stack, b.Succs...)
	}
}

// Binding returns the value a closure's free variable is bound to where
// the closure is made, when it is made once; nil otherwise.
func Binding(fv *ssa.FreeVar) ssa.Value {
	fn := fv.Parent()
	i := slices.Index(fn.FreeVars, fv)
	parent := fn.Parent()
	if parent == nil || i < 0 {
		return nil
	}
	var out ssa.Value
	for _, b := range parent.Blocks {
		for _, in := range b.Instrs {
			mc, ok := in.(*ssa.MakeClosure)
			if !ok || mc.Fn != ssa.Value(fn) {
				continue
			}
			if out != nil {
				return nil
			}
			out = mc.Bindings[i]
		}
	}
	return out
}

// StoredOnce returns the value stored in a local variable that is
// assigned once (a parameter or a closure its closures capture), or nil.
func StoredOnce(a *ssa.Alloc) ssa.Value {
	var out ssa.Value
	for _, r := range *a.Referrers() {
		st, ok := r.(*ssa.Store)
		if !ok || st.Addr != ssa.Value(a) {
			continue
		}
		if out != nil {
			return nil
		}
		out = st.Val
	}
	return out
}
