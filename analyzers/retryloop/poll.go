package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Poll helpers (retryutil.Retry(interval, timeout, func() (bool, error)),
// a vendored wait.Poll) call a condition until it says done. They poll;
// a call of one retries only when the condition it is given turns a
// failed remote call into "not yet" (returns false, nil), so the failed
// call is made again after the helper's wait (SPEC: polling is silent
// unless the operation polled returned an error that is retried).

// pollRetrier describes fs when it polls a condition parameter: a loop
// that calls it as ok, err := cond() and leaves when err != nil and when
// ok, or a call handing the parameter on to such a helper.
func (w *walker) pollRetrier(fs *fnScope) *RetrierFact {
	for i, v := range paramVars(w.info, fs.typ) {
		if v == nil || !isCondition(v.Type()) {
			continue
		}
		if w.pollsParam(fs.body, v) || w.handsToPoller(fs.body, v) {
			return &RetrierFact{OpParam: i, DelayParam: -1, ResendParam: -1, MethodParam: -1, HeaderParam: -1, CtxParam: -1,
				Bound: BoundUnknown, Poll: true}
		}
	}
	return nil
}

// paramVars returns the parameters of a function type in order.
func paramVars(info *types.Info, ft *ast.FuncType) []*types.Var {
	var out []*types.Var
	for _, f := range ft.Params.List {
		for _, n := range f.Names {
			v, _ := info.Defs[n].(*types.Var)
			out = append(out, v)
		}
		if len(f.Names) == 0 {
			out = append(out, nil)
		}
	}
	return out
}

// isCondition reports whether t is func(...) (bool, error).
func isCondition(t types.Type) bool {
	if t == nil {
		return false
	}
	sig, ok := t.Underlying().(*types.Signature)
	return ok && sig.Results().Len() == 2 && isBool(sig.Results().At(0).Type()) && isErrorType(sig.Results().At(1).Type())
}

// pollsParam reports whether a loop of body runs ok, err := v() and
// leaves when err != nil and when ok: it goes round on (false, nil).
func (w *walker) pollsParam(body ast.Node, v *types.Var) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok || found {
			return false
		}
		var loopBody *ast.BlockStmt
		switch l := n.(type) {
		case *ast.ForStmt:
			loopBody = l.Body
		case *ast.RangeStmt:
			loopBody = l.Body
		default:
			return true
		}
		found = w.pollBlock(loopBody.List, v)
		return !found
	})
	return found
}

// pollBlock reports whether stmts hold ok, err := v(...), then an if on
// err that leaves and an if on ok that leaves.
func (w *walker) pollBlock(stmts []ast.Stmt, v *types.Var) bool {
	var okVar, errVar types.Object
	leftErr, leftOK := false, false
	for _, st := range stmts {
		switch st := st.(type) {
		case *ast.AssignStmt:
			if len(st.Lhs) != 2 || len(st.Rhs) != 1 {
				continue
			}
			c, isCall := ast.Unparen(st.Rhs[0]).(*ast.CallExpr)
			if !isCall || w.usedObj(c.Fun) != types.Object(v) {
				continue
			}
			okVar, errVar = w.lhsObj(st.Lhs[0]), w.lhsObj(st.Lhs[1])
		case *ast.IfStmt:
			if okVar == nil || st.Init != nil || !w.leaves(st.Body) {
				continue
			}
			cond := ast.Unparen(st.Cond)
			if w.usedObj(cond) == okVar {
				leftOK = true
			}
			if b, isBin := cond.(*ast.BinaryExpr); isBin && b.Op == token.NEQ && w.usedObj(b.X) == errVar {
				if tv, known := w.info.Types[b.Y]; known && tv.IsNil() {
					leftErr = true
				}
			}
		}
	}
	return leftErr && leftOK
}

func (w *walker) lhsObj(e ast.Expr) types.Object {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	if o := w.info.Defs[id]; o != nil {
		return o
	}
	return w.info.Uses[id]
}

// handsToPoller reports whether body passes v to a poll helper as its
// condition (Retry(interval, timeout, f) → RetryWorker(…, f)).
func (w *walker) handsToPoller(body ast.Node, v *types.Var) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		fn := callee(w.info, c)
		if fn == nil {
			return true
		}
		if f := w.factOf(fn); f != nil && f.Retrier != nil && f.Retrier.Poll {
			if arg := argAt(c, f.Retrier.OpParam); arg != nil && w.usedObj(arg) == types.Object(v) {
				found = true
			}
			return !found
		}
		// A poller of this package not yet described: read it here.
		if decl := w.decls[fn]; decl != nil && decl.Body != nil && fn.Pkg() == w.pass.Pkg {
			params := paramVars(w.info, decl.Type)
			for i, arg := range c.Args {
				if i < len(params) && params[i] != nil && w.usedObj(arg) == types.Object(v) && isCondition(params[i].Type()) &&
					w.pollsParam(decl.Body, params[i]) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// swallowedFailure returns the remote call of a condition (a function
// literal, or a closure assigned once) whose failure it turns into "not
// yet": a path where the call failed and was looked at ends in
// return false, nil. Nil when there is none or the condition is unseen.
func (w *walker) swallowedFailure(cond ast.Expr) *ast.CallExpr {
	if cond == nil {
		return nil
	}
	lit, ok := ast.Unparen(cond).(*ast.FuncLit)
	if !ok {
		lit = w.localFunc(cond)
	}
	if lit == nil || !isCondition(w.info.TypeOf(lit)) {
		return nil
	}
	ops := map[*ast.CallExpr]bool{}
	for op := range w.opsIn(lit.Body) {
		if w.isRemoteCall(op) {
			ops[op] = true
		}
	}
	if len(ops) == 0 {
		return nil
	}
	s := &sim{w: w, info: w.info, ops: ops}
	s.kept = keptOps(lit.Body, ops)
	for op := range ops {
		s.fail, s.mode, s.seenFail = op, modeErr, false
		for _, p := range s.run(lit.Body.List) {
			if p.out == outExit && !p.abort && s.notYet(lit.Body, p.exitPos, op, p) {
				return op
			}
		}
	}
	return nil
}

// notYet reports whether the return statement at pos returns false (a
// constant, or a test the path's failure makes false) and nil, op's
// failure looked at on the way.
func (s *sim) notYet(body *ast.BlockStmt, pos token.Pos, op *ast.CallExpr, p *path) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok || found {
			return false
		}
		r, ok := n.(*ast.ReturnStmt)
		if !ok || r.Pos() != pos || len(r.Results) != 2 {
			return true
		}
		errv, known := s.info.Types[r.Results[1]]
		q := p.clone()
		found = known && errv.IsNil() && s.eval(r.Results[0], q) == No && q.observed[op]
		return false
	})
	return found
}
