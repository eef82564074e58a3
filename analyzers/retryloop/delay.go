package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// isWaitCall reports whether call waits: time.Sleep, budget.Sleep, or a
// function known (by fact) to wait.
func (w *walker) isWaitCall(call *ast.CallExpr) bool {
	fn := callee(w.info, call)
	if fn == nil || isInterfaceMethod(fn) {
		return fn == nil && w.sleepVar(call) || w.opaqueWait(call)
	}
	if isFunc(fn, "time.Sleep", BudgetPath+".Sleep") {
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
	vals, ok := w.valuesOf(v, w.packageFiles()...)
	sleeps, others := 0, 0
	for _, e := range vals {
		if e == nil {
			continue // a declaration without a value: nil until set
		}
		if fn, isFn := w.usedObj(e).(*types.Func); isFn && isFunc(fn, "time.Sleep") {
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
// time.After(d), time.Tick(d), t.C of a Timer or Ticker.
func (w *walker) isWaitRecv(x ast.Expr) bool {
	x = ast.Unparen(x)
	if c, ok := x.(*ast.CallExpr); ok {
		return isFunc(callee(w.info, c), "time.After", "time.Tick")
	}
	if sel, ok := x.(*ast.SelectorExpr); ok && sel.Sel.Name == "C" {
		t := w.info.TypeOf(sel.X)
		return t != nil && (isNamed(t, "time", "Timer") || isNamed(t, "time", "Ticker"))
	}
	_, ok := w.afterVar(x)
	return ok
}

// afterVar reports whether x is a local channel variable that only ever
// holds time.After(d) or nil (retryCh = time.After(lockRetry); ...;
// case <-retryCh:), and returns the one delay if there is one.
func (w *walker) afterVar(x ast.Expr) (ast.Expr, bool) {
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok || w.cur == nil {
		return nil, false
	}
	v, ok := w.info.Uses[id].(*types.Var)
	if !ok || v.Pkg() != w.pass.Pkg || v.Parent() == nil || v.Parent() == w.pass.Pkg.Scope() {
		return nil, false
	}
	if _, ok := v.Type().Underlying().(*types.Chan); !ok {
		return nil, false
	}
	vals, ok := w.valuesOf(v, w.cur.body)
	var delays []ast.Expr
	other := !ok
	for _, r := range vals {
		if r == nil || isNil(ast.Unparen(r)) {
			continue
		}
		if c, isCall := ast.Unparen(r).(*ast.CallExpr); isCall && isFunc(callee(w.info, c), "time.After") && len(c.Args) == 1 {
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
	fn := callee(w.info, call)
	if fn == nil {
		return false
	}
	// context.Context's own method, also promoted through a struct that
	// embeds it (caddy.Context).
	if isFunc(fn, "context.Context.Err", BudgetPath+".Sleep") {
		return true
	}
	if f := w.factOf(fn); f != nil && f.Wait != nil && f.Wait.Cancellable {
		return true
	}
	return false
}

// isConsultRecv reports whether receiving from x consults a context or stop channel.
func (w *walker) isConsultRecv(x ast.Expr) bool {
	x = ast.Unparen(x)
	if c, ok := x.(*ast.CallExpr); ok {
		return isFunc(callee(w.info, c), "context.Context.Done")
	}
	t := w.info.TypeOf(x)
	return t != nil && isStopChan(t)
}

// classifyWait describes one wait node found on a retry path.
func (w *walker) classifyWait(n ast.Node) *Wait {
	switch n := n.(type) {
	case *ast.CallExpr:
		fn := callee(w.info, n)
		switch {
		case isFunc(fn, "time.Sleep") || fn == nil && w.sleepVar(n):
			wt := &Wait{Kind: WaitSleep, Node: n, Call: n}
			if len(n.Args) == 1 {
				wt.Delay = n.Args[0]
			}
			w.judgeDelay(wt)
			return wt
		case isFunc(fn, BudgetPath+".Sleep"):
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
			comm := c.(*ast.CommClause)
			var x ast.Expr
			switch st := comm.Comm.(type) {
			case *ast.ExprStmt:
				x = st.X
			case *ast.AssignStmt:
				if len(st.Rhs) == 1 {
					x = st.Rhs[0]
				}
			}
			u, ok := ast.Unparen(x).(*ast.UnaryExpr)
			if !ok || u.Op != token.ARROW {
				continue
			}
			if w.isWaitRecv(u.X) {
				w.timerDelay(u.X, wt)
			} else {
				wt.Cancellable = true
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
		if fn := callee(w.info, c); fn != nil {
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
	if c, ok := x.(*ast.CallExpr); ok {
		wt.Call = c
		if isFunc(callee(w.info, c), "time.Tick") {
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
	sel, ok := x.(*ast.SelectorExpr)
	if !ok {
		return
	}
	if isNamed(w.info.TypeOf(sel.X), "time", "Ticker") {
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
				if w.isVar(l, v) && len(n.Rhs) == len(n.Lhs) {
					t.defs++
					if c, ok := ast.Unparen(n.Rhs[i]).(*ast.CallExpr); ok && isFunc(callee(w.info, c), "time.NewTimer") && len(c.Args) == 1 {
						t.arg = c.Args[0]
					}
				}
			}
		case *ast.CallExpr:
			if s, ok := n.Fun.(*ast.SelectorExpr); ok && s.Sel.Name == "Reset" && w.isVar(s.X, v) {
				t.resets++
				if len(n.Args) == 1 {
					t.resetArg = n.Args[0]
				}
			}
		}
		return true
	})
	return t
}

// judgeDelay decides how a wait's delay evolves and whether it is random.
func (w *walker) judgeDelay(wt *Wait) {
	if wt.Delay == nil {
		wt.Growth = GrowthUnknown
		return
	}
	j := w.delayOf(wt.Delay, 0, map[types.Object]bool{})
	wt.Growth, wt.Jitter = j.growth, j.jitter
	if j.related.IsValid() {
		wt.Related = append(wt.Related, j.related)
	}
}

type judged struct {
	growth  Growth
	jitter  bool
	related token.Pos
	// value: the growth is unknown (a config field, a package variable),
	// but the value is plain, not random: as a cap or a base it leaves
	// the growth of the rest of the expression as it is.
	value bool
}

// pkgVarValue returns the initializer of an unexported package variable
// of this package that no other statement of its non-test files sets.
func (w *walker) pkgVarValue(v *types.Var) ast.Expr {
	if v.Pkg() != w.pass.Pkg || v.Exported() {
		return nil
	}
	if init, ok := w.pkgVarInit[v]; ok {
		return init
	}
	var files []ast.Node
	for _, f := range w.pass.Files {
		if !strings.HasSuffix(w.pass.Fset.File(f.Pos()).Name(), "_test.go") {
			files = append(files, f)
		}
	}
	vals, ok := w.valuesOf(v, files...)
	var init ast.Expr
	if ok && len(vals) == 1 {
		init = vals[0]
	}
	if w.pkgVarInit == nil {
		w.pkgVarInit = map[*types.Var]ast.Expr{}
	}
	w.pkgVarInit[v] = init
	return init
}

// isNumber reports whether t is a number (time.Duration, model.Duration,
// int64 seconds): a value, not a function that could draw one.
func isNumber(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsNumeric != 0
}

// plain reports whether j is a known-fixed or a plain value.
func (j judged) plain() bool {
	return !j.jitter && (j.growth == GrowthFixed || j.growth == GrowthUnknown && j.value)
}

// delayOf judges a duration expression inside the site's function.
func (w *walker) delayOf(e ast.Expr, depth int, seen map[types.Object]bool) judged {
	if depth > 8 {
		return judged{growth: GrowthUnknown}
	}
	e = ast.Unparen(e)
	if tv, ok := w.info.Types[e]; ok && tv.Value != nil {
		return judged{growth: GrowthFixed}
	}
	switch e := e.(type) {
	case *ast.Ident:
		obj := w.info.Uses[e]
		v, ok := obj.(*types.Var)
		if !ok {
			return judged{growth: GrowthUnknown}
		}
		if v.Parent() == v.Pkg().Scope() {
			// A package variable: its initializer when nothing else in
			// the package's own files sets it (var lockRetry = 10 *
			// time.Second, tuned only by tests); otherwise a value.
			if init := w.pkgVarValue(v); init != nil {
				return w.delayOf(init, depth+1, seen)
			}
			return judged{growth: GrowthUnknown, value: isNumber(v.Type())}
		}
		if seen[v] {
			return judged{growth: GrowthGrowing}
		}
		seen[v] = true
		return w.varDelay(v, depth, seen)
	case *ast.BinaryExpr:
		return w.binaryDelay(e, depth, seen)
	case *ast.CallExpr:
		return w.callDelay(e, depth, seen)
	case *ast.SelectorExpr:
		// A config field: its value cannot be seen, but it is a value.
		if sel := w.info.Selections[e]; sel != nil && sel.Kind() == types.FieldVal {
			return judged{growth: GrowthUnknown, value: isNumber(sel.Type())}
		}
	}
	return judged{growth: GrowthUnknown}
}

// merge adds the judgement of one part of an expression to res: a
// growing part capped or scaled by a plain value grows (min(d*2,
// cfg.Max), cfg.Base<<n).
func (res *judged) merge(j judged) { res.join(j, judged.plain) }

// alt adds the judgement of an alternative value (another definition of
// the variable, another return): a delay that grows on one path grows,
// whatever a plain value or the server gives on another (sleep =
// backoff; if retryAfter > 0 { sleep = retryAfter }).
func (res *judged) alt(j judged) {
	res.join(j, func(x judged) bool { return x.plain() || x.growth == GrowthServer })
}

// join combines res and j; beside is what may stand beside a growing
// value without hiding its growth.
func (res *judged) join(j judged, beside func(judged) bool) {
	g := combine(res.growth, j.growth)
	if res.growth == GrowthGrowing && beside(j) || j.growth == GrowthGrowing && beside(*res) {
		g = GrowthGrowing
	}
	res.value = res.plain() && j.plain() && g == GrowthUnknown
	res.jitter = res.jitter || j.jitter
	if j.related.IsValid() && !res.related.IsValid() {
		res.related = j.related
	}
	res.growth = g
}

// argsDelay judges an expression made of its arguments (min, max, math).
func (w *walker) argsDelay(args []ast.Expr, depth int, seen map[types.Object]bool) judged {
	res := judged{growth: GrowthFixed}
	for _, a := range args {
		res.merge(w.delayOf(a, depth+1, seen))
	}
	return res
}

// binaryDelay judges x op y: a shift by the loop variable, or a product
// or shift of a growing part, grows.
func (w *walker) binaryDelay(e *ast.BinaryExpr, depth int, seen map[types.Object]bool) judged {
	res := judged{growth: GrowthFixed}
	x := w.delayOf(e.X, depth+1, seen)
	y := w.delayOf(e.Y, depth+1, seen)
	res.merge(x)
	res.merge(y)
	if e.Op == token.SHL && w.loopVarish(e.Y) && (x.plain() || x.growth == GrowthGrowing) {
		res.growth = GrowthGrowing // base << attempt: the shift is the growth
		res.value = false
	}
	if (e.Op == token.MUL || e.Op == token.SHL) && (x.growth == GrowthGrowing || y.growth == GrowthGrowing) {
		res.growth = combine(res.growth, GrowthGrowing)
	}
	return res
}

// callDelay judges a call: a conversion (time.Duration(x)), min or max,
// or a function call.
func (w *walker) callDelay(e *ast.CallExpr, depth int, seen map[types.Object]bool) judged {
	if tv, ok := w.info.Types[e.Fun]; ok && tv.IsType() && len(e.Args) == 1 {
		return w.delayOf(e.Args[0], depth+1, seen)
	}
	if id, ok := ast.Unparen(e.Fun).(*ast.Ident); ok {
		if b, ok := w.info.Uses[id].(*types.Builtin); ok && (b.Name() == "min" || b.Name() == "max") {
			return w.argsDelay(e.Args, depth, seen)
		}
	}
	fn := callee(w.info, e)
	if fn == nil {
		return judged{growth: GrowthUnknown}
	}
	if w.drawsRandom(fn) {
		return judged{growth: GrowthUnknown, jitter: true}
	}
	if isFunc(fn, "math.Pow", "math.Exp2", "math.Ldexp") {
		res := w.argsDelay(e.Args, depth, seen)
		res.growth = GrowthGrowing
		return res
	}
	if w.readsRetryAfter(e) {
		return judged{growth: GrowthServer}
	}
	switch pkgPath(fn) {
	case "math":
		return w.argsDelay(e.Args, depth, seen)
	case "time":
		return w.timeFuncDelay(e, fn, depth, seen)
	}
	return w.delayFuncDelay(e, fn)
}

// timeFuncDelay judges a call of package time: a Duration's conversion
// to a number is the duration; a time computed from a clock is the
// server's (a deadline, a Retry-After date).
func (w *walker) timeFuncDelay(e *ast.CallExpr, fn *types.Func, depth int, seen map[types.Object]bool) judged {
	if isFunc(fn, "time.Duration.Seconds", "time.Duration.Milliseconds", "time.Duration.Nanoseconds", "time.Duration.Microseconds", "time.Duration.Minutes") {
		if sel, ok := e.Fun.(*ast.SelectorExpr); ok {
			return w.delayOf(sel.X, depth+1, seen)
		}
	}
	if isFunc(fn, "time.Until", "time.Since", "time.Time.Sub") {
		return judged{growth: GrowthServer}
	}
	return judged{growth: GrowthUnknown}
}

// delayFuncDelay judges a call of a function whose fact says it computes
// a delay; a delay function of the attempt number grows when its result
// depends on it.
func (w *walker) delayFuncDelay(e *ast.CallExpr, fn *types.Func) judged {
	f := w.factOf(fn)
	if f == nil || f.Delay == nil {
		return judged{growth: GrowthUnknown}
	}
	j := judged{growth: f.Delay.Growth, jitter: f.Delay.Jitter, value: f.Delay.Value, related: fn.Pos()}
	if j.jitter && f.Delay.JitterIf > 0 && w.leavesFieldUnset(e, f.Delay.JitterIf-1) {
		j.jitter = false // boff := &Backoff{Max: d}: Jitter unset, no draw
	}
	if j.growth == GrowthFixed && f.Delay.UsesParam {
		for _, a := range e.Args {
			if w.loopVarish(a) {
				j.growth = GrowthGrowing
			}
		}
	}
	return j
}

// leavesFieldUnset reports whether the receiver of the method call e is a
// local variable the function builds once from a composite literal that
// leaves field i unset (or zero), and never sets it otherwise.
func (w *walker) leavesFieldUnset(e *ast.CallExpr, i int) bool {
	sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr)
	if !ok || w.cur == nil {
		return false
	}
	v, ok := w.usedObj(sel.X).(*types.Var)
	if !ok || v.Parent() == nil || v.Parent() == v.Pkg().Scope() {
		return false
	}
	vals, ok := w.valuesOf(v, w.cur.body)
	if !ok || len(vals) != 1 || vals[0] == nil {
		return false
	}
	x := ast.Unparen(vals[0])
	if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.AND {
		x = ast.Unparen(u.X)
	}
	lit, ok := x.(*ast.CompositeLit)
	if !ok {
		return false
	}
	st, ok := derefStruct(w.info.TypeOf(lit))
	if !ok || i >= st.NumFields() {
		return false
	}
	field := st.Field(i)
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			return false // positional: every field is set
		}
		if id, ok := kv.Key.(*ast.Ident); ok && w.info.Uses[id] == field {
			if n, ok := w.intConst(kv.Value); !ok || n != 0 {
				return false
			}
		}
	}
	// Nothing else sets the field or hands the value on.
	set := false
	ast.Inspect(w.cur.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if s, ok := ast.Unparen(l).(*ast.SelectorExpr); ok && w.usedObj(s.X) == v && w.info.Uses[s.Sel] == field {
					set = true
				}
			}
		case *ast.CallExpr:
			for _, a := range n.Args {
				if w.usedObj(a) == v {
					set = true
				}
			}
		}
		return !set
	})
	return !set
}

// combine merges the growth of two parts of one expression.
func combine(a, b Growth) Growth {
	switch {
	case a == GrowthServer || b == GrowthServer:
		return GrowthServer
	case a == GrowthUnknown || b == GrowthUnknown:
		return GrowthUnknown
	case a == GrowthGrowing || b == GrowthGrowing:
		return GrowthGrowing
	}
	return GrowthFixed
}

// varDelay judges a local variable used as a delay: from its definitions
// in the function and whether the loop grows it.
func (w *walker) varDelay(v *types.Var, depth int, seen map[types.Object]bool) judged {
	fn := w.cur
	if fn == nil || v.Parent() == nil || v.Pkg() != w.pass.Pkg || v.Parent() == w.pass.Pkg.Scope() {
		return judged{growth: GrowthUnknown}
	}
	if w.isParamVar(v) {
		return w.paramDelay(v, depth, seen)
	}
	for _, l := range w.curLoops() {
		if w.isLoopKey(v, l) {
			return judged{growth: GrowthGrowing}
		}
		if x := scheduleOf(w.info, v, l); x != nil {
			return w.scheduleDelay(x, depth, seen)
		}
	}
	vd := &varDefs{w: w, v: v, depth: depth, seen: seen, res: judged{growth: GrowthFixed}}
	ast.Inspect(fn.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			vd.assign(n)
		case *ast.ValueSpec:
			vd.valueSpec(n)
		case *ast.IncDecStmt:
			if w.isVar(n.X, v) {
				vd.grows = true
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND && w.isVar(n.X, v) {
				vd.res.growth = GrowthUnknown // address taken
			}
		}
		return true
	})
	if vd.defs == 0 {
		return judged{growth: GrowthUnknown}
	}
	res := vd.res
	if vd.grows && res.growth != GrowthServer && res.growth != GrowthUnknown {
		res.growth = GrowthGrowing
	} else if vd.grows && res.growth == GrowthUnknown && !res.jitter {
		res.growth = GrowthGrowing
	}
	return res
}

// paramDelay judges a parameter used as a delay: the caller's value is
// unknown, unless the function grows it; randomness assigned to it is
// jitter either way (d *= 2; d = time.Duration(float64(d) *
// (rand.Float64() + 0.5))).
func (w *walker) paramDelay(v *types.Var, depth int, seen map[types.Object]bool) judged {
	var res judged
	grows := false
	ast.Inspect(w.cur.body, func(n ast.Node) bool {
		if n, ok := n.(*ast.AssignStmt); ok {
			for i, l := range n.Lhs {
				if !w.isVar(l, v) {
					continue
				}
				if growsBy(n.Tok) {
					grows = true
				}
				if len(n.Lhs) == len(n.Rhs) {
					j := w.delayOf(n.Rhs[i], depth+1, seen)
					res.jitter = res.jitter || j.jitter
				}
			}
		}
		return true
	})
	res.growth = GrowthUnknown
	if grows {
		res.growth = GrowthGrowing
	}
	return res
}

// growsBy reports whether an assignment operator grows a delay (d *= 2,
// d <<= 1, d += step).
func growsBy(tok token.Token) bool {
	return tok == token.MUL_ASSIGN || tok == token.SHL_ASSIGN || tok == token.ADD_ASSIGN
}

// varDefs gathers what the definitions of a local delay variable say.
type varDefs struct {
	w     *walker
	v     *types.Var
	depth int
	seen  map[types.Object]bool
	res   judged
	defs  int
	grows bool
}

func (vd *varDefs) assign(n *ast.AssignStmt) {
	w := vd.w
	for i, l := range n.Lhs {
		if !w.isVar(l, vd.v) {
			continue
		}
		vd.defs++
		if n.Tok == token.ADD_ASSIGN && len(n.Lhs) == len(n.Rhs) {
			// d += rand.N(j): a draw added to the value already there is
			// jitter on it, not a growth and not another value of it.
			if j := w.delayOf(n.Rhs[i], vd.depth+1, vd.seen); j.jitter && j.growth == GrowthUnknown {
				vd.defs--
				vd.res.jitter = true
				continue
			}
		}
		if growsBy(n.Tok) {
			vd.grows = true
		}
		if len(n.Lhs) != len(n.Rhs) {
			// delay, ok := nextDelay(attempt): the function's delay result.
			if j, ok := w.tupleDelay(n, i, vd.depth, vd.seen); ok {
				vd.add(n, j)
			} else {
				vd.res.growth = GrowthUnknown
			}
			continue
		}
		r := n.Rhs[i]
		if n.Tok == token.ASSIGN && refersTo(w.info, r, vd.v) {
			vd.grows = true
		}
		vd.add(n, w.delayOf(r, vd.depth+1, vd.seen))
	}
}

// add records one definition's value.
func (vd *varDefs) add(n ast.Node, j judged) {
	if j.growth == GrowthGrowing && vd.w.inLoop(n) {
		vd.grows = true
	}
	if vd.defs == 1 {
		rel := vd.res.related
		vd.res = j
		if !j.related.IsValid() {
			vd.res.related = rel
		}
		return
	}
	vd.res.alt(j)
}

// tupleDelay judges the i-th variable of v, ok := f(...) when f's fact
// says that result is the delay it computes.
func (w *walker) tupleDelay(n *ast.AssignStmt, i, depth int, seen map[types.Object]bool) (judged, bool) {
	if len(n.Rhs) != 1 {
		return judged{}, false
	}
	call, ok := ast.Unparen(n.Rhs[0]).(*ast.CallExpr)
	if !ok {
		return judged{}, false
	}
	fn := callee(w.info, call)
	if fn == nil {
		return judged{}, false
	}
	if f := w.factOf(fn); f != nil && f.Delay != nil && f.Delay.Result == i {
		return w.delayOf(call, depth+1, seen), true
	}
	return judged{}, false
}

func (vd *varDefs) valueSpec(n *ast.ValueSpec) {
	for i, name := range n.Names {
		if vd.w.info.Defs[name] == vd.v {
			vd.defs++
			if i < len(n.Values) {
				vd.add(n, vd.w.delayOf(n.Values[i], vd.depth+1, vd.seen))
			} else {
				vd.add(n, judged{growth: GrowthFixed}) // the zero value
			}
		}
	}
}

func refersTo(info *types.Info, e ast.Expr, v types.Object) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && info.Uses[id] == v {
			found = true
		}
		return !found
	})
	return found
}

// inLoop reports whether n lies inside a loop of the current function.
func (w *walker) inLoop(n ast.Node) bool {
	for _, l := range w.curLoops() {
		if l.Pos() <= n.Pos() && n.End() <= l.End() {
			return true
		}
	}
	return false
}

// loopVarish reports whether e mentions a variable a loop changes (an
// attempt counter).
func (w *walker) loopVarish(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if found {
			return false
		}
		if sel, ok := n.(*ast.SelectorExpr); ok && w.counterField(sel) {
			found = true // b.attempts, counted up by the method itself
			return false
		}
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		v, ok := w.info.Uses[id].(*types.Var)
		if !ok {
			return true
		}
		for _, l := range w.curLoops() {
			if w.modifiedIn(v, l) || w.isLoopKey(v, l) {
				found = true
			}
		}
		if w.cur != nil && w.isParamVar(v) {
			found = true // a helper's attempt parameter
		}
		return !found
	})
	return found
}

// scheduleOf returns the schedule a range loop takes v from, when v is
// the value of a range over durations (for _, d := range delays).
func scheduleOf(info *types.Info, v *types.Var, l ast.Node) ast.Expr {
	r, ok := l.(*ast.RangeStmt)
	if !ok || r.Value == nil {
		return nil
	}
	if id, ok := r.Value.(*ast.Ident); !ok || info.Defs[id] != v {
		return nil
	}
	if t := info.TypeOf(r.X); t == nil || !isSchedule(t) {
		return nil
	}
	return r.X
}

// scheduleDelay judges the delays of a schedule from the literal it is
// built from: the same constant throughout is fixed, constants that rise
// grow, and anything else (a schedule built elsewhere, values that fall
// back) is unknown.
func (w *walker) scheduleDelay(x ast.Expr, depth int, seen map[types.Object]bool) judged {
	lit, ok := ast.Unparen(x).(*ast.CompositeLit)
	if !ok {
		v, isVar := w.usedObj(x).(*types.Var)
		if !isVar {
			return judged{growth: GrowthUnknown}
		}
		var vals []ast.Expr
		if v.Parent() == v.Pkg().Scope() {
			if init := w.pkgVarValue(v); init != nil {
				vals = []ast.Expr{init}
			}
		} else if w.cur != nil {
			vals, ok = w.valuesOf(v, w.cur.body)
			if !ok {
				return judged{growth: GrowthUnknown}
			}
		}
		if len(vals) != 1 {
			return judged{growth: GrowthUnknown}
		}
		if lit, ok = ast.Unparen(vals[0]).(*ast.CompositeLit); !ok {
			return judged{growth: GrowthUnknown}
		}
	}
	var prev int64
	res := judged{growth: GrowthFixed}
	for i, el := range lit.Elts {
		if _, kv := el.(*ast.KeyValueExpr); kv {
			return judged{growth: GrowthUnknown}
		}
		n, isConst := w.intConst(el)
		if !isConst {
			j := w.delayOf(el, depth+1, seen)
			return judged{growth: GrowthUnknown, jitter: j.jitter}
		}
		switch {
		case i == 0 || n == prev:
		case n > prev:
			res.growth = GrowthGrowing
		default:
			return judged{growth: GrowthUnknown}
		}
		prev = n
	}
	if len(lit.Elts) == 0 {
		return judged{growth: GrowthUnknown}
	}
	return res
}

// counterField reports whether sel is a field of the method's receiver
// that the method counts up (b.attempts++): a backoff object's attempt
// number, which grows from one call to the next.
func (w *walker) counterField(sel *ast.SelectorExpr) bool {
	recv := w.receiverOf()
	if recv == nil || w.usedObj(sel.X) != recv {
		return false
	}
	field, ok := w.info.Uses[sel.Sel].(*types.Var)
	if !ok || !field.IsField() {
		return false
	}
	counted := false
	ast.Inspect(w.cur.body, func(n ast.Node) bool {
		var x ast.Expr
		switch n := n.(type) {
		case *ast.IncDecStmt:
			if n.Tok == token.INC {
				x = n.X
			}
		case *ast.AssignStmt:
			if n.Tok == token.ADD_ASSIGN && len(n.Lhs) == 1 {
				x = n.Lhs[0]
			}
		}
		if s, ok := x.(*ast.SelectorExpr); ok && w.usedObj(s.X) == recv && w.info.Uses[s.Sel] == field {
			counted = true
		}
		return !counted
	})
	return counted
}

// receiverOf returns the receiver variable of the current method, or nil.
func (w *walker) receiverOf() *types.Var {
	if w.cur == nil || w.cur.obj == nil {
		return nil
	}
	sig, ok := w.cur.obj.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return nil
	}
	fd, ok := w.cur.node.(*ast.FuncDecl)
	if !ok || fd.Recv == nil || len(fd.Recv.List) != 1 || len(fd.Recv.List[0].Names) != 1 {
		return nil
	}
	v, _ := w.info.Defs[fd.Recv.List[0].Names[0]].(*types.Var)
	return v
}

func (w *walker) isLoopKey(v *types.Var, l ast.Node) bool {
	if r, ok := l.(*ast.RangeStmt); ok {
		if id, ok := r.Key.(*ast.Ident); ok && w.info.Defs[id] == v {
			return true
		}
	}
	return false
}

func (w *walker) isParamVar(v *types.Var) bool {
	if w.cur == nil {
		return false
	}
	return w.isParam(v, w.cur.typ)
}

// readsRetryAfter reports whether a call reads a server-directed delay:
// Retry-After or a rate-limit reset header, directly or in a function of
// the package it calls.
func (w *walker) readsRetryAfter(call *ast.CallExpr) bool {
	found := false
	ast.Inspect(call, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		if fn := callee(w.info, c); fn != nil {
			if isFunc(fn, "net/http.Header.Get", "net/http.Header.Values") && len(c.Args) == 1 {
				if tv := w.info.Types[c.Args[0]]; tv.Value != nil {
					h := strings.ToLower(tv.Value.ExactString())
					if strings.Contains(h, "retry-after") || strings.Contains(h, "reset") {
						found = true
					}
				}
			}
			if f := w.factOf(fn); f != nil && f.Delay != nil && f.Delay.Growth == GrowthServer {
				found = true
			}
		}
		return !found
	})
	return found
}
