package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/analyzers/internal/astq"
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
	params := fs.obj.Type().(*types.Signature).Params()
	for i := range params.Len() {
		v := params.At(i)
		if !isCondition(v.Type()) {
			continue
		}
		if loop, retriesErr := w.pollLoop(fs.body, v); loop != nil {
			r := opRetrier(i)
			bw := w.sleepsBlindIn(loop)
			r.Poll, r.Sleeps, r.SleepsOn, r.RetriesErr = true, bw.sleeps, bw.on, retriesErr
			if retriesErr {
				r.DelayParam = w.sleepParam(loop, fs)
			}
			return r
		}
		if bw, ok := w.handsToPoller(fs.body, v); ok {
			r := opRetrier(i)
			r.Poll, r.Sleeps, r.SleepsOn = true, bw.sleeps, bw.on
			return r
		}
	}
	return w.retrierViaPoller(fs)
}

// retrierViaPoller describes fs when it hands a poller a condition of
// its own that calls an operation parameter and turns its failure into
// "not yet" (err = f(); if p(err) { return false, nil }): fs retries
// that parameter.
func (w *walker) retrierViaPoller(fs *fnScope) *RetrierFact {
	var found *RetrierFact
	ast.Inspect(fs.body, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok || found != nil {
			return found == nil
		}
		cond, bw := w.pollerCond(c)
		if cond == nil {
			return true
		}
		lit := w.opLiteral(cond)
		if lit == nil || !isCondition(w.info.TypeOf(lit)) {
			return true
		}
		op := w.swallowed(lit, func(call *ast.CallExpr) bool {
			v, i := w.paramOf(call.Fun, fs)
			return i >= 0 && errLastSig(v.Type())
		})
		if op != nil {
			_, i := w.paramOf(op.Fun, fs)
			found = opRetrier(i)
			found.Sleeps, found.SleepsOn = bw.sleeps, bw.on
		}
		return found == nil
	})
	return found
}

// pollerCond returns the condition argument of a call to a poll helper
// (by its fact, or a poller of this package read here), or nil, and
// whether the helper sleeps blind.
func (w *walker) pollerCond(c *ast.CallExpr) (ast.Expr, blindWait) {
	fn := astq.Callee(w.info, c)
	if fn == nil {
		return nil, blindWait{}
	}
	if f := w.factOf(fn); f != nil && f.Retrier != nil && f.Retrier.Poll {
		return argAt(c, f.Retrier.OpParam), blindWait{f.Retrier.Sleeps, f.Retrier.SleepsOn}
	}
	if decl := w.decls[fn]; decl != nil && decl.Body != nil && fn.Pkg() == w.pass.Pkg {
		params := fn.Type().(*types.Signature).Params()
		for i, arg := range c.Args {
			if i < params.Len() && isCondition(params.At(i).Type()) {
				if loop, _ := w.pollLoop(decl.Body, params.At(i)); loop != nil {
					return arg, w.sleepsBlindIn(loop)
				}
			}
		}
	}
	return nil, blindWait{}
}

// isCondition reports whether t is func(...) (bool, error).
func isCondition(t types.Type) bool {
	if t == nil {
		return false
	}
	sig, ok := t.Underlying().(*types.Signature)
	return ok && sig.Results().Len() == 2 && isBool(sig.Results().At(0).Type()) && isErrorType(sig.Results().At(1).Type())
}

// pollLoop returns the loop of body that runs ok, err := v() and leaves
// when err != nil and when ok: it goes round on (false, nil). Nil if none.
func (w *walker) pollLoop(body ast.Node, v *types.Var) (found ast.Node, retriesErr bool) {
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok || found != nil {
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
		if poll, errs := w.pollBlock(loopBody.List, v); poll {
			found, retriesErr = n, errs
		}
		return found == nil
	})
	return found, retriesErr
}

// blindWait says whether a poll helper's loop sleeps through
// cancellation, and on what (as RetrierFact.SleepsOn words it).
type blindWait struct {
	sleeps bool
	on     string
}

// sleepsBlindIn reports whether a loop waits through cancellation, as
// sleepsBlind does for a retry loop: with time.Sleep, on time.After or on
// a timer's channel outside a select, consulting no context or stop
// channel (a select offering one consults it).
func (w *walker) sleepsBlindIn(loop ast.Node) blindWait {
	var bw blindWait
	consults := false
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SelectStmt:
			for _, c := range n.Body.List {
				cc := c.(*ast.CommClause)
				if u := commRecv(cc.Comm); u != nil && w.isConsultRecv(u.X) {
					consults = true
				}
				for _, st := range cc.Body {
					ast.Inspect(st, visit)
				}
			}
			return false
		case *ast.CallExpr:
			if !bw.sleeps && astq.IsFunc(astq.Callee(w.info, n), "time.Sleep") {
				bw.sleeps, bw.on = blindKind(WaitSleep)
			}
			consults = consults || w.consults(n)
		case *ast.UnaryExpr:
			if n.Op != token.ARROW {
				break
			}
			if w.isConsultRecv(n.X) {
				consults = true
			} else if blind, on := blindKind(w.blindRecv(n.X)); blind && !bw.sleeps {
				bw = blindWait{sleeps: true, on: on}
			}
		}
		return true
	}
	ast.Inspect(loop, visit)
	if consults {
		return blindWait{}
	}
	return bw
}

// blindRecv says what kind of wait a receive outside a select is when it
// waits a delay whatever happens: WaitAfter for time.After(d), WaitTimer
// for a time.Timer's channel; 0 for anything else.
func (w *walker) blindRecv(x ast.Expr) WaitKind {
	switch x := ast.Unparen(x).(type) {
	case *ast.CallExpr:
		if astq.IsFunc(astq.Callee(w.info, x), "time.After") {
			return WaitAfter
		}
	case *ast.SelectorExpr:
		if x.Sel.Name == "C" && astq.IsNamed(w.info.TypeOf(x.X), "time", "Timer") {
			return WaitTimer
		}
	}
	return 0
}

// pollBlock reports whether stmts hold ok, err := v(...), then an if on
// ok that leaves and either an if on err that leaves (a poll) or none at
// all while err is looked at (WaitFor: lastErr = err; the poller retries
// its condition's failures too: retriesErr).
func (w *walker) pollBlock(stmts []ast.Stmt, v *types.Var) (poll, retriesErr bool) {
	var okVar, errVar types.Object
	leftErr, leftOK, errLeaves := false, false, false
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
			okVar, errVar = identVar(w.info, st.Lhs[0]), identVar(w.info, st.Lhs[1])
		case *ast.IfStmt:
			if st.Init != nil && w.leaves(st.Body) {
				// if ok, err := cond(); err != nil || ok { return err }
				if a, isAssign := st.Init.(*ast.AssignStmt); isAssign {
					if p, _ := w.pollBlock([]ast.Stmt{a, &ast.IfStmt{Cond: orLeft(st.Cond), Body: st.Body}, &ast.IfStmt{Cond: orRight(st.Cond), Body: st.Body}}, v); p {
						return true, false
					}
				}
			}
			if okVar == nil || st.Init != nil || !w.leaves(st.Body) {
				continue
			}
			cond := ast.Unparen(st.Cond)
			if errVar != nil && astq.RefersTo(w.info, cond, errVar) {
				errLeaves = true
			}
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
	if leftErr && leftOK {
		return true, false
	}
	if leftOK && !errLeaves && errVar != nil && w.mentionsIn(stmts, errVar) {
		return true, true
	}
	return false, false
}

// mentionsIn reports whether the statements refer to v.
func (w *walker) mentionsIn(stmts []ast.Stmt, v types.Object) bool {
	for _, st := range stmts {
		if astq.RefersTo(w.info, st, v) {
			return true
		}
	}
	return false
}

// orLeft and orRight split a || b (else both are the expression).
func orLeft(e ast.Expr) ast.Expr {
	if b, ok := ast.Unparen(e).(*ast.BinaryExpr); ok && b.Op == token.LOR {
		return b.X
	}
	return e
}

func orRight(e ast.Expr) ast.Expr {
	if b, ok := ast.Unparen(e).(*ast.BinaryExpr); ok && b.Op == token.LOR {
		return b.Y
	}
	return e
}

// handsToPoller reports whether body passes v to a poll helper as its
// condition (Retry(interval, timeout, f) → RetryWorker(…, f)), and
// whether that helper sleeps blind.
func (w *walker) handsToPoller(body ast.Node, v *types.Var) (bw blindWait, found bool) {
	ast.Inspect(body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && !found {
			if cond, b := w.pollerCond(c); cond != nil && w.usedObj(cond) == types.Object(v) {
				bw, found = b, true
			}
		}
		return !found
	})
	return bw, found
}

// errLastSig reports whether t is a function type whose last result is
// an error.
func errLastSig(t types.Type) bool {
	sig, ok := t.Underlying().(*types.Signature)
	return ok && sig.Results().Len() > 0 && isErrorType(sig.Results().At(sig.Results().Len()-1).Type())
}

// swallowedFailure returns the remote call of a condition (a function
// literal, or a closure assigned once) whose failure it turns into "not
// yet": a path where the call failed and was looked at ends in
// return false, nil. Nil when there is none or the condition is unseen.
func (w *walker) swallowedFailure(cond ast.Expr) *ast.CallExpr {
	if cond == nil {
		return nil
	}
	lit := w.opLiteral(cond)
	if lit == nil || !isCondition(w.info.TypeOf(lit)) {
		return nil
	}
	return w.swallowed(lit, w.isRemoteCall)
}

// sleepParam returns the parameter a loop sleeps with time.Sleep(d), or
// -1.
func (w *walker) sleepParam(loop ast.Node, fs *fnScope) int {
	i := -1
	ast.Inspect(loop, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && astq.IsFunc(astq.Callee(w.info, c), "time.Sleep") && len(c.Args) == 1 {
			if _, j := w.paramOf(c.Args[0], fs); j >= 0 {
				i = j
			}
		}
		_, lit := n.(*ast.FuncLit)
		return !lit && i < 0
	})
	return i
}

// condRemote reports whether a condition (a function literal, or a
// closure assigned once) makes a remote call: a poller that retries its
// condition's failures retries that call.
func (w *walker) condRemote(cond ast.Expr) bool {
	if cond == nil {
		return false
	}
	lit := w.opLiteral(cond)
	return lit != nil && w.reachesRemote(lit) != nil
}

// swallowed returns the call of a condition literal, among those isOp
// accepts, whose failure it turns into "not yet".
func (w *walker) swallowed(lit *ast.FuncLit, isOp func(*ast.CallExpr) bool) *ast.CallExpr {
	ops := map[*ast.CallExpr]bool{}
	for op := range w.opsIn(lit.Body) {
		if isOp(op) {
			ops[op] = true
		}
	}
	if len(ops) == 0 {
		return nil
	}
	s := &sim{w: w, info: w.info, ops: ops, predObserves: true}
	s.kept = keptOps(lit.Body, ops)
	for _, op := range sortedOps(ops) {
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
