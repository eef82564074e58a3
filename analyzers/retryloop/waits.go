package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/retrylint/retrylint/analyzers/internal/astq"
)

// siteWaits classifies the waits between attempts, in source order. An
// operation that also waits (processOnce sleeping before a retry) counts
// as the wait only when nothing else waits.
func (w *walker) siteWaits(s *sim, waits map[ast.Node]bool, chosen map[ast.Node]ast.Expr) []*Wait {
	var wn []ast.Node
	for n := range waits {
		wn = append(wn, n)
	}
	slices.SortFunc(wn, func(a, b ast.Node) int { return int(a.Pos() - b.Pos()) })
	others := false
	for _, n := range wn {
		if !w.opWait(s, n) {
			others = true
		}
	}
	var out []*Wait
	for _, n := range wn {
		if c, ok := n.(*ast.CallExpr); ok && w.swallows(c) {
			fn := astq.Callee(w.info, c)
			fw := w.factOf(fn).FailWait
			out = append(out, &Wait{Kind: WaitHelper, Node: c, Call: c, Growth: fw.Growth, Jitter: fw.Jitter, Cancellable: fw.Cancellable, Related: []token.Pos{fn.Pos()}})
			continue
		}
		if c, ok := n.(*ast.CallExpr); ok && w.opWait(s, n) {
			if others {
				continue
			}
			// What the operation's own wait means is its business: it
			// rules out "no wait", nothing more.
			out = append(out, &Wait{Kind: WaitHelper, Node: c, Call: c, Growth: GrowthUnknown})
			continue
		}
		if wt := w.classifyWait(n); wt != nil {
			if x, ok := chosen[n]; ok {
				w.chooseDelay(wt, x)
			}
			out = append(out, wt)
		}
	}
	return out
}

// chooseDelay judges a wait that success shares by the delay the failure
// chose for it (nil: failures choose differently). No fix rewrites it:
// the wait paces the successful rounds too.
func (w *walker) chooseDelay(wt *Wait, x ast.Expr) {
	wt.Shared, wt.Related, wt.Note = true, nil, ""
	if x == nil {
		wt.Growth, wt.Jitter = GrowthUnknown, false
		return
	}
	if c, ok := x.(*ast.CallExpr); ok && w.rearmedOnFail(c) != nil {
		// The function the round called chose the delay when it failed.
		fn := astq.Callee(w.info, c)
		f := w.factOf(fn).FailRearm
		wt.Delay, wt.Growth, wt.Jitter, wt.Related = nil, f.Growth, f.Jitter, []token.Pos{fn.Pos()}
		return
	}
	wt.Delay, wt.Related = x, []token.Pos{x.Pos()}
	w.judgeDelay(wt)
}

// opWait reports whether the wait n is one of the operations, and not a
// wait helper: a helper whose delay is a parameter (sleepCtx(ctx, d)) is
// a wait like time.Sleep even when its error is checked.
func (w *walker) opWait(s *sim, n ast.Node) bool {
	c, ok := n.(*ast.CallExpr)
	if !ok || !s.ops[c] {
		return false
	}
	f := w.factOf(astq.Callee(w.info, c))
	return f == nil || f.Wait == nil || f.Wait.Param < 0
}

// waitDelayVar returns the variable the wait wn's delay is, or nil.
func (w *walker) waitDelayVar(wn ast.Node) types.Object {
	wt := w.classifyWait(wn)
	if wt == nil || wt.Delay == nil {
		return nil
	}
	id, ok := ast.Unparen(wt.Delay).(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := w.info.Uses[id].(*types.Var)
	if v == nil {
		return nil
	}
	return v
}

// waitTimerVar returns the timer variable t the wait wn receives from
// (<-t.C, or the one timer case of a select) when the function re-arms t
// (t.Reset(d)): the delay of each wait is the one the round before chose.
func (w *walker) waitTimerVar(wn ast.Node) types.Object {
	var recvs []*ast.UnaryExpr
	switch n := wn.(type) {
	case *ast.UnaryExpr:
		recvs = append(recvs, n)
	case *ast.SelectStmt:
		for _, cc := range n.Body.List {
			if u := commRecv(cc.(*ast.CommClause).Comm); u != nil && w.isWaitRecv(u.X) {
				recvs = append(recvs, u)
			}
		}
	}
	if len(recvs) != 1 || w.cur == nil {
		return nil
	}
	if w.afterFuncChan(recvs[0].X) != nil {
		return w.usedObj(recvs[0].X)
	}
	sel, ok := ast.Unparen(recvs[0].X).(*ast.SelectorExpr)
	if !ok || !astq.IsNamed(w.info.TypeOf(sel.X), "time", "Timer") {
		return nil
	}
	v, ok := w.usedObj(sel.X).(*types.Var)
	if !ok || w.timerDefs(v).resets == 0 {
		return nil
	}
	return v
}

// assignedAfter reports whether every assignment of v in loop comes after
// the wait wn: a round waits what the round before left in v.
func (w *walker) assignedAfter(v types.Object, wn ast.Node, loop ast.Stmt) bool {
	waited := wn.End()
	if sel, isSelect := wn.(*ast.SelectStmt); isSelect {
		// The wait is over when its case fires.
		for _, cc := range sel.Body.List {
			if u := commRecv(cc.(*ast.CommClause).Comm); u != nil && w.isWaitRecv(u.X) {
				waited = u.End()
			}
		}
	}
	ok := true
	ast.Inspect(loop, func(n ast.Node) bool {
		as, isAssign := n.(*ast.AssignStmt)
		if !isAssign || !ok {
			return ok
		}
		for _, l := range as.Lhs {
			if w.isVar(l, v) && as.Pos() < waited {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// isWaitCall reports whether call waits: time.Sleep, budget.Sleep, or a
// function known (by fact) to wait.
func (w *walker) isWaitCall(call *ast.CallExpr) bool {
	fn := astq.Callee(w.info, call)
	if fn == nil || isInterfaceMethod(fn) {
		return fn == nil && w.sleepVar(call) || w.opaqueWait(call)
	}
	if astq.IsFunc(fn, "time.Sleep", BudgetPath+".Sleep") {
		return true
	}
	f := w.factOf(fn)
	return f != nil && f.Wait != nil
}

// opaqueWait reports whether a call through a function value or an
// interface method may be a wait: it takes a time.Duration and returns
// nothing (r.pause(d), clock.Sleep(d)). Unknown is not absent. A call
// with a result is an operation (conn.DoCache(ctx, cmd, ttl)).
func (w *walker) opaqueWait(call *ast.CallExpr) bool {
	sig, ok := w.info.TypeOf(call.Fun).Underlying().(*types.Signature)
	if !ok || sig.Results().Len() > 0 {
		return false
	}
	for i := 0; i < sig.Params().Len(); i++ {
		if isDurationType(sig.Params().At(i).Type()) {
			return true
		}
	}
	return false
}

func isInterfaceMethod(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return false
	}
	_, ok = sig.Recv().Type().Underlying().(*types.Interface)
	return ok
}

// sleepVar reports whether call goes through a function variable or field
// that the package only ever sets to time.Sleep (r.sleep = time.Sleep in a
// constructor, var sleep = time.Sleep): a sleep. One other value
// anywhere (a test's fake) makes it unknown.
func (w *walker) sleepVar(call *ast.CallExpr) bool {
	v, _ := w.usedObj(call.Fun).(*types.Var)
	if v == nil || v.Pkg() != w.pass.Pkg {
		return false
	}
	if r, ok := w.sleepVars[v]; ok {
		return r
	}
	vals, ok := w.pkgValuesOf(v, true)
	sleeps, others := 0, 0
	for _, e := range vals {
		if e == nil {
			continue // a declaration without a value: nil until set
		}
		if fn, isFn := w.usedObj(e).(*types.Func); isFn && astq.IsFunc(fn, "time.Sleep") {
			sleeps++
		} else {
			others++
		}
	}
	if !ok {
		others++
	}
	r := sleeps > 0 && others == 0
	if w.sleepVars == nil {
		w.sleepVars = map[*types.Var]bool{}
	}
	w.sleepVars[v] = r
	return r
}

// isWaitRecv reports whether receiving from x waits for a timer:
// time.After(d), time.Tick(d), t.C of a Timer or Ticker, or any other
// channel of time.Time (opaqueTimer).
func (w *walker) isWaitRecv(x ast.Expr) bool {
	return w.knownTimer(x) || astq.IsTimeChan(w.info.TypeOf(x))
}

// opaqueTimer reports whether x is a channel of time.Time that the model
// cannot time: one made by a clock it does not know (a mockable clock's
// After(d) or Timer(d).C, a helper returning a timer channel). Receiving
// from it waits, for how long is unknown: neither absent nor fixed.
func (w *walker) opaqueTimer(x ast.Expr) bool {
	return astq.IsTimeChan(w.info.TypeOf(x)) && !w.knownTimer(x)
}

// knownTimer reports whether x is a timer channel the model times:
// time.After(d), time.Tick(d), t.C of a Timer or Ticker, a variable
// holding time.After(d), a channel only time.AfterFunc callbacks signal.
func (w *walker) knownTimer(x ast.Expr) bool {
	x = ast.Unparen(x)
	if c, ok := x.(*ast.CallExpr); ok {
		return astq.IsFunc(astq.Callee(w.info, c), "time.After", "time.Tick")
	}
	if sel, ok := x.(*ast.SelectorExpr); ok && sel.Sel.Name == "C" {
		t := w.info.TypeOf(sel.X)
		return t != nil && (astq.IsNamed(t, "time", "Timer") || astq.IsNamed(t, "time", "Ticker"))
	}
	if _, ok := w.afterVar(x); ok {
		return true
	}
	return w.afterFuncChan(x) != nil
}

// afterFuncChan returns the delays of the timer callbacks that signal x,
// when x is a local channel variable that only callbacks of
// time.AfterFunc send to (time.AfterFunc(d, func() { retry <- struct{}{} }))
// and that goes nowhere else: receiving from it waits for one of them.
// Nil otherwise.
func (w *walker) afterFuncChan(x ast.Expr) []ast.Expr {
	v := w.localVar(x)
	if v == nil {
		return nil
	}
	if _, ok := v.Type().Underlying().(*types.Chan); !ok {
		return nil
	}
	if d, seen := w.timerChans[v]; seen {
		return d
	}
	if w.timerChans == nil {
		w.timerChans = map[*types.Var][]ast.Expr{}
	}
	d := w.timerCallbackDelays(v)
	w.timerChans[v] = d
	return d
}

// timerCallbackDelays returns the delays of the time.AfterFunc calls
// whose callbacks send to v, when every use of v in the function is such
// a send, a receive, or its one definition; nil otherwise.
func (w *walker) timerCallbackDelays(v *types.Var) []ast.Expr {
	var delays []ast.Expr
	callbackSends := map[*ast.Ident]bool{}
	ast.Inspect(w.cur.body, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok || len(c.Args) != 2 || !astq.IsFunc(astq.Callee(w.info, c), "time.AfterFunc") {
			return true
		}
		lit, ok := ast.Unparen(c.Args[1]).(*ast.FuncLit)
		if !ok {
			return true
		}
		sends := 0
		ast.Inspect(lit.Body, func(m ast.Node) bool {
			if st, ok := m.(*ast.SendStmt); ok {
				if id, ok := ast.Unparen(st.Chan).(*ast.Ident); ok && w.info.Uses[id] == v {
					callbackSends[id] = true
					sends++
				}
			}
			return true
		})
		if sends > 0 {
			delays = append(delays, c.Args[0])
		}
		return true
	})
	if len(delays) == 0 {
		return nil
	}
	other := false
	ast.Inspect(w.cur.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.UnaryExpr:
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && n.Op == token.ARROW && w.info.Uses[id] == v {
				return false // a receive
			}
		case *ast.AssignStmt:
			if len(n.Lhs) == 1 && len(n.Rhs) == 1 {
				if id, ok := n.Lhs[0].(*ast.Ident); ok && w.info.Defs[id] == v {
					return false // its definition, retry := make(chan struct{})
				}
			}
		case *ast.ValueSpec:
			return false
		case *ast.Ident:
			if w.info.Uses[n] == v && !callbackSends[n] {
				other = true // sent elsewhere, passed on or stored
			}
		}
		return !other
	})
	if other {
		return nil
	}
	return delays
}

// afterVar reports whether x is a local channel variable that only ever
// holds time.After(d) or nil (retryCh = time.After(lockRetry); ...;
// case <-retryCh:), and returns the one delay if there is one.
func (w *walker) afterVar(x ast.Expr) (ast.Expr, bool) {
	v := w.localVar(x)
	if v == nil {
		return nil, false
	}
	if _, ok := v.Type().Underlying().(*types.Chan); !ok {
		return nil, false
	}
	vals, ok := w.valuesOf(v, w.cur.body)
	var delays []ast.Expr
	other := !ok
	for _, r := range vals {
		if r == nil || astq.IsNil(w.info, r) {
			continue
		}
		if c, isCall := ast.Unparen(r).(*ast.CallExpr); isCall && astq.IsFunc(astq.Callee(w.info, c), "time.After") && len(c.Args) == 1 {
			delays = append(delays, c.Args[0])
			continue
		}
		other = true
	}
	if other || len(delays) == 0 {
		return nil, false
	}
	if len(delays) == 1 {
		return delays[0], true
	}
	return nil, true
}

// consults reports whether call checks a context: ctx.Err(), or a
// context-aware wait (budget.Sleep, a waiting helper that takes the context).
func (w *walker) consults(call *ast.CallExpr) bool {
	fn := astq.Callee(w.info, call)
	if fn == nil {
		return false
	}
	// context.Context's own method, also promoted through a struct that
	// embeds it (caddy.Context).
	if astq.IsFunc(fn, "context.Context.Err", BudgetPath+".Sleep") {
		return true
	}
	if f := w.factOf(fn); f != nil && f.Wait != nil && f.Wait.Cancellable && w.handedStop(call, fn, f.Wait.StopFrom) {
		return true
	}
	return false
}

// handedStop reports whether a call can observe the caller's stop input: it
// is handed a context or a stop channel, or it is a method whose receiver
// may hold one. A function handed neither (cache.New(cfg, opts)) waits, if
// it does, on something of its own, and so does a method whose receiver's
// type can hold no context or channel. Where the callee's fact says what
// its wait is raced against (from), only those inputs count: a wait on a
// package's own shutdown channel observes none of the caller's.
func (w *walker) handedStop(call *ast.CallExpr, fn *types.Func, from StopFrom) bool {
	if from == 0 || from&StopUnknown != 0 {
		from = StopRecv | StopParam
	}
	if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil && from&StopRecv != 0 {
		sel, isSel := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !isSel {
			return true
		}
		if t := w.info.TypeOf(sel.X); t == nil || MayHoldStop(t) {
			return true
		}
	}
	if from&StopParam == 0 {
		return false
	}
	for _, a := range call.Args {
		if t := w.info.TypeOf(a); t != nil && (isContextType(t) || isStopChan(t)) {
			return true
		}
	}
	return false
}

// isConsultRecv reports whether receiving from x consults a context or stop channel.
func (w *walker) isConsultRecv(x ast.Expr) bool {
	x = ast.Unparen(x)
	if c, ok := x.(*ast.CallExpr); ok {
		return astq.IsFunc(astq.Callee(w.info, c), "context.Context.Done")
	}
	t := w.info.TypeOf(x)
	return t != nil && isStopChan(t)
}

// handsStop reports whether call is handed a stop channel the current
// function itself receives from (RenewPeriodic("15s", id, nil, d.stopCh)
// beside select { case <-d.stopCh: return }): the callee runs until told
// to stop, as the function does.
func (w *walker) handsStop(call *ast.CallExpr) bool {
	if w.cur == nil {
		return false
	}
	for _, a := range call.Args {
		if t := w.info.TypeOf(a); t == nil || !isStopChan(t) {
			continue
		}
		ref := w.usedObj(a)
		if ref == nil {
			continue
		}
		found := false
		ast.Inspect(w.cur.body, func(n ast.Node) bool {
			if u, ok := n.(*ast.UnaryExpr); ok && u.Op == token.ARROW && w.usedObj(u.X) == ref {
				found = true
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// classifyWait describes one wait node found on a retry path.
func (w *walker) classifyWait(n ast.Node) *Wait {
	switch n := n.(type) {
	case *ast.CallExpr:
		fn := astq.Callee(w.info, n)
		switch {
		case astq.IsFunc(fn, "time.Sleep") || fn == nil && w.sleepVar(n):
			wt := &Wait{Kind: WaitSleep, Node: n, Call: n}
			if len(n.Args) == 1 {
				wt.Delay = n.Args[0]
			}
			w.judgeDelay(wt)
			return wt
		case astq.IsFunc(fn, BudgetPath+".Sleep"):
			wt := &Wait{Kind: WaitHelper, Node: n, Call: n, Cancellable: true}
			if len(n.Args) == 2 {
				wt.Delay = n.Args[1]
			}
			w.judgeDelay(wt)
			return wt
		}
		if (fn == nil || isInterfaceMethod(fn)) && w.opaqueWait(n) {
			// What it waits is unknown: neither absent nor fixed.
			return &Wait{Kind: WaitHelper, Node: n, Call: n, Growth: GrowthUnknown}
		}
		if f := w.factOf(fn); f != nil && f.Wait != nil {
			wt := &Wait{Kind: WaitHelper, Node: n, Call: n, Cancellable: f.Wait.Cancellable}
			wt.Related = append(wt.Related, fn.Pos())
			if f.Wait.Param >= 0 && f.Wait.Param < len(n.Args) {
				wt.Delay = n.Args[f.Wait.Param]
				w.judgeDelay(wt)
			} else {
				wt.Growth, wt.Jitter = f.Wait.Growth, f.Wait.Jitter
			}
			return wt
		}
	case *ast.UnaryExpr:
		wt := &Wait{Kind: WaitAfter, Node: n}
		w.timerDelay(n.X, wt)
		return wt
	case *ast.RangeStmt:
		return w.tickWait(n)
	case *ast.SelectStmt:
		wt := &Wait{Kind: WaitSelect, Node: n}
		for _, c := range n.Body.List {
			u := commRecv(c.(*ast.CommClause).Comm)
			switch {
			case u == nil:
			case w.isWaitRecv(u.X):
				w.timerDelay(u.X, wt)
			default:
				wt.Cancellable = true
				wt.StopOn = append(wt.StopOn, u.X)
			}
		}
		return wt
	}
	return nil
}

// tickWait describes the wait at the head of a loop over ticks. For
// range ticker.C: the tick is the wait, and no fix rewrites it (the
// ticker is made once; its period is not a delay to replace). For a
// source of retry ticks, the source waits: how long is its business.
func (w *walker) tickWait(n *ast.RangeStmt) *Wait {
	if c, ok := ast.Unparen(n.X).(*ast.CallExpr); ok && w.tickSourceCall(c) {
		wt := &Wait{Kind: WaitHelper, Node: n, Growth: GrowthUnknown}
		if fn := astq.Callee(w.info, c); fn != nil {
			wt.Related = append(wt.Related, fn.Pos())
		}
		return wt
	}
	wt := &Wait{Kind: WaitTicker, Node: n}
	w.timerDelay(n.X, wt)
	wt.Call = nil
	return wt
}

// timerDelay finds the delay of a timer receive (time.After(d), t.C).
func (w *walker) timerDelay(x ast.Expr, wt *Wait) {
	x = ast.Unparen(x)
	if w.opaqueTimer(x) {
		if wt.Kind != WaitSelect {
			wt.Kind = WaitHelper // no time.Sleep to rewrite, no delay to judge
		}
		wt.Growth = GrowthUnknown
		return
	}
	if c, ok := x.(*ast.CallExpr); ok {
		wt.Call = c
		if astq.IsFunc(astq.Callee(w.info, c), "time.Tick") {
			wt.Kind = WaitTicker
		}
		if len(c.Args) == 1 {
			wt.Delay = c.Args[0]
		}
		w.judgeDelay(wt)
		return
	}
	if d, ok := w.afterVar(x); ok {
		wt.Delay = d
		w.judgeDelay(wt)
		return
	}
	if ds := w.afterFuncChan(x); ds != nil {
		wt.Kind, wt.Growth = WaitTimer, GrowthUnknown
		if len(ds) == 1 {
			wt.Delay = ds[0]
			w.judgeDelay(wt)
		}
		return
	}
	sel, ok := x.(*ast.SelectorExpr)
	if !ok {
		return
	}
	if astq.IsNamed(w.info.TypeOf(sel.X), "time", "Ticker") {
		wt.Kind = WaitTicker
		wt.Growth = GrowthFixed
		return
	}
	if wt.Kind != WaitSelect {
		wt.Kind = WaitTimer
	}
	wt.Growth = GrowthUnknown
	// t := time.NewTimer(d) in the function, never Reset: judge d.
	if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok && w.cur != nil {
		if v, ok := w.info.Uses[id].(*types.Var); ok {
			w.timerVarDelay(v, wt)
		}
	}
}

// timerVarDelay judges the delay of a timer variable made once by
// time.NewTimer(d): d, and with one Reset(d2), which re-arms it for every
// later wait, the first d and d2.
func (w *walker) timerVarDelay(v *types.Var, wt *Wait) {
	t := w.timerDefs(v)
	if t.defs == 1 && t.resets == 0 && t.arg != nil {
		wt.Delay = t.arg
		w.judgeDelay(wt)
	}
	if t.defs == 1 && t.resets == 1 && t.arg != nil && t.resetArg != nil {
		first := w.delayOf(t.arg, 0, map[types.Object]bool{})
		wt.Delay = t.resetArg
		w.judgeDelay(wt)
		wt.Growth = combine(wt.Growth, first.growth)
		wt.Jitter = wt.Jitter || first.jitter
	}
}

// timerDefs is how a timer variable is set in the function.
type timerDefs struct {
	arg, resetArg ast.Expr // the NewTimer and the Reset delays
	defs, resets  int
}

func (w *walker) timerDefs(v *types.Var) timerDefs {
	var t timerDefs
	ast.Inspect(w.cur.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				if !w.isVar(l, v) || len(n.Rhs) != len(n.Lhs) {
					continue
				}
				c, ok := ast.Unparen(n.Rhs[i]).(*ast.CallExpr)
				if ok && astq.IsFunc(astq.Callee(w.info, c), "time.NewTimer") && len(c.Args) == 1 && t.defs == 1 && t.arg != nil {
					// timeout = time.NewTimer(d) again: it re-arms the
					// timer like a Reset.
					t.resets++
					t.resetArg = c.Args[0]
					continue
				}
				t.defs++
				if ok && astq.IsFunc(astq.Callee(w.info, c), "time.NewTimer") && len(c.Args) == 1 {
					t.arg = c.Args[0]
				}
			}
		case *ast.CallExpr:
			if x, d := w.timerReset(n); x != nil && w.isVar(x, v) {
				t.resets++
				t.resetArg = d
			} else if w.rearmedOnFail(n) == v {
				t.resets++ // a function it is handed re-arms it
				t.resetArg = nil
			}
		}
		return true
	})
	return t
}

// swallows reports whether call is of a function that waits after a
// remote failure and returns it to no one (FuncFact.FailWait), called as
// a statement.
func (w *walker) swallows(call *ast.CallExpr) bool {
	f := w.factOf(astq.Callee(w.info, call))
	return f != nil && f.FailWait != nil
}

// failWait describes a function without results whose remote call, when
// it fails, is followed by a wait and a return (the failure logged and
// swallowed):
//
//	srvs, _, err := catalog.Services(opts)
//	if err != nil {
//		log.Error("refreshing", "err", err)
//		time.Sleep(retryInterval)
//		return
//	}
//
// A loop that calls it every round retries the call at that wait: the
// error branch of a consume loop, in the callee. Every failure path must
// wait (or leave on cancellation) with a wait success does not share.
func (w *walker) failWait(fs *fnScope) *WaitFact {
	sig, ok := fs.obj.Type().(*types.Signature)
	if !ok || sig.Results().Len() > 0 || !w.waitsThenReturns(fs.body) || w.inGOROOT() {
		return nil
	}
	ops := map[*ast.CallExpr]bool{}
	for op := range w.opsIn(fs.body) {
		if w.isRemoteCall(op) && !w.swallows(op) {
			ops[op] = true
		}
	}
	if len(ops) == 0 {
		return nil
	}
	s := &sim{w: w, info: w.info, ops: ops, self: fs.obj}
	s.kept = keptOps(fs.body, ops)
	successWaits := map[ast.Node]bool{}
	for _, p := range s.run(fs.body.List) {
		for _, wn := range p.waits {
			successWaits[wn] = true
		}
	}
	var waits []ast.Node
	complete := s.failureWalks(fs.body.List, func(p *path) bool {
		n := len(waits)
		for _, wn := range p.waits {
			if !successWaits[wn] {
				waits = append(waits, wn)
			}
		}
		return len(waits) > n || p.consult // else this failure comes back at once
	})
	if !complete {
		return nil
	}
	if s.overflow || len(waits) == 0 {
		return nil
	}
	return w.combinedWait(waits, fs)
}

// failRearm describes a function without results, handed one timer,
// that re-arms it after an operation of it fails (t.Reset(d)) with
// delays no success chooses: FuncFact.FailRearm. Nil when a failure
// leaves the timer as it was, or re-arms it as a success does (a
// period, not a retry delay).
func (w *walker) failRearm(fs *fnScope) *WaitFact {
	sig, ok := fs.obj.Type().(*types.Signature)
	if !ok || sig.Results().Len() > 0 || w.inGOROOT() {
		return nil
	}
	param, timer := -1, (*types.Var)(nil)
	for i := 0; i < sig.Params().Len(); i++ {
		if v := sig.Params().At(i); isTimerPtr(v.Type()) {
			if timer != nil {
				return nil
			}
			param, timer = i, v
		}
	}
	if timer == nil || w.timerDefs(timer).resets == 0 {
		return nil
	}
	ops := w.opsIn(fs.body)
	if len(ops) == 0 {
		return nil
	}
	s := &sim{w: w, info: w.info, ops: ops, self: fs.obj, handed: timer}
	s.kept = keptOps(fs.body, ops)
	// The delays rounds choose after an operation succeeded (not where
	// the function left before calling one).
	success := map[string]bool{}
	for _, p := range s.run(fs.body.List) {
		if d := p.delays[timer]; d != nil && len(p.observed) > 0 {
			success[types.ExprString(d)] = true
		}
	}
	var wf *WaitFact
	complete := s.failureWalks(fs.body.List, func(p *path) bool {
		d := p.delays[timer]
		if d == nil || success[types.ExprString(d)] {
			return false // the failure leaves the timer, or re-arms it as a success does
		}
		wt := &Wait{Delay: d}
		w.judgeDelay(wt)
		if wf == nil {
			wf = &WaitFact{Param: param, Growth: wt.Growth}
		} else if wf.Growth != wt.Growth {
			wf.Growth = GrowthUnknown
		}
		wf.Jitter = wf.Jitter || wt.Jitter
		return true
	})
	if !complete {
		return nil
	}
	if s.overflow {
		return nil
	}
	return wf
}

// timerReset returns the timer and the delay of a call t.Reset(d) of
// a *time.Timer, or nils.
func (w *walker) timerReset(call *ast.CallExpr) (timer, d ast.Expr) {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || len(call.Args) != 1 || !astq.IsFunc(astq.Callee(w.info, call), "time.Timer.Reset") {
		return nil, nil
	}
	return sel.X, call.Args[0]
}

// isTimerPtr reports whether t is *time.Timer.
func isTimerPtr(t types.Type) bool {
	p, ok := types.Unalias(t).(*types.Pointer)
	return ok && astq.IsNamed(p.Elem(), "time", "Timer")
}

// rearmedOnFail returns the timer variable a call hands a function that
// re-arms it on failure (FuncFact.FailRearm), or nil.
func (w *walker) rearmedOnFail(call *ast.CallExpr) types.Object {
	f := w.factOf(astq.Callee(w.info, call))
	if f == nil || f.FailRearm == nil {
		return nil
	}
	i := f.FailRearm.Param
	if sig, ok := w.info.TypeOf(call.Fun).(*types.Signature); !ok || sig.Variadic() || i >= len(call.Args) {
		return nil
	}
	v, _ := w.usedObj(call.Args[i]).(*types.Var)
	if v == nil {
		return nil
	}
	return v
}

// failureWalks walks stmts under the failure of each kept operation and
// hands visit every path that tested it and did not abort. It reports
// false when visit does (the walks stop there).
func (s *sim) failureWalks(stmts []ast.Stmt, visit func(p *path) bool) bool {
	for _, op := range sortedOps(s.ops) {
		if !s.kept[op] {
			continue
		}
		s.fail, s.mode, s.seenFail = op, modeErr, false
		for _, p := range s.run(stmts) {
			if p.observed[op] && !p.abort && !visit(p) {
				return false
			}
		}
	}
	return true
}

// combinedWait is what a set of waits waits: one growth (else unknown),
// random if any is.
func (w *walker) combinedWait(waits []ast.Node, fs *fnScope) *WaitFact {
	var wf *WaitFact
	for _, n := range waits {
		wt := w.classifyWait(n)
		if wt == nil {
			return nil
		}
		if wf == nil {
			wf = &WaitFact{Param: -1, Growth: wt.Growth, Cancellable: wt.Cancellable}
		} else if wf.Growth != wt.Growth {
			wf.Growth = GrowthUnknown
		}
		wf.Jitter = wf.Jitter || wt.Jitter
		wf.StopFrom |= w.stopFrom(wt, fs)
	}
	return wf
}

// stopFrom says where the stops a cancellable wait is raced against come
// from (see StopFrom); zero for a wait that is not cancellable.
func (w *walker) stopFrom(wt *Wait, fs *fnScope) StopFrom {
	if !wt.Cancellable {
		return 0
	}
	if len(wt.StopOn) == 0 {
		return StopUnknown // budget.Sleep, a wait helper's fact
	}
	var from StopFrom
	for _, x := range wt.StopOn {
		from |= w.stopRoot(x, fs)
	}
	return from
}

// stopRoot follows a received expression (s.ctx.Done(), stop, s.done())
// back through method calls to the variable it starts from (rootIdent),
// and says what that variable is. A package's function handed nothing
// (quit(), signals.Stopped()) gives the package's own.
func (w *walker) stopRoot(x ast.Expr, fs *fnScope) StopFrom {
	for {
		c, ok := ast.Unparen(x).(*ast.CallExpr)
		if !ok {
			break
		}
		fn := astq.Callee(w.info, c)
		if fn == nil {
			return StopUnknown // a function value
		}
		if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() == nil {
			if len(c.Args) == 0 {
				return StopOwn
			}
			return StopUnknown
		}
		sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
		if !ok {
			return StopUnknown
		}
		x = sel.X
	}
	if sel, ok := ast.Unparen(x).(*ast.SelectorExpr); ok && isPkgName(w.info, sel.X) {
		return w.varRoot(w.info.Uses[sel.Sel], fs) // another package's variable
	}
	if id := rootIdent(x); id != nil {
		return w.varRoot(w.info.Uses[id], fs)
	}
	return StopUnknown
}

// varRoot says what kind of variable obj is for stopRoot.
func (w *walker) varRoot(obj types.Object, fs *fnScope) StopFrom {
	v, ok := obj.(*types.Var)
	if !ok || v.Pkg() == nil {
		return StopUnknown
	}
	if v.Parent() == v.Pkg().Scope() {
		return StopOwn
	}
	if fd, ok := fs.node.(*ast.FuncDecl); ok && fd.Recv != nil {
		for _, f := range fd.Recv.List {
			for _, n := range f.Names {
				if w.info.Defs[n] == v {
					return StopRecv
				}
			}
		}
	}
	if w.paramIndex(v, fs.typ) >= 0 {
		return StopParam
	}
	return StopUnknown
}

// isPkgName reports whether x names an imported package.
func isPkgName(info *types.Info, x ast.Expr) bool {
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok {
		return false
	}
	_, ok = info.Uses[id].(*types.PkgName)
	return ok
}

// MayHoldStop reports whether a value of type t can hold a context or a
// channel a wait could be raced against (see mayHoldStop).
func MayHoldStop(t types.Type) bool { return mayHoldStop(t, false, map[types.Type]bool{}) }

// mayHoldStop reports whether a value of type t can hold a context or a
// channel a wait could be raced against: a context, a channel of anything
// but time.Time, or a struct, pointer or container holding one; an
// interface or a type parameter may hold anything, except the standard
// library's interfaces (an io.Writer, a rand.Source), and a function may
// hand one back when its results can hold one. Inside the standard
// library only a context counts (an http.Request's).
func mayHoldStop(t types.Type, inStd bool, seen map[types.Type]bool) bool {
	if isContextType(t) {
		return true
	}
	if seen[t] {
		return false
	}
	seen[t] = true
	if n, ok := t.(*types.Named); ok && n.Obj().Pkg() != nil {
		inStd = isStd(n.Obj().Pkg().Path())
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return false
	case *types.Chan:
		// The standard library's own channels (a sql.DB's, a timer's)
		// are its machinery, never a caller's stop.
		return !inStd && !astq.IsNamed(u.Elem(), "time", "Time")
	case *types.Pointer:
		return mayHoldStop(u.Elem(), inStd, seen)
	case *types.Slice:
		return mayHoldStop(u.Elem(), inStd, seen)
	case *types.Array:
		return mayHoldStop(u.Elem(), inStd, seen)
	case *types.Map:
		return mayHoldStop(u.Key(), inStd, seen) || mayHoldStop(u.Elem(), inStd, seen)
	case *types.Struct:
		for f := range u.Fields() {
			if mayHoldStop(f.Type(), inStd, seen) {
				return true
			}
		}
		return false
	case *types.Interface:
		return !inStd && t != types.Universe.Lookup("error").Type()
	case *types.Signature:
		for r := range u.Results().Variables() {
			if mayHoldStop(r.Type(), inStd, seen) {
				return true
			}
		}
		return false
	}
	return true // a type parameter: anything
}

// waitsThenReturns reports whether a block of the body (not of its
// literals) ends in a wait and a return: time.Sleep(d); return, or a
// select on a timer before it. A cheap test, before any walk.
func (w *walker) waitsThenReturns(body ast.Node) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BlockStmt:
			k := len(n.List)
			if k < 2 {
				break
			}
			if r, ok := n.List[k-1].(*ast.ReturnStmt); !ok || len(r.Results) > 0 {
				break
			}
			// The wait, then plain statements (failures++), then return.
			for j := k - 2; j >= 0 && !found; j-- {
				if w.plainWait(n.List[j]) {
					found = true
				} else if !isPlainStmt(n.List[j]) {
					break
				}
			}
		}
		return !found
	})
	return found
}

func isPlainStmt(st ast.Stmt) bool {
	switch st.(type) {
	case *ast.AssignStmt, *ast.IncDecStmt, *ast.ExprStmt:
		return true
	}
	return false
}

// plainWait reports whether st is a sleep or a select or receive on a
// timer: time.Sleep, budget.Sleep, <-time.After(d), select { case
// <-time.After(d): ... }.
func (w *walker) plainWait(st ast.Stmt) bool {
	switch st := st.(type) {
	case *ast.ExprStmt:
		switch x := ast.Unparen(st.X).(type) {
		case *ast.CallExpr:
			return astq.IsFunc(astq.Callee(w.info, x), "time.Sleep", BudgetPath+".Sleep")
		case *ast.UnaryExpr:
			return x.Op == token.ARROW && w.isWaitRecv(x.X)
		}
	case *ast.SelectStmt:
		for _, cc := range st.Body.List {
			if u := commRecv(cc.(*ast.CommClause).Comm); u != nil && w.isWaitRecv(u.X) {
				return true
			}
		}
	}
	return false
}
