package retryloop

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/retrylint/retrylint/analyzers/internal/astq"
	"golang.org/x/tools/go/types/typeutil"
)

// fnScope is a function being searched for retry sites.
type fnScope struct {
	node ast.Node // *ast.FuncDecl or *ast.FuncLit
	body *ast.BlockStmt
	typ  *ast.FuncType
	file *ast.File
	obj  *types.Func // for declarations
	// For a literal assigned to a variable declared before it (var f
	// func(); f = func() { ... f() }): the variable, its name.
	selfVar *types.Var
	// What one walk of the files saw in the body (functions): its calls
	// and their callees (nil for a function value), its literals'
	// included; whether it selects or receives anywhere; whether it
	// loops or has labels outside its literals.
	calls    []*ast.CallExpr
	callees  []*types.Func
	waitable bool
	loops    bool
}

// findSites finds the retry sites of one function (not of nested literals).
func (w *walker) findSites(fs *fnScope) []*Site {
	var sites []*Site
	if !fs.loops {
		if s := w.recursionSite(fs); s != nil {
			sites = append(sites, s)
		}
		return sites
	}
	var stack []ast.Node
	ast.Inspect(fs.body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		stack = append(stack, n)
		switch n := n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			if s := w.loopSite(fs, n.(ast.Stmt), labelOf(stack, w)); s != nil {
				s.After, s.Labeled = after(stack)
				sites = append(sites, s)
			}
		case *ast.LabeledStmt:
			if s := w.gotoSite(fs, n, stack); s != nil {
				sites = append(sites, s)
			}
		}
		return true
	})
	if s := w.recursionSite(fs); s != nil {
		sites = append(sites, s)
	}
	return sites
}

// after returns the statement that follows the innermost node of stack
// (a loop, or its labeled statement) in its statement list, or nil, and
// whether the loop is labeled.
func after(stack []ast.Node) (ast.Stmt, bool) {
	i := len(stack) - 1
	_, labeled := stack[max(i-1, 0)].(*ast.LabeledStmt)
	if labeled {
		i--
	}
	if i < 1 {
		return nil, labeled
	}
	list := astq.StmtList(stack[i-1])
	for j, st := range list {
		if st == stack[i] && j+1 < len(list) {
			return list[j+1], labeled
		}
	}
	return nil, labeled
}

func labelOf(stack []ast.Node, w *walker) *types.Label {
	if len(stack) >= 2 {
		if ls, ok := stack[len(stack)-2].(*ast.LabeledStmt); ok {
			l, _ := w.info.Defs[ls.Label].(*types.Label)
			return l
		}
	}
	return nil
}

// opsIn lists the candidate operations in n: calls with an error (or,
// for remote calls, a bool) last result, outside nested function literals.
func (w *walker) opsIn(n ast.Node) map[*ast.CallExpr]bool {
	ops := map[*ast.CallExpr]bool{}
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if w.isOp(n) {
				ops[n] = true
			}
		}
		return true
	})
	return ops
}

// keptOps lists the operations whose outcome is kept (assigned to a
// variable or tested in place), the only ones whose failure can be seen.
func keptOps(n ast.Node, ops map[*ast.CallExpr]bool) map[*ast.CallExpr]bool {
	kept := map[*ast.CallExpr]bool{}
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			if len(n.Rhs) == 1 {
				if c, ok := ast.Unparen(n.Rhs[0]).(*ast.CallExpr); ok && ops[c] {
					if id, ok := n.Lhs[len(n.Lhs)-1].(*ast.Ident); !ok || id.Name != "_" {
						kept[c] = true
					}
				}
			} else {
				for i, r := range n.Rhs {
					if c, ok := ast.Unparen(r).(*ast.CallExpr); ok && ops[c] && i < len(n.Lhs) {
						if id, ok := n.Lhs[i].(*ast.Ident); !ok || id.Name != "_" {
							kept[c] = true
						}
					}
				}
			}
		case *ast.ValueSpec:
			for _, v := range n.Values {
				if c, ok := ast.Unparen(v).(*ast.CallExpr); ok && ops[c] {
					kept[c] = true
				}
			}
		case *ast.BinaryExpr:
			for _, x := range []ast.Expr{n.X, n.Y} {
				if c, ok := ast.Unparen(x).(*ast.CallExpr); ok && ops[c] {
					kept[c] = true
				}
			}
		case *ast.IfStmt:
			if c, ok := ast.Unparen(n.Cond).(*ast.CallExpr); ok && ops[c] {
				kept[c] = true
			}
			if u, ok := ast.Unparen(n.Cond).(*ast.UnaryExpr); ok && u.Op == token.NOT {
				if c, ok := ast.Unparen(u.X).(*ast.CallExpr); ok && ops[c] {
					kept[c] = true
				}
			}
		}
		return true
	})
	return kept
}

// isTickRange reports whether a range loop takes its rounds from a
// ticker (for range ticker.C, for range time.Tick(d)): each round waits
// for the next tick, a wait at the loop head.
func (w *walker) isTickRange(l *ast.RangeStmt) bool {
	x := ast.Unparen(l.X)
	if c, ok := x.(*ast.CallExpr); ok && w.tickSourceCall(c) {
		return l.Value == nil // the key is the attempt number
	}
	if l.Key != nil || l.Value != nil {
		return false
	}
	if c, ok := x.(*ast.CallExpr); ok {
		return astq.IsFunc(astq.Callee(w.info, c), "time.Tick")
	}
	if sel, ok := x.(*ast.SelectorExpr); ok && sel.Sel.Name == "C" {
		t := w.info.TypeOf(sel.X)
		return t != nil && astq.IsNamed(t, "time", "Ticker")
	}
	return false
}

// tickSourceCall reports whether c calls a function that returns retry
// ticks (its fact says so).
func (w *walker) tickSourceCall(c *ast.CallExpr) bool {
	f := w.factOf(astq.Callee(w.info, c))
	return f != nil && f.Ticks
}

// isSchedule reports whether t is a slice or array of durations: ranging
// over it is a retry schedule (for _, d := range delays { ...;
// time.Sleep(d) }), bounded by its length, not a collection of targets.
func isSchedule(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Slice:
		return isDurationType(u.Elem())
	case *types.Array:
		return isDurationType(u.Elem())
	}
	return false
}

// localAttempts lists the calls of this package's own functions whose one
// result is a bool (if q.enqueue(x) { continue outer }): a local attempt
// that says whether it worked. Only a loop that backs off between them
// with a growing delay is a retry of one (backsOff); a bare re-check is a
// poll or a compare-and-swap.
func (w *walker) localAttempts(body *ast.BlockStmt) map[*ast.CallExpr]bool {
	ops := map[*ast.CallExpr]bool{}
	add := func(e ast.Expr) {
		if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.NOT {
			e = u.X
		}
		c, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok {
			return
		}
		if fn := astq.Callee(w.info, c); fn != nil && fn.Pkg() == w.pass.Pkg {
			if t := w.info.TypeOf(c); t != nil && isBool(t) {
				ops[c] = true
			}
		}
	}
	// Only what every round does: a check nested under another outcome
	// (if err != nil { if s.shuttingDown() { return } }) is a stop
	// condition, not the attempt.
	for _, st := range body.List {
		switch st := st.(type) {
		case *ast.IfStmt:
			add(st.Cond)
		case *ast.AssignStmt:
			if len(st.Lhs) == 1 && len(st.Rhs) == 1 {
				add(st.Rhs[0])
			}
		}
	}
	return ops
}

// backsOff reports whether every wait between the attempts of a site
// grows: an attempt retried with exponential backoff, not a poll.
func backsOff(site *Site) bool {
	if len(site.Waits) == 0 {
		return false
	}
	for _, wt := range site.Waits {
		if wt.Growth != GrowthGrowing {
			return false
		}
	}
	return true
}

// notOps are packages whose error results are not operations that fail transiently.
var notOps = map[string]bool{
	"fmt": true, "errors": true, "strconv": true, "strings": true, "bytes": true, "context": true,
	"time": true, "sync": true, "encoding/json": true, "encoding/xml": true, "encoding/base64": true,
	"encoding/hex": true, "net/url": true, "regexp": true, "path/filepath": true, "unicode/utf8": true,
	"math/big": true, "sort": true, "slices": true, "maps": true, "reflect": true,
}

func (w *walker) isOp(call *ast.CallExpr) bool {
	if w.swallows(call) || w.rearmedOnFail(call) != nil {
		return true // its failure is seen through its fact
	}
	t := w.info.TypeOf(call)
	if t == nil {
		return false
	}
	var last types.Type
	if tup, ok := t.(*types.Tuple); ok {
		if tup.Len() == 0 {
			return false
		}
		last = tup.At(tup.Len() - 1).Type()
	} else {
		last = t
	}
	fn := astq.Callee(w.info, call)
	if fn != nil && notOps[pkgPath(fn)] {
		return false
	}
	if fn != nil && pkgPath(fn) == BudgetPath {
		return false
	}
	// Accepting on your own listener is not a retry (SPEC): no shared
	// dependency is hit, whatever tempDelay the loop grows.
	if acceptsOwn(fn) {
		return false
	}
	if isErrorType(last) {
		return !errorChain(fn)
	}
	if (isBool(last) || errCarrier(last)) && fn != nil && w.isRemoteCall(call) {
		return true
	}
	return false
}

// errorChain reports whether fn reads an error chain: Unwrap() error, the
// protocol errors.Unwrap follows, or pkg/errors' Cause() error. What it
// returns is the wrapped error, a value, not an attempt's failure.
func errorChain(fn *types.Func) bool {
	if fn == nil || fn.Name() != "Unwrap" && fn.Name() != "Cause" {
		return false
	}
	sig, ok := fn.Type().(*types.Signature)
	return ok && sig.Recv() != nil && sig.Params().Len() == 0 && sig.Results().Len() == 1 && isErrorType(sig.Results().At(0).Type())
}

// acceptsOwn reports whether fn accepts a connection on a listener.
func acceptsOwn(fn *types.Func) bool {
	return astq.IsFunc(fn, "net.Listener.Accept", "net.TCPListener.Accept", "net.TCPListener.AcceptTCP",
		"net.UnixListener.Accept", "net.UnixListener.AcceptUnix") || listenerAccept(fn)
}

// listenerAccept reports whether fn is an Accept method of a listener of
// another package than net, known by its shape: its receiver also has
// Addr() net.Addr (quic-go's Listener.Accept(ctx), a TLS or mux listener).
func listenerAccept(fn *types.Func) bool {
	if fn == nil || !strings.HasPrefix(fn.Name(), "Accept") {
		return false
	}
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return false
	}
	ms := types.NewMethodSet(sig.Recv().Type())
	for i := range ms.Len() {
		m, ok := ms.At(i).Obj().(*types.Func)
		if !ok || m.Name() != "Addr" {
			continue
		}
		ms, ok := m.Type().(*types.Signature)
		return ok && ms.Params().Len() == 0 && ms.Results().Len() == 1 && astq.IsNamed(ms.Results().At(0).Type(), "net", "Addr")
	}
	return false
}

// loopSite classifies a for or range loop.
func (w *walker) loopSite(fs *fnScope, loop ast.Stmt, label *types.Label) *Site {
	var body *ast.BlockStmt
	var cond ast.Expr
	shape := ShapeBare
	bound := BoundNone
	var boundPos token.Pos
	var headWait ast.Node // for range ticker.C: every next round waits for a tick
	var source *ast.CallExpr
	switch l := loop.(type) {
	case *ast.ForStmt:
		body, cond = l.Body, l.Cond
		if v := w.counterCond(l.Cond, l); v != nil {
			shape, bound, boundPos = ShapeCounted, BoundCounter, l.Cond.Pos()
		}
	case *ast.RangeStmt:
		body = l.Body
		t := w.info.TypeOf(l.X)
		if t == nil {
			return nil
		}
		switch b, isBasic := t.Underlying().(*types.Basic); {
		case w.isTickRange(l):
			headWait = l
			if c, ok := ast.Unparen(l.X).(*ast.CallExpr); ok && w.tickSourceCall(c) {
				source = c // the source decides when the ticks end
			}
		case isBasic && b.Info()&types.IsInteger != 0, isSchedule(t):
			shape, bound, boundPos = ShapeCounted, BoundCounter, l.X.Pos()
		default:
			return nil // a collection, channel or iterator
		}
	}
	ops := w.opsIn(body)
	local := false
	if len(ops) == 0 {
		ops, local = w.localAttempts(body), true
	}
	if len(ops) == 0 || w.receivesWork(body, ops) {
		return nil
	}
	s := &sim{w: w, info: w.info, ops: ops, loop: loop, label: label, cond: cond, headWait: headWait}
	site := w.simulate(s, body.List)
	if site == nil {
		return nil
	}
	if local && !backsOff(site) {
		return nil
	}
	if w.isFailover(loop, body, site.Ops) || w.poolFailover(site, body) || w.readsOn(site.Ops) {
		return nil
	}
	site.Node, site.Pos, site.End = loop, loop.Pos(), body.Lbrace
	site.Func, site.File = fs.node, fs.file
	site.Jumps = w.jumps(body, label)
	site.Kept = w.kept(loop, body)
	if shape == ShapeBare && cond != nil && w.flagCond(cond) {
		shape = ShapeFlag
	}
	site.Shape = shape
	if bound == BoundNone && cond != nil && w.elapsedCheck(cond) {
		bound, boundPos = BoundElapsed, cond.Pos()
	}
	if bound == BoundNone {
		bound, boundPos = w.bodyBound(loop, body)
	}
	if bound == BoundNone && source != nil {
		bound, boundPos = BoundUnknown, source.Pos()
	}
	site.Bound, site.BoundPos = bound, boundPos
	if _, isFor := loop.(*ast.ForStmt); isFor || shape == ShapeCounted {
		site.Counter = w.counter(loop)
	}
	w.describe(site, fs, loop, body)
	return site
}

// kept lists the assignments in a loop body (outside function literals)
// to variables declared outside the loop that keep an error: an error
// variable, or one given a value made from an error (errs = append(errs,
// err), msg = err.Error()).
func (w *walker) kept(loop ast.Node, body *ast.BlockStmt) []Kept {
	var out []Kept
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			if n.Tok != token.ASSIGN {
				return true
			}
			for i, l := range n.Lhs {
				v, ok := w.usedObj(l).(*types.Var)
				if !ok || v.Pos() >= loop.Pos() && v.Pos() < loop.End() {
					continue
				}
				if isErrorType(v.Type()) || len(n.Rhs) == len(n.Lhs) && w.mentionsError(n.Rhs[i]) {
					out = append(out, Kept{Var: v, Pos: n.Pos()})
				}
			}
		}
		return true
	})
	return out
}

// jumps lists the branch statements of a loop body (outside function
// literals) with what each does to the loop labeled label (nil: none).
func (w *walker) jumps(body *ast.BlockStmt, label *types.Label) []Jump {
	var out []Jump
	var walk func(n ast.Node, inLoop, inSwitch bool)
	walk = func(n ast.Node, inLoop, inSwitch bool) {
		ast.Inspect(n, func(m ast.Node) bool {
			var body *ast.BlockStmt
			loop := false
			switch m := m.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ForStmt:
				body, loop = m.Body, true
			case *ast.RangeStmt:
				body, loop = m.Body, true
			case *ast.SwitchStmt:
				body = m.Body
			case *ast.TypeSwitchStmt:
				body = m.Body
			case *ast.SelectStmt:
				body = m.Body
			case *ast.BranchStmt:
				out = append(out, Jump{Stmt: m, Kind: w.jumpKind(m, label, inLoop, inSwitch)})
			}
			if body != nil {
				// break and continue inside it are its own (a switch or
				// select takes break only).
				walk(body, inLoop || loop, inSwitch || !loop)
				return false
			}
			return true
		})
	}
	walk(body, false, false)
	return out
}

// jumpKind is what the branch b, inside an inner loop or a switch or
// not, does to the loop labeled label.
func (w *walker) jumpKind(b *ast.BranchStmt, label *types.Label, inLoop, inSwitch bool) JumpKind {
	switch {
	case b.Tok == token.GOTO:
		return JumpGoto
	case b.Tok == token.FALLTHROUGH:
		return JumpOther
	case b.Label != nil:
		l, _ := w.info.Uses[b.Label].(*types.Label)
		switch {
		case l != nil && l == label && b.Tok == token.CONTINUE:
			return JumpNext
		case l != nil && l == label:
			return JumpLeave
		}
		return JumpOther // another loop's label: the code after this loop does not run
	case b.Tok == token.CONTINUE && !inLoop:
		return JumpNext
	case b.Tok == token.BREAK && !inLoop && !inSwitch:
		return JumpLeave
	}
	return JumpOther
}

// counter describes the counter of a counted loop, or of a for loop
// whose header counts (for i := 0; ; i++, the bound in the body): for i
// := 0; i < n; i++ and for [i :=] range n are plain when the body does
// not read i; any other counted form records its variable, and whether
// it steps.
func (w *walker) counter(loop ast.Stmt) *Counter {
	switch l := loop.(type) {
	case *ast.ForStmt:
		v := w.counterCond(l.Cond, l)
		if v == nil {
			v = w.headerCounter(l)
		}
		if v == nil {
			return nil
		}
		c := &Counter{Var: v, Steps: w.steps(l, v)}
		if limit, ok := w.upFromZero(l, v); ok {
			c.Limit, c.N = limit, w.intLimit(limit)
			c.Plain = !astq.RefersTo(w.info, l.Body, v)
		}
		return c
	case *ast.RangeStmt:
		if l.Value != nil {
			return nil
		}
		var v *types.Var
		if id, ok := l.Key.(*ast.Ident); ok {
			if v, ok = w.info.Defs[id].(*types.Var); !ok && id.Name != "_" {
				return nil // for i = range n: an outer variable
			}
		}
		if isSchedule(w.info.TypeOf(l.X)) {
			if v == nil {
				return nil
			}
			return &Counter{Var: v, Steps: true} // the index of the schedule's delays
		}
		c := &Counter{Var: v, Limit: l.X, N: w.intLimit(l.X), Plain: true, Steps: v != nil}
		if v != nil {
			c.Plain = !astq.RefersTo(w.info, l.Body, v)
		}
		return c
	}
	return nil
}

// headerCounter returns the variable a for loop's header counts (for
// v := …; …; v++ or v--), or nil.
func (w *walker) headerCounter(l *ast.ForStmt) *types.Var {
	init, ok := l.Init.(*ast.AssignStmt)
	if !ok || init.Tok != token.DEFINE || len(init.Lhs) != 1 || len(init.Rhs) != 1 {
		return nil
	}
	id, ok := init.Lhs[0].(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := w.info.Defs[id].(*types.Var)
	post, ok := l.Post.(*ast.IncDecStmt)
	if v == nil || !ok || !w.isVar(post.X, v) {
		return nil
	}
	return v
}

// steps reports whether the for loop's counter v starts at 0 (v := 0)
// and only the post statement changes it, by one (v++): v > 0 on every
// attempt but the first.
func (w *walker) steps(l *ast.ForStmt, v *types.Var) bool {
	return w.headerUpFromZero(l, v) && !w.modifiedIn(v, l.Body) && !w.addressTaken(v, l.Body)
}

// headerUpFromZero reports whether the for loop's header starts v at 0
// (v := 0) and counts it up by one (v++).
func (w *walker) headerUpFromZero(l *ast.ForStmt, v *types.Var) bool {
	init, ok := l.Init.(*ast.AssignStmt)
	if !ok || init.Tok != token.DEFINE || len(init.Lhs) != 1 || len(init.Rhs) != 1 || !w.isVar(init.Lhs[0], v) {
		return false
	}
	if n, ok := w.intConst(init.Rhs[0]); !ok || n != 0 {
		return false
	}
	post, ok := l.Post.(*ast.IncDecStmt)
	return ok && post.Tok == token.INC && w.isVar(post.X, v)
}

// addressTaken reports whether &v occurs in n.
func (w *walker) addressTaken(v *types.Var, n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if u, ok := n.(*ast.UnaryExpr); ok && u.Op == token.AND && w.isVar(ast.Unparen(u.X), v) {
			found = true
		}
		return !found
	})
	return found
}

// upFromZero matches for v := 0; v < limit; v++ and returns limit.
func (w *walker) upFromZero(l *ast.ForStmt, v *types.Var) (ast.Expr, bool) {
	cond, ok := ast.Unparen(l.Cond).(*ast.BinaryExpr)
	if !ok || cond.Op != token.LSS || !w.isVar(cond.X, v) || !w.headerUpFromZero(l, v) {
		return nil, false
	}
	return cond.Y, true
}

// intLimit is e's value when it is an integer constant, else 0.
func (w *walker) intLimit(e ast.Expr) int64 {
	if tv := w.info.Types[e]; tv.Value == nil || tv.Value.Kind() != constant.Int {
		return 0
	}
	n, _ := w.intConst(e)
	return n
}

// counterCond returns the counter variable compared in a loop condition
// (i < n, attempt <= max, retries > 0) that the loop changes.
func (w *walker) counterCond(cond ast.Expr, loop ast.Node) *types.Var {
	if cond == nil {
		return nil
	}
	var found *types.Var
	ast.Inspect(cond, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && found == nil {
			// last := attempt >= max; …; if last || !retry { break }
			if def := w.boolDef(id, loop); def != nil {
				found = w.counterCond(def, loop)
			}
			return false
		}
		b, ok := n.(*ast.BinaryExpr)
		if !ok || found != nil {
			return found == nil
		}
		switch b.Op {
		case token.LSS, token.LEQ, token.GTR, token.GEQ, token.NEQ, token.EQL: // if attempt == max { return }
		default:
			return true
		}
		for _, side := range []ast.Expr{b.X, b.Y} {
			// A variable a call gives afresh each round (wait, err :=
			// policy.Retry(…); if wait < 0) counts nothing.
			if v := w.intVar(side); v != nil && w.modifiedIn(v, loop) && !w.freshFromCall(v, loop) {
				found = v
				return false
			}
		}
		return true
	})
	return found
}

// boolDef returns the comparison a bool variable of the loop's body is
// defined by (last := attempt >= max), when nothing assigns it again.
func (w *walker) boolDef(id *ast.Ident, loop ast.Node) ast.Expr {
	v, ok := w.info.Uses[id].(*types.Var)
	if !ok || !isBool(v.Type()) || v.Pos() < loop.Pos() || v.Pos() >= loop.End() {
		return nil
	}
	var def *ast.BinaryExpr
	assigns := 0
	ast.Inspect(loop, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok {
			return true
		}
		for i, l := range as.Lhs {
			if identVar(w.info, l) != v {
				continue
			}
			assigns++
			if as.Tok == token.DEFINE && len(as.Rhs) == len(as.Lhs) {
				def, _ = ast.Unparen(as.Rhs[i]).(*ast.BinaryExpr)
			}
		}
		return true
	})
	if assigns != 1 || def == nil {
		return nil
	}
	return def
}

// freshFromCall reports whether v is declared in the body of loop by the
// results of a call (not derived from a counter: remain := max - i).
func (w *walker) freshFromCall(v *types.Var, loop ast.Node) bool {
	body := astq.LoopBody(loop)
	if body == nil || v.Pos() < body.Pos() || v.Pos() >= body.End() {
		return false
	}
	fresh := false
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE || len(as.Rhs) != 1 {
			return !fresh
		}
		for _, l := range as.Lhs {
			if id, ok := l.(*ast.Ident); ok && w.info.Defs[id] == v {
				c, isCall := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
				fresh = isCall && w.info.Types[c.Fun].IsValue()
			}
		}
		return !fresh
	})
	return fresh
}

func (w *walker) intVar(e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := w.info.Uses[id].(*types.Var)
	if !ok {
		return nil
	}
	if b, ok := v.Type().Underlying().(*types.Basic); ok && b.Info()&types.IsInteger != 0 {
		return v
	}
	return nil
}

// modifiedIn reports whether v is assigned or incremented inside n.
func (w *walker) modifiedIn(v *types.Var, n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IncDecStmt:
			if w.isVar(n.X, v) {
				found = true
			}
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if w.isVar(l, v) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

func (w *walker) isVar(e ast.Expr, v types.Object) bool {
	return astq.IsVar(w.info, e, v)
}

// bodyBound finds a bound checked inside the loop body: an attempt counter
// compared before leaving, or an elapsed-time check.
func (w *walker) bodyBound(loop ast.Node, body *ast.BlockStmt) (Bound, token.Pos) {
	bound, pos := BoundNone, token.NoPos
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		ifs, ok := n.(*ast.IfStmt)
		if !ok || bound == BoundCounter {
			return true
		}
		if !w.leaves(ifs.Body) {
			// if attempts < max { wait; attempts++; continue }: the
			// counter guards going round instead of leaving.
			if n := len(ifs.Body.List); n > 0 {
				if b, ok := ifs.Body.List[n-1].(*ast.BranchStmt); ok && b.Tok == token.CONTINUE {
					if v := w.counterCond(ifs.Cond, loop); v != nil {
						bound, pos = BoundCounter, ifs.Cond.Pos()
					}
				}
			}
			return true
		}
		if w.elapsedCheck(ifs.Cond) {
			bound, pos = BoundElapsed, ifs.Cond.Pos()
			return true
		}
		if v := w.counterCond(ifs.Cond, loop); v != nil {
			bound, pos = BoundCounter, ifs.Cond.Pos()
		}
		return true
	})
	return bound, pos
}

// leaves reports whether a block ends by leaving (return, break, goto,
// panic, or a call that never returns: t.Fatal, log.Fatal, os.Exit).
func (w *walker) leaves(b *ast.BlockStmt) bool {
	if len(b.List) > 0 {
		if es, ok := b.List[len(b.List)-1].(*ast.ExprStmt); ok {
			if c, ok := ast.Unparen(es.X).(*ast.CallExpr); ok && (&sim{info: w.info}).noReturn(c) {
				return true
			}
		}
	}
	return leaves(b)
}

func leaves(b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return false
	}
	switch last := b.List[len(b.List)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return last.Tok == token.BREAK || last.Tok == token.GOTO
	case *ast.ExprStmt:
		if c, ok := last.X.(*ast.CallExpr); ok {
			if id, ok := c.Fun.(*ast.Ident); ok && id.Name == "panic" {
				return true
			}
		}
	}
	return false
}

// elapsedCheck reports whether cond compares elapsed time (time.Since,
// time.Until, time.Now().After/Before/Sub) or a deadline.
func (w *walker) elapsedCheck(cond ast.Expr) bool {
	found := false
	ast.Inspect(cond, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if astq.IsFunc(astq.Callee(w.info, c), "time.Since", "time.Until", "time.Time.After", "time.Time.Before", "time.Time.Sub", "time.Time.Compare") {
				found = true
			}
		}
		return !found
	})
	return found
}

// flagCond reports whether a loop condition is a bool flag (done, !ok).
func (w *walker) flagCond(cond ast.Expr) bool {
	cond = ast.Unparen(cond)
	if u, ok := cond.(*ast.UnaryExpr); ok && u.Op == token.NOT {
		cond = ast.Unparen(u.X)
	}
	id, ok := cond.(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := w.info.Uses[id].(*types.Var)
	return ok && isBool(v.Type())
}

// isCounterOnly reports whether v, incremented in the loop, is only an
// attempt counter: not used by the operations' arguments directly.
func (w *walker) isCounterOnly(v *types.Var, body *ast.BlockStmt, ops []*ast.CallExpr) bool {
	for _, op := range ops {
		for _, a := range op.Args {
			used := false
			ast.Inspect(a, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && w.info.Uses[id] == v {
					used = true
				}
				return !used
			})
			if used {
				return false
			}
		}
	}
	// A counter used to index or offset something is not only a counter.
	indexed := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IndexExpr:
			if w.isVar(n.Index, v) {
				indexed = true
			}
		case *ast.BinaryExpr:
			if n.Op == token.REM && (w.isVar(n.X, v) || w.isVar(n.Y, v)) {
				indexed = true
			}
		}
		return !indexed
	})
	return !indexed
}

func (w *walker) isContextExpr(e ast.Expr) bool {
	t := w.info.TypeOf(e)
	return t != nil && isContextType(t)
}

// gotoSite classifies `L: ...; if failed { goto L }`.
func (w *walker) gotoSite(fs *fnScope, ls *ast.LabeledStmt, stack []ast.Node) *Site {
	lbl, _ := w.info.Defs[ls.Label].(*types.Label)
	if lbl == nil {
		return nil
	}
	// The label's statements: from the label to the end of its block.
	if len(stack) < 2 {
		return nil
	}
	parent, ok := stack[len(stack)-2].(*ast.BlockStmt)
	if !ok {
		return nil
	}
	i := slices.Index(parent.List, ast.Stmt(ls))
	if i < 0 {
		return nil
	}
	if w.stateMachine(parent) {
		return nil
	}
	rest := append([]ast.Stmt{ls.Stmt}, parent.List[i+1:]...)
	// The statements from the label on, spanning their source.
	blk := &ast.BlockStmt{Lbrace: ls.Pos(), List: rest}
	ops := w.opsIn(blk)
	if len(ops) == 0 {
		return nil
	}
	jump, onOutcome := w.gotoJumps(rest, lbl, ops, w.outcomeVars(blk, ops))
	if jump == nil || !onOutcome {
		return nil
	}
	if w.gotoFailover(rest, lbl, ops) {
		return nil
	}
	s := &sim{w: w, info: w.info, ops: ops, gotoL: lbl}
	site := w.simulate(s, rest)
	if site == nil || w.readsOn(site.Ops) {
		return nil // as for a loop: reading a stream again reads on
	}
	site.Shape = ShapeGoto
	site.Node, site.Pos, site.End = ls, jump.Pos(), jump.End()
	site.Func, site.File = fs.node, fs.file
	site.Bound, site.BoundPos = w.bodyBound(blk, blk)
	w.describe(site, fs, blk, blk)
	return site
}

// gotoJumps finds the first goto back to lbl, and whether a jump on a
// test of an operation's outcome leads there: the goto itself, or one to
// a later label of the same statements that the walk follows (if err !=
// nil { goto WAIT }), or one after a loop that tests errors (every
// endpoint failed). An outcome is an error, or any result of one of the
// operations (a status code, an ok, a body): outcome holds those
// results' variables. Whether the failure leads back is the walk's to
// decide, as for a loop; a jump that no outcome guards (a next page) is
// not a retry.
func (w *walker) gotoJumps(rest []ast.Stmt, lbl *types.Label, ops map[*ast.CallExpr]bool, outcome map[types.Object]bool) (*ast.BranchStmt, bool) {
	targets := map[types.Object]bool{lbl: true}
	if fl := forwardLabels(w.info, rest); len(fl) <= maxForwardLabels {
		for _, l := range fl {
			targets[l] = true
		}
	}
	var jump *ast.BranchStmt
	onError := false
	guard := func(cond ast.Expr) bool { return w.mentionsError(cond) || mentionsAny(w.info, cond, outcome, ops) }
	visit := func(n ast.Node, underErr bool) {
		walkGuarded(n, underErr, guard, func(m ast.Node, under bool) bool {
			if m, ok := m.(*ast.BranchStmt); ok {
				if m.Tok != token.GOTO || m.Label == nil || !targets[w.info.Uses[m.Label]] {
					return false
				}
				if w.info.Uses[m.Label] == lbl && jump == nil {
					jump = m
				}
				onError = onError || under
			}
			return true
		})
	}
	triedAll := false // a loop before tried each endpoint, testing errors
	for _, st := range rest {
		visit(st, triedAll)
		triedAll = triedAll || w.testsInLoop(st)
	}
	return jump, jump != nil && onError
}

// testsInLoop reports whether st is a loop that tests an error and
// returns from inside (on a success): after it, a jump back comes when
// no round of it succeeded (each host dialled and failed, then goto
// restartAll).
func (w *walker) testsInLoop(st ast.Stmt) bool {
	body := astq.LoopBody(st)
	if body == nil {
		return false
	}
	tests, returns := false, false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IfStmt:
			tests = tests || w.mentionsError(n.Cond)
		case *ast.ReturnStmt:
			returns = true
		}
		return !tests || !returns
	})
	return tests && returns
}

// stateMachine reports whether a block holds more labels than a goto
// retry would (a generated lexer or parser jumping between its states).
func (w *walker) stateMachine(b *ast.BlockStmt) bool {
	if n, ok := w.blockLabels[b]; ok {
		return n > maxBlockLabels
	}
	n := 0
	for _, st := range b.List {
		if _, ok := st.(*ast.LabeledStmt); ok {
			n++
		}
	}
	if w.blockLabels == nil {
		w.blockLabels = map[*ast.BlockStmt]int{}
	}
	w.blockLabels[b] = n
	return n > maxBlockLabels
}

const maxBlockLabels = 8

// maxForwardLabels bounds the labels a goto retry's statements may hold
// for the walk to follow jumps between them: more is a state machine
// (a generated parser), not a retry.
const maxForwardLabels = 3

// forwardLabels returns the labels of rest's statements after the first.
func forwardLabels(info *types.Info, rest []ast.Stmt) []types.Object {
	var out []types.Object
	for _, st := range rest[1:] {
		if l, ok := st.(*ast.LabeledStmt); ok {
			out = append(out, info.Defs[l.Label])
		}
	}
	return out
}

// recursionSite classifies a function that calls itself after a failure.
func (w *walker) recursionSite(fs *fnScope) *Site {
	var self types.Object
	switch {
	case fs.obj != nil && slices.Contains(fs.callees, fs.obj):
		self = fs.obj
	case fs.selfVar != nil:
		self = fs.selfVar
	default:
		return nil
	}
	var selfCall *ast.CallExpr
	ast.Inspect(fs.body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if c, ok := n.(*ast.CallExpr); ok && typeutil.Callee(w.info, c) == self {
			selfCall = c
		}
		return selfCall == nil
	})
	if selfCall == nil {
		return nil
	}
	// A retry by recursion passes its attempt count on, changed (n-1,
	// or n-- before the call).
	counted := w.countedArg(fs, selfCall)
	if counted == nil {
		return nil
	}
	ops := w.opsIn(fs.body)
	delete(ops, selfCall)
	for op := range ops {
		if typeutil.Callee(w.info, op) == self {
			delete(ops, op)
		}
	}
	if len(ops) == 0 {
		return nil
	}
	s := &sim{w: w, info: w.info, ops: ops, self: self}
	site := w.simulate(s, fs.body.List)
	if site == nil || site.Consume {
		return nil
	}
	site.Shape = ShapeRecursion
	site.Node, site.Pos, site.End = fs.node, selfCall.Pos(), selfCall.End()
	site.Func, site.File = fs.node, fs.file
	// Bounded when the recursive call passes a decremented parameter that is checked.
	site.Bound, site.BoundPos = BoundCounter, counted.Pos()
	w.describe(site, fs, fs.body, fs.body)
	return site
}

// countedArg returns the argument of a self-call that passes a
// parameter on changed: the parameter plus or minus something, or the
// parameter itself where the body steps it (n--, n -= 1, n = n - 1).
func (w *walker) countedArg(fs *fnScope, selfCall *ast.CallExpr) ast.Expr {
	param := func(e ast.Expr) *types.Var {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			if v, ok := w.info.Uses[id].(*types.Var); ok && w.isParam(v, fs.typ) {
				return v
			}
		}
		return nil
	}
	stepped := map[*types.Var]bool{}
	ast.Inspect(fs.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IncDecStmt:
			if v := param(n.X); v != nil {
				stepped[v] = true
			}
		case *ast.AssignStmt:
			if len(n.Lhs) != 1 || len(n.Rhs) != 1 {
				break
			}
			v := param(n.Lhs[0])
			switch {
			case v == nil:
			case n.Tok == token.ADD_ASSIGN || n.Tok == token.SUB_ASSIGN:
				stepped[v] = true
			case n.Tok == token.ASSIGN:
				if b, ok := ast.Unparen(n.Rhs[0]).(*ast.BinaryExpr); ok && (b.Op == token.SUB || b.Op == token.ADD) && param(b.X) == v {
					stepped[v] = true
				}
			}
		}
		return true
	})
	for _, a := range selfCall.Args {
		if b, ok := ast.Unparen(a).(*ast.BinaryExpr); ok && (b.Op == token.SUB || b.Op == token.ADD) && param(b.X) != nil {
			return a
		}
		if v := param(a); v != nil && stepped[v] && isInt(v.Type()) {
			return a
		}
	}
	return nil
}

func (w *walker) isParam(v *types.Var, ft *ast.FuncType) bool {
	return ft != nil && w.declares(ft.Params, v)
}

// declares reports whether a field list (parameters, results) names v.
func (w *walker) declares(fl *ast.FieldList, v types.Object) bool {
	if fl == nil {
		return false
	}
	for _, f := range fl.List {
		for _, n := range f.Names {
			if w.info.Defs[n] == v {
				return true
			}
		}
	}
	return false
}

// underErrorCheck reports whether the jump sits inside an if statement
// that tests an error: a goto retry jumps back on failure.
func (w *walker) underErrorCheck(stmts []ast.Stmt, jump ast.Node) bool {
	found := false
	for _, st := range stmts {
		walkGuarded(st, false, w.mentionsError, func(m ast.Node, under bool) bool {
			if m == jump {
				found = under
				return false
			}
			return !found && m.Pos() <= jump.Pos() && jump.End() <= m.End()
		})
	}
	return found
}

// outcomeVars lists the variables in n (outside function literals)
// assigned a result of one of ops: what a test of an outcome reads.
func (w *walker) outcomeVars(n ast.Node, ops map[*ast.CallExpr]bool) map[types.Object]bool {
	vars := map[types.Object]bool{}
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			if len(n.Rhs) == 1 && len(n.Lhs) > 1 {
				if c, ok := ast.Unparen(n.Rhs[0]).(*ast.CallExpr); ok && ops[c] {
					for _, l := range n.Lhs {
						if o := identVar(w.info, l); o != nil {
							vars[o] = true
						}
					}
				}
				return true
			}
			for i, r := range n.Rhs {
				if c, ok := ast.Unparen(r).(*ast.CallExpr); ok && ops[c] && i < len(n.Lhs) {
					if o := identVar(w.info, n.Lhs[i]); o != nil {
						vars[o] = true
					}
				}
			}
		}
		return true
	})
	return vars
}

// mentionsAny reports whether e uses one of vars or calls one of ops.
func mentionsAny(info *types.Info, e ast.Expr, vars map[types.Object]bool, ops map[*ast.CallExpr]bool) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			found = found || vars[info.Uses[n]]
		case *ast.CallExpr:
			found = found || ops[n]
		}
		return !found
	})
	return found
}

// mentionsError reports whether e holds an expression of type error.
func (w *walker) mentionsError(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if x, ok := n.(ast.Expr); ok && !found {
			if t := w.info.TypeOf(x); t != nil && isErrorType(t) {
				found = true
			}
		}
		return !found
	})
	return found
}

// isSignalChan reports whether a channel carries a signal rather than
// work: a bool (case intentional := <-kill:).
func isSignalChan(t types.Type) bool {
	if t == nil {
		return false
	}
	ch, ok := t.Underlying().(*types.Chan)
	if !ok {
		return false
	}
	return isBool(ch.Elem())
}

func isInt(t types.Type) bool {
	if t == nil {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// readsOn reports whether every operation a loop calls again reads a
// stream (a connection's next message): calling it again reads on, a read
// loop, not the same operation again.
func (w *walker) readsOn(ops []*ast.CallExpr) bool {
	for _, op := range ops {
		fn, _ := typeutil.Callee(w.info, op).(*types.Func)
		if !astq.ReadsStream(fn) {
			return false
		}
	}
	return len(ops) > 0
}
