package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/retrylint/retrylint/analyzers/internal/astq"
)

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
	// settled: the growth already accounts for the parameters (a table
	// of delays indexed by the attempt): a fixed one stays fixed
	// whatever the caller passes.
	settled bool
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
	vals, ok := w.pkgValuesOf(v, false)
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

// constField reports whether f is an unexported numeric field of this
// package that its non-test files set only to constants (a struct
// literal without it leaves the zero constant): outside code cannot set
// it, so every value it holds is fixed.
func (w *walker) constField(f *types.Var) bool {
	if f.Pkg() != w.pass.Pkg || f.Exported() || !isNumber(f.Type()) {
		return false
	}
	if c, ok := w.constFields[f]; ok {
		return c
	}
	vals, ok := w.pkgValuesOf(f, false)
	c := ok && len(vals) > 0
	for _, v := range vals {
		if tv, known := w.info.Types[v]; v == nil || !known || tv.Value == nil {
			c = false
		}
	}
	if w.constFields == nil {
		w.constFields = map[*types.Var]bool{}
	}
	w.constFields[f] = c
	return c
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
	// depth is the model's horizon (a delay more than 8 steps from its
	// wait is unknown); the path, the guard against a delay defined by
	// itself through an expression the seen set does not record.
	if depth > 8 || !w.follows("delayOf", e) {
		return judged{growth: GrowthUnknown}
	}
	defer w.unfollows("delayOf", e)
	e = ast.Unparen(e)
	if tv, ok := w.info.Types[e]; ok && tv.Value != nil {
		return judged{growth: GrowthFixed, settled: true}
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
			// Set elsewhere too: every value the package gives it (a
			// wait helper growing it between calls).
			if init := w.pkgVarValue(v); init != nil {
				return w.delayOf(init, depth+1, seen)
			}
			if seen[v] {
				return judged{growth: GrowthGrowing} // defined by itself (d = d*2 + jitter)
			}
			if v.Pkg() == w.pass.Pkg {
				seen[v] = true
				if j := w.pkgVarDelay(v, depth, seen); j.growth != GrowthUnknown || j.jitter {
					return j
				}
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
	case *ast.IndexExpr:
		// A table of delays indexed by the attempt (backoffs[attempt]):
		// its constants say whether the delay grows.
		// The same index every time (backoffs[len(backoffs)-1]) picks
		// one of them: fixed.
		// A parameter is the attempt only in a helper without loops of
		// its own (steps[kind] in a retry loop is one delay).
		if t := w.info.TypeOf(e.X); t != nil && isTable(t) {
			j := w.scheduleDelay(e.X, depth, seen)
			if containsRandCall(w.info, e.Index) {
				return judged{growth: GrowthUnknown, jitter: true}
			}
			if !w.varies(e.Index, len(w.curLoops()) == 0) && j.growth != GrowthUnknown {
				j.growth = GrowthFixed
			}
			j.settled = j.growth != GrowthUnknown
			return j
		}
	case *ast.SelectorExpr:
		// A config field: its value cannot be seen, but it is a value;
		// an unexported field the package only ever sets to constants
		// is a fixed delay (retryTimeout: 5 * time.Second in its
		// constructor).
		if sel := w.info.Selections[e]; sel != nil && sel.Kind() == types.FieldVal {
			if f, ok := sel.Obj().(*types.Var); ok && w.constField(f) {
				return judged{growth: GrowthFixed}
			}
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
	res.settled = res.settled && j.settled
	if j.related.IsValid() && !res.related.IsValid() {
		res.related = j.related
	}
	res.growth = g
}

// argsDelay judges an expression made of its arguments (min, max, math).
func (w *walker) argsDelay(args []ast.Expr, depth int, seen map[types.Object]bool) judged {
	res := judged{growth: GrowthFixed, settled: true}
	for _, a := range args {
		res.merge(w.delayOf(a, depth+1, seen))
	}
	return res
}

// binaryDelay judges x op y: a shift by the loop variable, or a product
// or shift of a growing part, grows.
func (w *walker) binaryDelay(e *ast.BinaryExpr, depth int, seen map[types.Object]bool) judged {
	res := judged{growth: GrowthFixed, settled: true}
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
	fn := astq.Callee(w.info, e)
	if fn == nil {
		return judged{growth: GrowthUnknown}
	}
	if w.drawsRandom(fn) {
		return judged{growth: GrowthUnknown, jitter: true}
	}
	if astq.IsFunc(fn, "math.Pow", "math.Exp2", "math.Ldexp") {
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
	if astq.IsFunc(fn, "time.Duration.Seconds", "time.Duration.Milliseconds", "time.Duration.Nanoseconds", "time.Duration.Microseconds", "time.Duration.Minutes") {
		if sel, ok := e.Fun.(*ast.SelectorExpr); ok {
			return w.delayOf(sel.X, depth+1, seen)
		}
	}
	if astq.IsFunc(fn, "time.Until", "time.Since", "time.Time.Sub") {
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
	vd.inspect(fn.body)
	if vd.defs == 0 {
		return judged{growth: GrowthUnknown}
	}
	res := vd.res
	if vd.looped == 0 && !vd.grows && res.growth == GrowthGrowing && isNumber(v.Type()) && w.usedInLaterLoop(v) {
		// backoff := timeout / time.Duration(attemptsLeft+1), set once
		// before the loop: the same every round, though a counter is in
		// it.
		res.growth = GrowthUnknown
	}
	return vd.grown(res)
}

// grown is res for a variable its definitions grow (d *= 2, d++, d = d
// + step): growing, unless its value is the server's or an unknown
// jittered one.
func (vd *varDefs) grown(res judged) judged {
	if vd.grows && res.growth != GrowthServer && (res.growth != GrowthUnknown || !res.jitter) {
		res.growth = GrowthGrowing
	}
	return res
}

// pkgVarDelay judges a package variable used as a delay: an unexported
// number of this package, every value its non-test files give it (its
// declaration, the assignments of every function: a wait helper that
// grows it between calls, a success that resets it). Another package
// cannot set it; an exported one, or one whose address is taken, is
// unknown.
func (w *walker) pkgVarDelay(v *types.Var, depth int, seen map[types.Object]bool) judged {
	if v.Exported() || !isNumber(v.Type()) {
		return judged{growth: GrowthUnknown}
	}
	vd := &varDefs{w: w, v: v, depth: depth, seen: seen, res: judged{growth: GrowthFixed}}
	for _, f := range w.nonTestFiles() {
		vd.inspect(f)
	}
	if vd.defs == 0 || vd.addrTaken {
		return judged{growth: GrowthUnknown}
	}
	return vd.grown(vd.res)
}

// inspect records every definition of vd.v in n.
func (vd *varDefs) inspect(n ast.Node) {
	w, v := vd.w, vd.v
	ast.Inspect(n, func(n ast.Node) bool {
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
				vd.addrTaken = true
			}
		}
		return true
	})
}

// usedInLaterLoop reports whether a loop of the current function that
// starts after v is declared uses v.
func (w *walker) usedInLaterLoop(v *types.Var) bool {
	for _, l := range w.curLoops() {
		if l.Pos() > v.Pos() && astq.RefersTo(w.info, l, v) {
			return true
		}
	}
	return false
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
	// looped counts the definitions inside a loop of the function.
	looped int
	// addrTaken: &v is somewhere (flag.DurationVar(&v, ...)).
	addrTaken bool
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
		if n.Tok == token.ASSIGN && astq.RefersTo(w.info, r, vd.v) {
			vd.grows = true
		}
		vd.add(n, w.delayOf(r, vd.depth+1, vd.seen))
	}
}

// add records one definition's value.
func (vd *varDefs) add(n ast.Node, j judged) {
	if vd.w.inLoop(n) {
		vd.looped++
		if j.growth == GrowthGrowing {
			vd.grows = true
		}
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
	fn := astq.Callee(w.info, call)
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
func (w *walker) loopVarish(e ast.Expr) bool { return w.varies(e, true) }

// varies reports whether e mentions a variable a loop changes, or, with
// params, a parameter of the function (a helper's attempt number).
func (w *walker) varies(e ast.Expr, params bool) bool {
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
		if params && w.cur != nil && w.isParamVar(v) {
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
	res := judged{growth: GrowthFixed, settled: true}
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
		if fn := astq.Callee(w.info, c); fn != nil {
			if astq.IsFunc(fn, "net/http.Header.Get", "net/http.Header.Values") && len(c.Args) == 1 {
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

// nilFuncVar reports whether v is an unexported package-level function
// variable of this package that its non-test files declare without a
// value and never set: a test hook, nil in production (if f := testHook;
// f != nil && !f(err) { return } is never taken).
func (w *walker) nilFuncVar(v *types.Var) bool {
	if v.Pkg() != w.pass.Pkg || v.Exported() || v.Parent() != v.Pkg().Scope() || !isSignature(v.Type()) {
		return false
	}
	if w.pkgVarValue(v) != nil {
		return false
	}
	vals, ok := w.pkgValuesOf(v, false)
	return ok && len(vals) == 1 && vals[0] == nil
}

// nonTestFiles returns the package's files but its _test.go files.
func (w *walker) nonTestFiles() []ast.Node {
	var files []ast.Node
	for _, f := range w.pass.Files {
		if !w.isTestFile(f.Pos()) {
			files = append(files, f)
		}
	}
	return files
}

func isSignature(t types.Type) bool {
	_, ok := t.Underlying().(*types.Signature)
	return ok
}

// isTable reports whether t is a slice or array of numbers or durations.
func isTable(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Slice:
		return isNumber(u.Elem()) || isDurationType(u.Elem())
	case *types.Array:
		return isNumber(u.Elem()) || isDurationType(u.Elem())
	}
	return false
}
