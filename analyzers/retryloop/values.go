package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/analyzers/internal/astq"
)

// What one path knows of values as the walk goes: the effects of an
// expression (waits, operations, consultations), assignments of the
// operations' results, timers re-armed and delays chosen, error values,
// and three-valued logic.

// expr notes the effects of evaluating e: waits, operations, consultations.
func (s *sim) expr(e ast.Expr, p *path) {
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if s.w.isWaitCall(n) {
				p.waits = append(p.waits, n)
			} else if s.w.handsStop(n) {
				p.held = true
			}
			if s.w.consults(n) {
				p.consult = true
			}
			if t, d := s.rearms(n); t != nil {
				s.setDelay(p, t, d) // the next round's wait on t waits d
			} else if t := s.handsTimer(n); t != nil {
				s.setDelay(p, t, timerHanded) // what it arms is unknown
			}
			if s.isSelfCall(n) {
				p.out = outNext
			}
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				if s.w.isWaitRecv(n.X) {
					p.waits = append(p.waits, n)
				}
				if s.w.isConsultRecv(n.X) {
					p.consult = true
				}
			}
		}
		return true
	})
}

// commRecv returns the receive of a select case's communication, or nil.
func commRecv(c ast.Stmt) *ast.UnaryExpr {
	var x ast.Expr
	switch c := c.(type) {
	case *ast.ExprStmt:
		x = c.X
	case *ast.AssignStmt:
		if len(c.Rhs) == 1 {
			x = c.Rhs[0]
		}
	}
	if u, ok := ast.Unparen(x).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
		return u
	}
	return nil
}

// consultComm reports whether a select case receives from a context's
// Done or a stop channel.
func (s *sim) consultComm(c ast.Stmt) bool {
	u := commRecv(c)
	return u != nil && s.w.isConsultRecv(u.X)
}

// comm handles a select case's communication.
func (s *sim) comm(c ast.Stmt, sel *ast.SelectStmt, p *path) {
	if u := commRecv(c); u != nil {
		if s.w.isWaitRecv(u.X) {
			p.waits = append(p.waits, sel)
		}
		if s.w.isConsultRecv(u.X) {
			p.consult = true
		}
	}
}

// assign records what an assignment tells about operation outcomes and flags.
func (s *sim) assign(lhs, rhs []ast.Expr, p *path) {
	for _, r := range rhs {
		s.expr(r, p)
	}
	if len(rhs) == 1 && len(lhs) > 1 {
		s.assignTuple(lhs, rhs[0], p)
		return
	}
	for i, l := range lhs {
		if i >= len(rhs) {
			break
		}
		if obj := s.obj(l); obj != nil {
			s.assignOne(l, obj, ast.Unparen(rhs[i]), p)
		}
	}
}

// assignTuple records v, err := call(): for an operation, what each
// result says of its outcome on this path.
func (s *sim) assignTuple(lhs []ast.Expr, rhs ast.Expr, p *path) {
	call, ok := ast.Unparen(rhs).(*ast.CallExpr)
	if !ok {
		s.assertError(lhs, rhs, p)
		return
	}
	if op := s.decider(call, p); op != nil {
		// What the judge says is its verdict on op's outcome.
		for _, l := range lhs {
			if obj := s.obj(l); obj != nil {
				s.set(l, Unknown, p)
				p.tainted[obj] = op
				s.judge(obj)
			}
		}
		return
	}
	isOp := s.ops[call]
	for i, l := range lhs {
		obj := s.obj(l)
		if obj == nil {
			continue
		}
		if isOp {
			p.tainted[obj] = call
			s.opResult(l, obj, i == len(lhs)-1, call, p)
		} else {
			delete(p.tainted, obj)
			s.set(l, Unknown, p)
		}
	}
}

// assertError records pe, ok := err.(*os.PathError) for an outcome's
// error: it looks at the error, and where the error is nil, pe is nil and
// ok false. Any other tuple assignment from a non-call is unknown.
func (s *sim) assertError(lhs []ast.Expr, rhs ast.Expr, p *path) {
	for _, l := range lhs {
		s.set(l, Unknown, p)
	}
	ta, ok := ast.Unparen(rhs).(*ast.TypeAssertExpr)
	if !ok || ta.Type == nil || len(lhs) != 2 {
		return
	}
	o := s.obj(ta.X)
	if o == nil || !isErrorType(o.Type()) {
		return
	}
	if c := p.tainted[o]; c != nil {
		p.observed[c] = true
		p.obs++
	}
	if p.vals[o] != No {
		return
	}
	if v := s.obj(lhs[1]); v != nil && isBool(v.Type()) {
		p.vals[v] = No
	}
	if v := s.obj(lhs[0]); v != nil && (isPointer(v.Type()) || isErrorType(v.Type())) {
		p.vals[v] = No
	}
}

// opResult records one result of an operation in a tuple: the last error
// or ok, the response, or a pointer beside an error.
func (s *sim) opResult(l ast.Expr, obj types.Object, last bool, call *ast.CallExpr, p *path) {
	failing := call == s.fail
	t := obj.Type()
	switch {
	case isErrorType(t) && last:
		if failing {
			s.seenFail = true
			if s.mode == modeErr {
				p.vals[obj] = Yes
			} else {
				p.vals[obj] = No
			}
		} else {
			p.vals[obj] = No
		}
	case isResponse(t):
		p.status[obj] = failing && s.mode == modeStatus
	case last && errCarrier(t):
		s.carry(obj, failing, p)
	case isBool(t) && last:
		if failing {
			s.seenFail = true
			p.vals[obj] = No
		} else {
			p.vals[obj] = Yes
		}
	case (isPointer(t) || isChan(t)) && !last && s.errLast(call):
		// By Go's convention a result beside an error is nil
		// when the call fails: if wm != nil { break } leaves on
		// success (Yes = non-nil).
		p.vals[obj] = b2t(!(failing && s.mode == modeErr))
	case isBool(t) && !last && s.errLast(call) && s.w.retryFlag(call) == Yes:
		// retry, err := op(): a flag the operation sets only beside an
		// error asks for no retry on success.
		if failing && s.mode == modeErr {
			s.set(l, Unknown, p)
		} else {
			p.vals[obj] = No
		}
	default:
		s.set(l, Unknown, p)
	}
}

// assignOne records l = r for a variable obj.
func (s *sim) assignOne(l ast.Expr, obj types.Object, r ast.Expr, p *path) {
	if s.carried(obj) {
		if p.delays == nil {
			p.delays = map[types.Object]ast.Expr{}
		}
		p.delays[obj] = r
	}
	if call, ok := r.(*ast.CallExpr); ok && s.ops[call] {
		failing := call == s.fail
		if failing {
			s.seenFail = true
		}
		p.tainted[obj] = call
		switch {
		case isErrorType(obj.Type()):
			p.vals[obj] = b2t(failing && s.mode == modeErr)
		case isBool(obj.Type()):
			p.vals[obj] = b2t(!failing)
		case errCarrier(obj.Type()):
			s.carry(obj, failing, p)
		default:
			s.set(l, Unknown, p)
		}
		return
	}
	if v, ok := s.w.usedObj(r).(*types.Var); ok && isSignature(obj.Type()) && s.w.nilFuncVar(v) {
		p.vals[obj] = No // f := testHook: nil outside tests
		return
	}
	if eo := s.grpcCodeOf(r); eo != nil {
		// code := status.Code(err): the outcome's gRPC code.
		if s.codeOf == nil {
			s.codeOf = map[types.Object]types.Object{}
		}
		s.codeOf[obj] = eo
		if c := p.tainted[eo]; c != nil {
			p.tainted[obj] = c
		}
		return
	}
	if isBool(obj.Type()) {
		p.vals[obj] = s.eval(r, p)
		if c, ok := r.(*ast.CallExpr); ok && p.vals[obj] == Unknown && s.decider(c, p) != nil {
			s.judge(obj) // retry := shouldRetry(req, res)
		}
		return
	}
	if isErrorType(obj.Type()) {
		if v, ok := s.errorValue(r, p); ok {
			p.vals[obj] = v
			return
		}
	}
	if isChan(obj.Type()) {
		s.set(l, s.chanValue(r), p)
		return
	}
	s.set(l, Unknown, p)
}

// carried reports whether obj is a duration variable declared outside the
// loop: a value the path gives it is there when the next round starts.
func (s *sim) carried(obj types.Object) bool {
	v, ok := obj.(*types.Var)
	if !ok || s.loop == nil || !isDurationType(v.Type()) || v.Parent() == nil || v.Parent() == types.Universe {
		return false
	}
	return v.Pos() < s.loop.Pos() || v.Pos() >= s.loop.End()
}

// rearms returns the timer a call re-arms (t.Reset(d)) and the delay,
// when t is a timer variable declared outside the loop: a select that
// waits on t.C next round waits d.
func (s *sim) rearms(call *ast.CallExpr) (types.Object, ast.Expr) {
	if s.loop == nil && s.handed == nil {
		return nil, nil
	}
	x, d := s.w.timerReset(call)
	switch fn := astq.Callee(s.info, call); {
	case x != nil:
	case astq.IsFunc(fn, "time.AfterFunc") && len(call.Args) == 2:
		return s.signals(call)
	case fn == nil:
		// failure(), a local closure that schedules the signal.
		if lit := s.w.localFunc(call.Fun); lit != nil {
			var ch types.Object
			var after ast.Expr
			ast.Inspect(lit.Body, func(n ast.Node) bool {
				if c, ok := n.(*ast.CallExpr); ok && ch == nil && astq.IsFunc(astq.Callee(s.info, c), "time.AfterFunc") && len(c.Args) == 2 {
					ch, after = s.signals(c)
				}
				return ch == nil
			})
			return ch, after
		}
		return nil, nil
	default:
		return nil, nil
	}
	v, ok := s.obj(x).(*types.Var)
	switch {
	case !ok:
		return nil, nil
	case s.loop == nil:
		if v != s.handed {
			return nil, nil
		}
	case v.Pos() >= s.loop.Pos() && v.Pos() < s.loop.End():
		return nil, nil
	}
	return v, d
}

// timerHanded stands for the delay of a timer handed to a function that
// may re-arm it: unknown (chosenDelay).
var timerHanded = &ast.BadExpr{}

func (s *sim) setDelay(p *path, t types.Object, d ast.Expr) {
	if p.delays == nil {
		p.delays = map[types.Object]ast.Expr{}
	}
	p.delays[t] = d
}

// handsTimer returns the timer variable declared outside the loop that
// a call hands on (schedule(t)), unless the call's fact says how it
// re-arms it (FuncFact.FailRearm).
func (s *sim) handsTimer(call *ast.CallExpr) types.Object {
	if s.loop == nil || s.w.rearmedOnFail(call) != nil {
		return nil
	}
	for _, a := range call.Args {
		v, ok := s.obj(a).(*types.Var)
		if ok && isTimerPtr(v.Type()) && (v.Pos() < s.loop.Pos() || v.Pos() >= s.loop.End()) {
			return v
		}
	}
	return nil
}

// signals returns the channel a time.AfterFunc call's callback signals,
// when only timer callbacks signal it (afterFuncChan), and the delay.
func (s *sim) signals(call *ast.CallExpr) (types.Object, ast.Expr) {
	lit, ok := ast.Unparen(call.Args[1]).(*ast.FuncLit)
	if !ok {
		return nil, nil
	}
	var ch ast.Expr
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		if st, ok := n.(*ast.SendStmt); ok && ch == nil {
			ch = st.Chan
		}
		return ch == nil
	})
	if ch == nil || s.w.afterFuncChan(ch) == nil {
		return nil, nil
	}
	return s.obj(ch), call.Args[0]
}

// chanValue is what is known of a channel assigned: nil, or a channel
// made here (make, time.After, time.Tick).
func (s *sim) chanValue(r ast.Expr) Tri {
	if id, ok := r.(*ast.Ident); ok && s.info.Uses[id] == types.Universe.Lookup("nil") {
		return No
	}
	if c, ok := r.(*ast.CallExpr); ok {
		if id, ok := ast.Unparen(c.Fun).(*ast.Ident); ok && s.info.Uses[id] == types.Universe.Lookup("make") {
			return Yes
		}
		if astq.IsFunc(astq.Callee(s.info, c), "time.After", "time.Tick") {
			return Yes
		}
	}
	return Unknown
}

func isChan(t types.Type) bool {
	_, ok := t.Underlying().(*types.Chan)
	return ok
}

// errorValue is what is known of an error value assigned: nil, an error
// made here, or another error variable's value on this path.
func (s *sim) errorValue(r ast.Expr, p *path) (Tri, bool) {
	if id, ok := r.(*ast.Ident); ok && id.Name == "nil" {
		return No, true
	}
	if s.nonNilError(r) {
		return Yes, true
	}
	if o := s.carriedErr(r, p); o != nil {
		return p.vals[o], true
	}
	if o := s.obj(r); o != nil {
		if v, ok := p.vals[o]; ok {
			return v, true
		}
	}
	return Unknown, false
}

func b2t(b bool) Tri {
	if b {
		return Yes
	}
	return No
}

func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
}

func (s *sim) set(l ast.Expr, v Tri, p *path) {
	if obj := s.obj(l); obj != nil {
		if v == Unknown {
			delete(p.vals, obj)
			delete(p.status, obj)
		} else {
			p.vals[obj] = v
		}
	}
}

func (s *sim) obj(e ast.Expr) types.Object { return identVar(s.info, e) }

// identVar returns what a name defines, or the variable it uses.
func identVar(info *types.Info, e ast.Expr) types.Object {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	if o := info.Defs[id]; o != nil {
		return o
	}
	if o, ok := info.Uses[id].(*types.Var); ok {
		return o
	}
	return nil
}

func not(v Tri) Tri {
	switch v {
	case Yes:
		return No
	case No:
		return Yes
	}
	return Unknown
}

func and(a, b Tri) Tri {
	if a == No || b == No {
		return No
	}
	if a == Yes && b == Yes {
		return Yes
	}
	return Unknown
}

func or(a, b Tri) Tri {
	if a == Yes || b == Yes {
		return Yes
	}
	if a == No && b == No {
		return No
	}
	return Unknown
}
