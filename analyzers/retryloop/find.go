package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"
)

// fnScope is a function being searched for retry sites.
type fnScope struct {
	node ast.Node // *ast.FuncDecl or *ast.FuncLit
	body *ast.BlockStmt
	typ  *ast.FuncType
	file *ast.File
	obj  *types.Func // for declarations
}

// findSites finds the retry sites of one function (not of nested literals).
func (w *walker) findSites(fs *fnScope) []*Site {
	var sites []*Site
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
		case *ast.ForStmt:
			if s := w.loopSite(fs, n, labelOf(stack, w)); s != nil {
				sites = append(sites, s)
			}
		case *ast.RangeStmt:
			if s := w.loopSite(fs, n, labelOf(stack, w)); s != nil {
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
		return isFunc(callee(w.info, c), "time.Tick")
	}
	if sel, ok := x.(*ast.SelectorExpr); ok && sel.Sel.Name == "C" {
		t := w.info.TypeOf(sel.X)
		return t != nil && isNamed(t, "time", "Ticker")
	}
	return false
}

// tickSourceCall reports whether c calls a function that returns retry
// ticks (its fact says so).
func (w *walker) tickSourceCall(c *ast.CallExpr) bool {
	f := w.factOf(callee(w.info, c))
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
		if fn := callee(w.info, c); fn != nil && fn.Pkg() == w.pass.Pkg {
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
	fn := callee(w.info, call)
	if fn != nil && notOps[pkgPath(fn)] {
		return false
	}
	if fn != nil && pkgPath(fn) == BudgetPath {
		return false
	}
	// Accepting on your own listener is not a retry (SPEC): no shared
	// dependency is hit, whatever tempDelay the loop grows.
	if isFunc(fn, "net.Listener.Accept", "net.TCPListener.Accept", "net.TCPListener.AcceptTCP",
		"net.UnixListener.Accept", "net.UnixListener.AcceptUnix") {
		return false
	}
	if isErrorType(last) {
		return true
	}
	if isBool(last) && fn != nil && w.isRemoteCall(call) {
		return true
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
	if len(ops) == 0 || w.receivesWork(body) {
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
	if w.isFailover(loop, body, site.Ops) {
		return nil
	}
	site.Node, site.Pos, site.End = loop, loop.Pos(), body.Lbrace
	site.Func, site.File = fs.node, fs.file
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
	w.describe(site, fs, loop, body)
	return site
}

// simulate walks the body under success and under each op's failure.
func (w *walker) simulate(s *sim, stmts []ast.Stmt) *Site {
	s.kept = keptOps(&ast.BlockStmt{List: stmts}, s.ops)
	if len(s.kept) == 0 {
		return nil
	}
	s.fail = nil
	succ := successPaths(s.run(stmts))
	if s.overflow {
		return nil
	}
	// Waits on the success paths that go round again: a loop that waits
	// the same way after success is periodic (a ticker, a poller), and
	// those waits are not between attempts of a failed call.
	r := &retries{w: w, loop: s.loop, succ: succ, successWaits: succ.waitsRound(), waits: map[ast.Node]bool{}}
	for op := range s.ops {
		if !s.kept[op] || succ.onlyAborts(op) {
			continue // its outcome is discarded, or success is the failure
		}
		exits := succ.exits(op)
		for _, mode := range []opMode{modeErr, modeStatus} {
			if mode == modeStatus && !w.returnsResponse(op) {
				continue
			}
			r.tryFailure(s, stmts, op, mode, exits)
		}
	}
	if len(r.retried) == 0 {
		return nil
	}
	site := &Site{Consume: !r.anySuccessExit, StatusRetry: r.statusRetry}
	slices.SortFunc(r.retried, func(a, b *ast.CallExpr) int { return int(a.Pos() - b.Pos()) })
	site.Ops = r.retried
	site.Ctx.Consulted = r.consult
	site.Waits = w.siteWaits(s, r.waits, r.chosen)
	return site
}

// successPaths are the paths of the walk under success.
type successPaths []*path

// exits reports whether success of op can leave the site: a path that
// tested op's outcome and left, not by cancellation or abort.
func (succ successPaths) exits(op *ast.CallExpr) bool {
	for _, p := range succ {
		if p.out == outExit && !p.abort && p.observed[op] && p.successDriven() {
			return true
		}
	}
	return false
}

// onlyAborts reports whether every success path that looked at op aborts
// (t.Fatal, panic): a test repeating a call it expects to fail.
func (succ successPaths) onlyAborts(op *ast.CallExpr) bool {
	seen := false
	for _, p := range succ {
		if p.observed[op] {
			if !p.abort {
				return false
			}
			seen = true
		}
	}
	return seen
}

// waitsRound returns the waits on the success paths that go round again.
func (succ successPaths) waitsRound() map[ast.Node]bool {
	waits := map[ast.Node]bool{}
	for _, p := range succ {
		if p.out == outNext {
			for _, wn := range p.waits {
				waits[wn] = true
			}
		}
	}
	return waits
}

// retries gathers what the failure walks find: the operations retried,
// the waits between their attempts, and how the site treats them.
type retries struct {
	w            *walker
	loop         ast.Stmt
	succ         successPaths
	successWaits map[ast.Node]bool // waits that success goes round with too
	// chosen are the delays failure paths choose for a wait success
	// shares (nil where two failures choose differently).
	chosen         map[ast.Node]ast.Expr
	retried        []*ast.CallExpr
	waits          map[ast.Node]bool
	consult        bool
	anySuccessExit bool
	statusRetry    bool
}

// tryFailure walks the body under op's failure in mode and records op as
// retried when the failure comes round again.
func (r *retries) tryFailure(s *sim, stmts []ast.Stmt, op *ast.CallExpr, mode opMode, exits bool) {
	s.fail, s.mode, s.seenFail, s.ambiguous = op, mode, false, false
	ps := s.run(stmts)
	if mode == modeStatus && s.seenFail && s.ambiguous {
		r.statusRetry = true // a status test that may let a failure go round
	}
	if s.overflow || !s.seenFail || s.ambiguous {
		return
	}
	fp := failurePaths{ps: ps, op: op, mode: mode}
	if fp.pollsRound() {
		r.statusRetry = true
	}
	comesRound, withWait := fp.comesRound(r)
	// A consume loop (success goes on) is a retry only where its
	// error branch waits and calls again.
	if !comesRound || !exits && !withWait {
		return
	}
	for _, p := range ps {
		if fp.round(p) && !fp.polled(p) {
			for _, wn := range p.waits {
				r.waits[wn] = true
				if x := r.chosenDelay(wn, p); x != nil {
					r.choose(wn, x)
				}
			}
		}
		if p.consult {
			r.consult = true
		}
	}
	if exits {
		r.anySuccessExit = true
	}
	if mode == modeStatus {
		r.statusRetry = true
	}
	if !slices.Contains(r.retried, op) {
		r.retried = append(r.retried, op)
	}
}

// failurePaths are the paths of the walk under op's failure in mode.
type failurePaths struct {
	ps   []*path
	op   *ast.CallExpr
	mode opMode
}

// round reports whether p goes round again having tested op's outcome.
func (fp failurePaths) round(p *path) bool {
	return p.out == outNext && p.observed[fp.op]
}

// roundOnFailure reports whether p goes round again on op's failure: for
// a failure status, one it tested.
func (fp failurePaths) roundOnFailure(p *path) bool {
	return fp.round(p) && (fp.mode == modeErr || p.statusObs)
}

// polled reports whether p tells a failure status from a 2xx code by
// equality only (!= 200): a poll's "not yet", not a retry.
func (fp failurePaths) polled(p *path) bool {
	return fp.mode == modeStatus && p.pollTest
}

// pollsRound reports whether a polled failure status goes round: not a
// retry, though no fix may take the error for the only failure.
func (fp failurePaths) pollsRound() bool {
	for _, p := range fp.ps {
		if fp.roundOnFailure(p) && fp.polled(p) {
			return true
		}
	}
	return false
}

// comesRound reports whether the failure goes round again, and whether
// it waits on the way with a wait that success does not share.
func (fp failurePaths) comesRound(r *retries) (comesRound, withWait bool) {
	for _, p := range fp.ps {
		if !fp.roundOnFailure(p) || fp.polled(p) {
			continue
		}
		comesRound = true
		for _, wn := range p.waits {
			if !r.successWaits[wn] || r.chosenDelay(wn, p) != nil {
				withWait = true
			}
		}
	}
	return comesRound, withWait
}

// chosenDelay returns the delay failure path p chooses for the wait wn
// that every round starts with, when success chooses another: a loop
// that waits every after success and a second after a failure
// (case <-time.After(wait): if err != nil { wait = time.Second } else {
// wait = every }) retries at a second. Nil when the wait's delay is no
// variable the rounds carry, some round sets it before the wait, the
// failure keeps it, or a success going round with wn keeps it or
// chooses the same.
func (r *retries) chosenDelay(wn ast.Node, p *path) ast.Expr {
	if !r.successWaits[wn] || len(p.delays) == 0 {
		return nil
	}
	v := r.w.waitDelayVar(wn)
	x := p.delays[v]
	if x == nil || !r.w.assignedAfter(v, wn, r.loop) {
		return nil
	}
	seen := false
	for _, sp := range r.succ {
		if sp.out != outNext || !slices.Contains(sp.waits, wn) {
			continue
		}
		y := sp.delays[v]
		if y == nil || types.ExprString(y) == types.ExprString(x) {
			return nil
		}
		seen = true
	}
	if !seen {
		return nil
	}
	return x
}

// choose records x as the delay a failure chooses for wn; two failures
// choosing differently leave it unknown (nil).
func (r *retries) choose(wn ast.Node, x ast.Expr) {
	if r.chosen == nil {
		r.chosen = map[ast.Node]ast.Expr{}
	}
	if old, ok := r.chosen[wn]; ok && (old == nil || types.ExprString(old) != types.ExprString(x)) {
		r.chosen[wn] = nil
		return
	}
	r.chosen[wn] = x
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
	f := w.factOf(callee(w.info, c))
	return f == nil || f.Wait == nil || f.Wait.Param < 0
}

func (w *walker) returnsResponse(call *ast.CallExpr) bool {
	tup, ok := w.info.TypeOf(call).(*types.Tuple)
	return ok && tup.Len() == 2 && isResponse(tup.At(0).Type())
}

// isResponse reports whether t is *http.Response or a client library's
// own response (a pointer to a struct with an integer StatusCode field,
// sendgrid's *rest.Response): its status can name a failure.
func isResponse(t types.Type) bool {
	if isNamed(t, "net/http", "Response") {
		return true
	}
	p, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	st, ok := p.Elem().Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		if f := st.Field(i); f.Name() == "StatusCode" && isInt(f.Type()) {
			return true
		}
	}
	return false
}

// counterCond returns the counter variable compared in a loop condition
// (i < n, attempt <= max, retries > 0) that the loop changes.
func (w *walker) counterCond(cond ast.Expr, loop ast.Node) *types.Var {
	if cond == nil {
		return nil
	}
	var found *types.Var
	ast.Inspect(cond, func(n ast.Node) bool {
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
			if v := w.intVar(side); v != nil && w.modifiedIn(v, loop) {
				found = v
				return false
			}
		}
		return true
	})
	return found
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
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	return w.info.Uses[id] == v || w.info.Defs[id] == v
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
			if isFunc(callee(w.info, c), "time.Since", "time.Until", "time.Time.After", "time.Time.Before", "time.Time.Sub", "time.Time.Compare") {
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

// isFailover reports whether the attempts target different elements: an
// operation's arguments depend on a variable the loop changes (the range
// index, a counter, the next node).
func (w *walker) isFailover(loop ast.Stmt, body *ast.BlockStmt, ops []*ast.CallExpr) bool {
	f := &failover{w: w, changing: map[types.Object]bool{}, defs: map[types.Object]ast.Expr{}, movedFields: map[string]bool{}}
	f.loopMoves(loop)
	f.bodyCounters(body, ops)
	// Elements taken from a source the loop drains (cn, err = p.popIdle();
	// if cn == nil { break }): each pass works on the next one.
	for v := range w.drained(body) {
		f.changing[v] = true
	}
	f.localDefs(body)
	f.fieldsMoved(body)
	roots, depends := f.targets(ops)
	return depends || f.storesElement(body, roots)
}

// failover is what isFailover learns of a loop: the variables and fields
// that change from one pass to the next, and the locals defined in it.
type failover struct {
	w           *walker
	changing    map[types.Object]bool
	defs        map[types.Object]ast.Expr // a local's value in the loop
	movedFields map[string]bool           // fields moved by the loop, by their text
}

// loopMoves adds the variables the loop header moves: those a for loop
// declares and then moves (a cursor: for d := dir; ; { ...; d = parent }),
// those its post statement names, and the range key and value.
func (f *failover) loopMoves(loop ast.Stmt) {
	info := f.w.info
	switch l := loop.(type) {
	case *ast.ForStmt:
		if as, ok := l.Init.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
			for _, lhs := range as.Lhs {
				if id, ok := lhs.(*ast.Ident); ok {
					if v, ok := info.Defs[id].(*types.Var); ok && f.w.modifiedIn(v, l.Body) {
						f.changing[v] = true
					}
				}
			}
		}
		if l.Post != nil {
			ast.Inspect(l.Post, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok {
					if v, ok := info.Uses[id].(*types.Var); ok {
						f.changing[v] = true
					}
				}
				return true
			})
		}
	case *ast.RangeStmt:
		for _, e := range []ast.Expr{l.Key, l.Value} {
			if id, ok := e.(*ast.Ident); ok && info.Defs[id] != nil {
				f.changing[info.Defs[id]] = true
			}
		}
	}
}

// bodyCounters adds the variables incremented in the body, other than a
// count of the attempts.
func (f *failover) bodyCounters(body *ast.BlockStmt, ops []*ast.CallExpr) {
	ast.Inspect(body, func(n ast.Node) bool {
		if n, ok := n.(*ast.IncDecStmt); ok {
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok {
				if v, ok := f.w.info.Uses[id].(*types.Var); ok && !f.w.isCounterOnly(v, body, ops) {
					f.changing[v] = true
				}
			}
		}
		return true
	})
}

// localDefs records the values of the locals assigned in the loop, which
// change with a changing variable, and adds the cursors moved by
// arithmetic on themselves (cur = (cur+1) % n).
func (f *failover) localDefs(body *ast.BlockStmt) {
	info := f.w.info
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) && len(as.Rhs) != 1 {
			return true
		}
		for i, l := range as.Lhs {
			r := as.Rhs[0]
			if len(as.Lhs) == len(as.Rhs) {
				r = as.Rhs[i]
			}
			id, ok := l.(*ast.Ident)
			if !ok {
				continue
			}
			o := info.Defs[id]
			if o == nil {
				o = info.Uses[id]
			}
			if o == nil {
				continue
			}
			f.defs[o] = r
			if v, ok := o.(*types.Var); ok && isInt(v.Type()) && (as.Tok == token.ADD_ASSIGN || as.Tok == token.SUB_ASSIGN ||
				as.Tok == token.ASSIGN && refersTo(info, r, v)) {
				f.changing[v] = true
			}
		}
		return true
	})
}

// fieldsMoved records the fields moved by the loop (r.cur = (r.cur+1) %
// n; c.next++).
func (f *failover) fieldsMoved(body *ast.BlockStmt) {
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if sel, ok := l.(*ast.SelectorExpr); ok && isInt(f.w.info.TypeOf(sel)) {
					f.movedFields[types.ExprString(sel)] = true
				}
			}
		case *ast.IncDecStmt:
			if sel, ok := n.X.(*ast.SelectorExpr); ok {
				f.movedFields[types.ExprString(sel)] = true
			}
		}
		return true
	})
}

// dependsOn reports whether e reads a moved field or a changing variable,
// itself or through the locals it is defined from.
func (f *failover) dependsOn(e ast.Expr, depth int) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok && f.movedFields[types.ExprString(sel)] {
			found = true
			return false
		}
		id, ok := n.(*ast.Ident)
		if !ok || found {
			return !found
		}
		o := f.w.info.Uses[id]
		if o == nil {
			return true
		}
		if f.changing[o] {
			found = true
		} else if d, ok := f.defs[o]; ok && depth < 4 && d != e {
			found = f.dependsOn(d, depth+1)
		}
		return !found
	})
	return found
}

// targets reports whether an operation's argument or receiver depends on
// what the loop changes; otherwise it returns the identifiers the
// operations work on.
func (f *failover) targets(ops []*ast.CallExpr) (roots map[types.Object]bool, depends bool) {
	info := f.w.info
	roots = map[types.Object]bool{}
	for _, op := range ops {
		for _, a := range op.Args {
			if f.w.isContextExpr(a) {
				continue
			}
			// The attempt number passed as is (for logs, metrics, an
			// attempt header) does not change the target.
			if id, ok := ast.Unparen(a).(*ast.Ident); ok {
				if v, ok := info.Uses[id].(*types.Var); ok && f.changing[v] && isInt(v.Type()) {
					continue
				}
			}
			if f.dependsOn(a, 0) {
				return nil, true
			}
			if id, ok := ast.Unparen(a).(*ast.Ident); ok && info.Uses[id] != nil {
				roots[info.Uses[id]] = true
			}
		}
		if sel, ok := op.Fun.(*ast.SelectorExpr); ok {
			if f.dependsOn(sel.X, 0) {
				return nil, true
			}
			if id := rootIdent(sel.X); id != nil && info.Uses[id] != nil {
				roots[info.Uses[id]] = true
			}
		}
	}
	return roots, false
}

// storesElement reports whether the loop stores an element of a list
// into what the operations work on (nc.current = nc.servers[i];
// nc.connect()).
func (f *failover) storesElement(body *ast.BlockStmt, roots map[types.Object]bool) bool {
	moved := false
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || moved || len(as.Lhs) != len(as.Rhs) {
			return !moved
		}
		for i, l := range as.Lhs {
			sel, ok := l.(*ast.SelectorExpr)
			if !ok {
				continue
			}
			if id := rootIdent(sel); id != nil && roots[f.w.info.Uses[id]] && f.dependsOn(as.Rhs[i], 0) {
				moved = true
			}
		}
		return !moved
	})
	return moved
}

// drained returns the variables the loop body takes from a source that
// can run dry: assigned from a call by a statement of the body, and tested
// for emptiness by an if of the body that only breaks out of the loop
// (if cn == nil { break }; if !ok { break }, ok from the same assignment).
// A retry leaves on the operation's outcome, not on a source running out.
func (w *walker) drained(body *ast.BlockStmt) map[types.Object]bool {
	fromCall := map[types.Object][]types.Object{} // tested var -> the vars it speaks for
	for _, st := range body.List {
		as, ok := st.(*ast.AssignStmt)
		if !ok || len(as.Rhs) != 1 {
			continue
		}
		if _, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr); !ok {
			continue
		}
		var vars []types.Object
		for _, l := range as.Lhs {
			if id, ok := l.(*ast.Ident); ok {
				if o := w.info.ObjectOf(id); o != nil {
					vars = append(vars, o)
				}
			}
		}
		for _, v := range vars {
			fromCall[v] = vars
		}
	}
	out := map[types.Object]bool{}
	for _, st := range body.List {
		ifs, ok := st.(*ast.IfStmt)
		if !ok || ifs.Init != nil || ifs.Else != nil || len(ifs.Body.List) != 1 {
			continue
		}
		if br, ok := ifs.Body.List[0].(*ast.BranchStmt); !ok || br.Tok != token.BREAK || br.Label != nil {
			continue
		}
		var tested types.Object
		switch c := ast.Unparen(ifs.Cond).(type) {
		case *ast.UnaryExpr: // !ok
			if id, ok := ast.Unparen(c.X).(*ast.Ident); ok && c.Op == token.NOT && isBool(w.info.TypeOf(id)) {
				tested = w.info.Uses[id]
			}
		case *ast.BinaryExpr: // cn == nil
			if id, ok := ast.Unparen(c.X).(*ast.Ident); ok && c.Op == token.EQL && w.info.Types[c.Y].IsNil() {
				tested = w.info.Uses[id]
			}
		}
		for _, v := range fromCall[tested] {
			if v != tested || !isBool(v.Type()) {
				out[v] = true
			}
		}
	}
	return out
}

// rootIdent returns the identifier at the root of a selector chain.
func rootIdent(e ast.Expr) *ast.Ident {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			return x
		case *ast.SelectorExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		default:
			return nil
		}
	}
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
	jump, onError := w.gotoJumps(rest, lbl)
	if jump == nil || !onError {
		return nil
	}
	// The statements from the label on, spanning their source.
	blk := &ast.BlockStmt{Lbrace: ls.Pos(), List: rest}
	ops := w.opsIn(blk)
	if len(ops) == 0 {
		return nil
	}
	if w.gotoFailover(rest, lbl, ops) {
		return nil
	}
	s := &sim{w: w, info: w.info, ops: ops, gotoL: lbl}
	site := w.simulate(s, rest)
	if site == nil {
		return nil
	}
	site.Shape = ShapeGoto
	site.Node, site.Pos, site.End = ls, jump.Pos(), jump.End()
	site.Func, site.File = fs.node, fs.file
	site.Bound, site.BoundPos = w.bodyBound(blk, blk)
	w.describe(site, fs, blk, blk)
	return site
}

// gotoJumps finds the first goto back to lbl, and whether a jump on an
// error check leads there: the goto itself, or one to a later label of
// the same statements that the walk follows (if err != nil { goto WAIT }).
func (w *walker) gotoJumps(rest []ast.Stmt, lbl *types.Label) (*ast.BranchStmt, bool) {
	targets := map[types.Object]bool{lbl: true}
	if fl := forwardLabels(w.info, rest); len(fl) <= maxForwardLabels {
		for _, l := range fl {
			targets[l] = true
		}
	}
	var jump *ast.BranchStmt
	onError := false
	var visit func(n ast.Node, underErr bool)
	visit = func(n ast.Node, underErr bool) {
		ast.Inspect(n, func(m ast.Node) bool {
			switch m := m.(type) {
			case *ast.FuncLit:
				return false
			case *ast.IfStmt:
				if m.Init != nil {
					visit(m.Init, underErr)
				}
				visit(m.Body, underErr || w.mentionsError(m.Cond))
				if m.Else != nil {
					visit(m.Else, underErr)
				}
				return false
			case *ast.BranchStmt:
				if m.Tok != token.GOTO || m.Label == nil || !targets[w.info.Uses[m.Label]] {
					return false
				}
				if w.info.Uses[m.Label] == lbl && jump == nil {
					jump = m
				}
				onError = onError || underErr
			}
			return true
		})
	}
	for _, st := range rest {
		visit(st, false)
	}
	return jump, jump != nil && onError
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

// gotoFailover reports whether every jump back to the label first moves
// an operation's argument to something else (mode = SSLModeDisable; goto
// restart): each attempt targets another configuration, which is
// failover, not retry (SPEC).
func (w *walker) gotoFailover(rest []ast.Stmt, lbl *types.Label, ops map[*ast.CallExpr]bool) bool {
	jumps, moved := 0, 0
	var visit func(list []ast.Stmt)
	visit = func(list []ast.Stmt) {
		for i, st := range list {
			if b, ok := st.(*ast.BranchStmt); ok && b.Tok == token.GOTO && b.Label != nil && w.info.Uses[b.Label] == lbl {
				jumps++
				if w.movesArgument(list[:i], ops) {
					moved++
				}
				continue
			}
			ast.Inspect(st, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncLit:
					return false
				case *ast.BlockStmt:
					visit(n.List)
					return false
				case *ast.CaseClause:
					visit(n.Body)
					return false
				case *ast.CommClause:
					visit(n.Body)
					return false
				}
				return true
			})
		}
	}
	visit(rest)
	return jumps > 0 && moved == jumps
}

// movesArgument reports whether the statements assign a variable that an
// operation takes as an argument.
func (w *walker) movesArgument(stmts []ast.Stmt, ops map[*ast.CallExpr]bool) bool {
	for _, st := range stmts {
		as, ok := st.(*ast.AssignStmt)
		if !ok || as.Tok == token.DEFINE {
			continue
		}
		for _, l := range as.Lhs {
			id, ok := l.(*ast.Ident)
			if !ok {
				continue
			}
			v, ok := w.info.Uses[id].(*types.Var)
			if !ok {
				continue
			}
			for op := range ops {
				for _, a := range op.Args {
					if refersTo(w.info, a, v) {
						return true
					}
				}
			}
		}
	}
	return false
}

// recursionSite classifies a function that calls itself after a failure.
func (w *walker) recursionSite(fs *fnScope) *Site {
	if fs.obj == nil {
		return nil
	}
	var selfCall *ast.CallExpr
	ast.Inspect(fs.body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if c, ok := n.(*ast.CallExpr); ok && callee(w.info, c) == fs.obj {
			selfCall = c
		}
		return selfCall == nil
	})
	if selfCall == nil {
		return nil
	}
	// A retry by recursion passes its attempt count on, changed (n-1).
	counted := false
	for _, a := range selfCall.Args {
		if b, ok := ast.Unparen(a).(*ast.BinaryExpr); ok && (b.Op == token.SUB || b.Op == token.ADD) {
			if id, ok := ast.Unparen(b.X).(*ast.Ident); ok {
				if v, ok := w.info.Uses[id].(*types.Var); ok && w.isParam(v, fs.typ) {
					counted = true
				}
			}
		}
	}
	if !counted {
		return nil
	}
	ops := w.opsIn(fs.body)
	delete(ops, selfCall)
	for op := range ops {
		if callee(w.info, op) == fs.obj {
			delete(ops, op)
		}
	}
	if len(ops) == 0 {
		return nil
	}
	s := &sim{w: w, info: w.info, ops: ops, self: fs.obj}
	site := w.simulate(s, fs.body.List)
	if site == nil || site.Consume {
		return nil
	}
	site.Shape = ShapeRecursion
	site.Node, site.Pos, site.End = fs.node, selfCall.Pos(), selfCall.End()
	site.Func, site.File = fs.node, fs.file
	// Bounded when the recursive call passes a decremented parameter that is checked.
	site.Bound = BoundNone
	for _, a := range selfCall.Args {
		if b, ok := ast.Unparen(a).(*ast.BinaryExpr); ok && (b.Op == token.SUB || b.Op == token.ADD) {
			if id, ok := ast.Unparen(b.X).(*ast.Ident); ok {
				if v, ok := w.info.Uses[id].(*types.Var); ok && w.isParam(v, fs.typ) {
					site.Bound, site.BoundPos = BoundCounter, a.Pos()
				}
			}
		}
	}
	if site.Bound == BoundNone {
		site.Bound, site.BoundPos = w.bodyBound(fs.body, fs.body)
	}
	w.describe(site, fs, fs.body, fs.body)
	return site
}

func (w *walker) isParam(v *types.Var, ft *ast.FuncType) bool {
	if ft == nil || ft.Params == nil {
		return false
	}
	for _, f := range ft.Params.List {
		for _, n := range f.Names {
			if w.info.Defs[n] == v {
				return true
			}
		}
	}
	return false
}

// String renders a site's classification for the model's tests.
func (s *Site) String() string {
	var b strings.Builder
	b.WriteString("retry site: shape=" + s.Shape.String())
	if s.Consume {
		b.WriteString(" consume")
	}
	b.WriteString(" bound=" + s.Bound.String())
	b.WriteString(" delay=" + s.Delay().String())
	if s.Jittered() {
		b.WriteString(" jitter=yes")
	} else {
		b.WriteString(" jitter=no")
	}
	b.WriteString(" ctx=" + s.Ctx.Attempts.String())
	if s.Ctx.Consulted {
		b.WriteString(" consulted")
	}
	if s.Remote != nil {
		b.WriteString(" remote")
	}
	if len(s.Budget) > 0 {
		b.WriteString(" budget")
	}
	for _, r := range s.Requests {
		m := r.Method
		if m == "" {
			m = "?"
		}
		b.WriteString(" req=" + m)
		if r.hasKey(s.keyHeaders) {
			b.WriteString("+key")
		}
		if r.KeyInLoop {
			b.WriteString("(minted-in-loop)")
		}
	}
	if s.Attempts != AttemptsUnknown {
		b.WriteString(" attempts=" + ChainString([]int{s.Attempts}))
	}
	if in := s.Worst(); in != nil {
		b.WriteString(" nested=" + strings.ReplaceAll(ChainString(in.Chain), " × ", "x"))
	}
	return b.String()
}

// receivesWork reports whether a loop body takes a value from a channel
// (x := <-jobs, case m := <-in:): a worker loop, whose every iteration
// handles a new item, not a retry.
func (w *walker) receivesWork(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.RangeStmt:
			if t := w.info.TypeOf(n.X); t != nil {
				if _, ok := t.Underlying().(*types.Chan); ok {
					found = true
				}
			}
		case *ast.AssignStmt:
			if len(n.Rhs) != 1 {
				return true
			}
			u, ok := ast.Unparen(n.Rhs[0]).(*ast.UnaryExpr)
			if !ok || u.Op != token.ARROW || w.isWaitRecv(u.X) || w.isConsultRecv(u.X) || isSignalChan(w.info.TypeOf(u.X)) {
				return true
			}
			for _, l := range n.Lhs {
				if id, ok := l.(*ast.Ident); !ok || id.Name != "_" {
					found = true
				}
			}
		}
		return true
	})
	return found
}

// underErrorCheck reports whether the jump sits inside an if statement
// that tests an error: a goto retry jumps back on failure.
func (w *walker) underErrorCheck(stmts []ast.Stmt, jump ast.Node) bool {
	found := false
	var visit func(n ast.Node, underErr bool)
	visit = func(n ast.Node, underErr bool) {
		ast.Inspect(n, func(m ast.Node) bool {
			if found || m == nil {
				return false
			}
			if m == jump {
				found = underErr
				return false
			}
			if !(m.Pos() <= jump.Pos() && jump.End() <= m.End()) {
				return false
			}
			if ifs, ok := m.(*ast.IfStmt); ok && ifs.Body.Pos() <= jump.Pos() && jump.End() <= ifs.Body.End() {
				e := underErr || w.mentionsError(ifs.Cond)
				visit(ifs.Body, e)
				return false
			}
			return true
		})
	}
	for _, st := range stmts {
		visit(st, false)
	}
	return found
}

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
