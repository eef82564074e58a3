package flow

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// test is what a branch condition says about one operation's outcome.
type test struct {
	op *ssa.Call
	// known reports that the polarity is known: failTrue says the
	// condition holds on failure (err != nil) or on success (err == nil,
	// a true ok). Otherwise the condition is a classifier's verdict or a
	// status test, and the branch that goes round is the failure.
	known    bool
	failTrue bool
	// status: the condition compares a value the operation returned with
	// a status code (not a classifier's verdict).
	status bool
	// verdict: the condition is a bool the operation returns beside its
	// error (locked, err := lock()); a cycle it sends round without a
	// wait is an iterator's (more, err := it.Next()), not a retry.
	verdict bool
	// kind: the condition holds on one kind of failure (err == ErrBusy,
	// errors.Is): its other branch holds success and the other failures.
	kind bool
}

// polarities returns the values of failTrue to try.
func (t test) polarities() []bool {
	if t.known {
		return []bool{t.failTrue}
	}
	return []bool{true, false}
}

// tests returns the operations whose outcome cond tests.
func (a *analysis) tests(cond ssa.Value) []test {
	flip := false
	for {
		u, ok := cond.(*ssa.UnOp)
		if !ok || u.Op != token.NOT {
			break
		}
		cond, flip = u.X, !flip
	}
	var out []test
	add := func(calls []*ssa.Call, known, failTrue bool) {
		for _, c := range calls {
			out = append(out, test{op: c, known: known, failTrue: failTrue != flip})
		}
	}
	addKind := func(calls []*ssa.Call, failTrue bool) {
		for _, c := range calls {
			out = append(out, test{op: c, known: true, kind: true, failTrue: failTrue != flip})
		}
	}
	addStatus := func(calls []*ssa.Call) {
		for _, c := range calls {
			out = append(out, test{op: c, status: true})
		}
	}
	switch c := cond.(type) {
	case *ssa.BinOp:
		if v, ok := nilCompared(c); ok && isError(v.Type()) {
			add(a.originsOf(v), true, c.Op == token.NEQ)
			return out
		}
		if v, ok := sentinelCompared(c); ok {
			// err == ErrBusy holds only on a failure (of that kind);
			// the other branch holds success too
			addKind(a.originsOf(v), c.Op == token.EQL)
			return out
		}
		if isStatusTest(c) {
			addStatus(a.originsOf(c))
		}
	case *ssa.Extract:
		call, ok := c.Tuple.(*ssa.Call)
		switch {
		case !ok || a.classifier(call):
		case c.Index == resultCount(call)-1:
			// v, ok := op(): a false ok is the failure.
			add([]*ssa.Call{call}, true, false)
		case isBool(c.Type()) && returnsError(call):
			// locked, err := op(): a verdict beside the error, whose
			// polarity the branch that goes round decides
			out = append(out, test{op: call, status: true, verdict: true})
		}
	case *ssa.Call:
		if isErrorsIs(c) {
			// errors.Is(err, ErrBusy), errors.As(err, &t): true only
			// on a failure (of that kind)
			addKind(a.originsOf(c.Call.Args[0]), true)
			return out
		}
		if a.classifier(c) {
			add(a.originsOfArgs(c), false, false)
		} else if resultCount(c) == 1 && (swallowsFailure(c) || localOp(c)) {
			// ok := op(): a false result is the failure, where op is
			// an attempt that turns a failure into false. A predicate
			// that only reads state (closed(), registered()) or whose
			// body is unknown is a condition waited for, not an
			// operation's outcome. A compare-and-swap or a TryLock
			// of the standard library is an attempt.
			add([]*ssa.Call{c}, true, false)
		}
	}
	return out
}

// nilCompared returns the operand compared with nil by c (== or !=).
func nilCompared(c *ssa.BinOp) (ssa.Value, bool) {
	if c.Op != token.EQL && c.Op != token.NEQ {
		return nil, false
	}
	if k, ok := c.Y.(*ssa.Const); ok && k.IsNil() {
		return c.X, true
	}
	if k, ok := c.X.(*ssa.Const); ok && k.IsNil() {
		return c.Y, true
	}
	return nil, false
}

// sentinelCompared returns the error compared by c (== or !=) with a
// package-level error value (err == redis.TxFailedErr, a switch case on
// one), or false.
func sentinelCompared(c *ssa.BinOp) (ssa.Value, bool) {
	if c.Op != token.EQL && c.Op != token.NEQ || !isError(c.X.Type()) {
		return nil, false
	}
	for _, pair := range [][2]ssa.Value{{c.X, c.Y}, {c.Y, c.X}} {
		if mi, ok := pair[1].(*ssa.MakeInterface); ok {
			pair[1] = mi.X // a sentinel of a concrete error type
			if k, ok := mi.X.(*ssa.Const); ok && k.Value != nil {
				return pair[0], true // a constant one
			}
		}
		if u, ok := pair[1].(*ssa.UnOp); ok && u.Op == token.MUL {
			if _, ok := u.X.(*ssa.Global); ok {
				return pair[0], true
			}
		}
	}
	return nil, false
}

// isErrorsIs reports whether c calls errors.Is or errors.As.
func isErrorsIs(c *ssa.Call) bool {
	f := c.Call.StaticCallee()
	return f != nil && f.Pkg != nil && f.Pkg.Pkg.Path() == "errors" && (f.Name() == "Is" || f.Name() == "As") &&
		len(c.Call.Args) == 2
}

// isStatusTest reports whether c compares a field of a value (the
// StatusCode of a response, the Code of a reply) with a constant in
// [100, 599], the range of status codes: a status test whose polarity the
// branches decide. A sum or a count compared with such a constant (bytes
// read so far) is not one.
func isStatusTest(c *ssa.BinOp) bool {
	switch c.Op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
	default:
		return false
	}
	k, other := c.Y, c.X
	if _, ok := k.(*ssa.Const); !ok {
		k, other = c.X, c.Y
	}
	kc, ok := k.(*ssa.Const)
	if !ok || kc.Value == nil || kc.Value.Kind() != constant.Int || !isField(other) {
		return false
	}
	n, exact := constant.Int64Val(kc.Value)
	return exact && n >= 100 && n <= 599
}

// isField reports whether v reads a struct field (directly, or through a
// pointer).
func isField(v ssa.Value) bool {
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		_, ok := u.X.(*ssa.FieldAddr)
		return ok
	}
	_, ok := v.(*ssa.Field)
	return ok
}

// classifier reports whether c is a call whose bool result judges another
// operation's outcome: it is handed an error, or a value another call in
// the function returned (isRetryable(err), handle(resp)).
func (a *analysis) classifier(c *ssa.Call) bool {
	if !returnsBool(c) {
		return false
	}
	for _, arg := range c.Call.Args {
		if isError(arg.Type()) && len(a.originsOf(arg)) > 0 {
			return true
		}
	}
	return false
}

func returnsBool(c *ssa.Call) bool {
	res := c.Call.Signature().Results()
	if res.Len() == 0 {
		return false
	}
	b, ok := res.At(res.Len() - 1).Type().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
}

func resultCount(c *ssa.Call) int { return c.Call.Signature().Results().Len() }

// originsOfArgs returns the operations whose results c's arguments carry.
func (a *analysis) originsOfArgs(c *ssa.Call) []*ssa.Call {
	var out []*ssa.Call
	for _, arg := range c.Call.Args {
		out = append(out, a.originsOf(arg)...)
	}
	return out
}

// originsOf returns the calls whose results v carries: through extracts,
// field reads, conversions, operators and φ-nodes (an error assigned in
// two places), and through a classifier to what it judges. A call that
// is not a classifier is an origin itself.
func (a *analysis) originsOf(v ssa.Value) []*ssa.Call {
	if o, ok := a.origins[v]; ok {
		return o
	}
	a.origins[v] = nil // cycles through φ-nodes end here
	var out []*ssa.Call
	add := func(ws ...ssa.Value) {
		for _, w := range ws {
			for _, c := range a.originsOf(w) {
				if !containsCall(out, c) {
					out = append(out, c)
				}
			}
		}
	}
	switch v := v.(type) {
	case *ssa.Call:
		if a.classifier(v) {
			add(v.Call.Args...)
		} else if !isBuiltin(v) {
			out = append(out, v)
		}
	case *ssa.Extract:
		add(v.Tuple)
	case *ssa.Field:
		add(v.X)
	case *ssa.FieldAddr:
		add(v.X)
	case *ssa.UnOp:
		if v.Op != token.ARROW {
			add(v.X)
		}
	case *ssa.BinOp:
		add(v.X, v.Y)
	case *ssa.Convert:
		add(v.X)
	case *ssa.ChangeType:
		add(v.X)
	case *ssa.ChangeInterface:
		add(v.X)
	case *ssa.MakeInterface:
		add(v.X)
	case *ssa.TypeAssert:
		add(v.X)
	case *ssa.Phi:
		add(v.Edges...)
	case *ssa.Alloc:
		// a variable a closure captures lives in memory: what is stored
		for _, r := range *v.Referrers() {
			if st, ok := r.(*ssa.Store); ok && st.Addr == ssa.Value(v) {
				add(st.Val)
			}
		}
	}
	a.origins[v] = out
	return out
}

func containsCall(cs []*ssa.Call, c *ssa.Call) bool {
	for _, x := range cs {
		if x == c {
			return true
		}
	}
	return false
}

func isBuiltin(c *ssa.Call) bool {
	_, ok := c.Call.Value.(*ssa.Builtin)
	return ok
}

// swallowsFailure reports whether c calls a function whose body returns
// false where an operation it runs failed: a path from the failure branch
// of an error test (err != nil, a failure of one kind) reaches a return of
// the constant false.
func swallowsFailure(c *ssa.Call) bool {
	fn := c.Call.StaticCallee()
	if fn == nil || len(fn.Blocks) == 0 {
		return false
	}
	for _, b := range fn.Blocks {
		ifi, ok := last(b).(*ssa.If)
		if !ok {
			continue
		}
		if fail := failureBranch(b, ifi.Cond); fail != nil && returnsFalse(fail) {
			return true
		}
	}
	return false
}

// failureBranch returns the successor of b that a failure of a call takes
// at b's test cond: err != nil, err == ErrBusy, errors.Is(err, ErrBusy);
// or nil.
func failureBranch(b *ssa.BasicBlock, cond ssa.Value) *ssa.BasicBlock {
	switch c := cond.(type) {
	case *ssa.BinOp:
		v, ok := nilCompared(c)
		if ok && isError(v.Type()) && fromCall(v) {
			return b.Succs[boolInt(c.Op == token.EQL)]
		}
		if v, ok := sentinelCompared(c); ok && fromCall(v) {
			return b.Succs[boolInt(c.Op == token.NEQ)]
		}
	case *ssa.Call:
		if isErrorsIs(c) && fromCall(c.Call.Args[0]) {
			return b.Succs[0]
		}
	}
	return nil
}

// fromCall reports whether v is a call's result (or one of its results).
func fromCall(v ssa.Value) bool {
	if e, ok := v.(*ssa.Extract); ok {
		v = e.Tuple
	}
	_, ok := v.(*ssa.Call)
	return ok
}

// returnsFalse reports whether a return of the constant false is
// reachable from b.
func returnsFalse(b *ssa.BasicBlock) bool {
	found := false
	forward(b, func(b *ssa.BasicBlock) bool {
		if r, ok := last(b).(*ssa.Return); ok && len(r.Results) > 0 {
			k, ok := r.Results[len(r.Results)-1].(*ssa.Const)
			found = ok && k.Value != nil && k.Value.Kind() == constant.Bool && !constant.BoolVal(k.Value)
		}
		return !found
	})
	return found
}
