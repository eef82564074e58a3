package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/retrylint/retrylint/analyzers/internal/astq"
)

// What the walks decide: the operations a candidate retries, whether it
// is a consume loop, the waits on the retrying paths, and each retried
// operation's flow (how its success and failure paths end).

// simulate walks the body under success and under each op's failure.
func (w *walker) simulate(s *sim, stmts []ast.Stmt) *Site {
	s.kept = keptOps(&ast.BlockStmt{List: stmts}, s.ops)
	for op := range s.ops {
		if w.swallows(op) || w.rearmedOnFail(op) != nil {
			s.kept[op] = true // its failure is its own wait, or chooses one
		}
	}
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
	// No success leaves and no round can wait: only a consume loop's
	// error that calls a remote operation again at once can be a retry
	// (tryFailure would find nothing else, and no check reports local
	// work called again), so only those walks are taken.
	atOnceOnly := !w.mayWait(s, stmts) && !slices.ContainsFunc(sortedOps(s.ops), func(op *ast.CallExpr) bool {
		return s.kept[op] && !succ.onlyAborts(op) && succ.exits(op)
	})
	r := &retries{w: w, loop: s.loop, succ: succ, successWaits: succ.waitsRound(), waits: map[ast.Node]bool{}}
	// In source order: what one walk leaves in s and r must not depend
	// on map order.
	for _, op := range sortedOps(s.ops) {
		if !s.kept[op] || succ.onlyAborts(op) {
			continue // its outcome is discarded, or success is the failure
		}
		if atOnceOnly {
			if w.isRemoteCall(op) {
				r.tryFailure(s, stmts, op, modeErr, false)
			}
			continue
		}
		exits := succ.exits(op)
		if exits && s.loop != nil && succ.onlyByContent(op) && (w.endsOnEmpty(s.loop, op) || w.endsOnSentinel(s.loop, op)) {
			// Leaving when the call hands back nothing, or at a
			// stream's sentinel, is the end of a stream read or
			// drained, not a success after failures.
			exits = false
		}
		for _, mode := range []opMode{modeErr, modeStatus} {
			if mode == modeStatus && !w.returnsResponse(op) {
				continue
			}
			r.tryFailure(s, stmts, op, mode, exits)
		}
	}
	if len(r.retried) == 0 {
		if atOnceOnly {
			return nil
		}
		op := w.contentAtOnce(s, succ)
		if op == nil {
			return nil
		}
		r.retried, r.anySuccessExit = []*ast.CallExpr{op}, true
	}
	site := &Site{Consume: !r.anySuccessExit, StatusRetry: r.statusRetry}
	slices.SortFunc(r.retried, func(a, b *ast.CallExpr) int { return int(a.Pos() - b.Pos()) })
	site.Ops = r.retried
	site.Flows = r.flows(site.Ops)
	site.Ctx.Consulted = r.consult
	site.Waits = w.siteWaits(s, r.waits, r.chosen)
	return site
}

// contentAtOnce returns the remote operation a loop calls again at once
// because of what its result says (a false ok: the server handed back
// the token just rejected), when a success that the content decides
// leaves and another goes round with no wait, the same call again: its
// arguments unchanged in the loop. A poll waits between its calls; one
// that does not is not waiting for a condition.
func (w *walker) contentAtOnce(s *sim, succ successPaths) *ast.CallExpr {
	if s.loop == nil || s.headWait != nil {
		return nil
	}
	for _, op := range sortedOps(s.ops) {
		if !s.kept[op] || !succ.roundsByContent(op) || !succ.exits(op) || !w.isRemoteCall(op) {
			continue
		}
		if !w.argsMoved(s.loop, op) && w.discardsResult(s.loop, op) && !w.endsOnEmpty(s.loop, op) &&
			!w.endsOnSentinel(s.loop, op) && !w.blocks(s.loop) {
			return op
		}
	}
	return nil
}

// roundsByContent reports whether a success of op goes round with no
// wait, sent by what op handed back.
func (succ successPaths) roundsByContent(op *ast.CallExpr) bool {
	for _, p := range succ {
		if p.out == outNext && p.observed[op] && p.decided && p.byContent == op && len(p.waits) == 0 {
			return true
		}
	}
	return false
}

// discardsResult reports whether the loop reads op's results only to
// decide (in if conditions) or on a branch that leaves: a round that
// goes on with them (deleted += n, a page's items) makes progress, a
// batch at a time, and is no retry.
func (w *walker) discardsResult(loop ast.Stmt, op *ast.CallExpr) bool {
	results := map[types.Object]bool{}
	var def *ast.AssignStmt
	ast.Inspect(loop, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok && len(as.Rhs) == 1 && ast.Unparen(as.Rhs[0]) == op {
			def = as
			for _, l := range as.Lhs {
				if id := identOf(l); id != nil && id.Name != "_" {
					if o := w.info.ObjectOf(id); o != nil && !isErrorType(o.Type()) {
						results[o] = true
					}
				}
			}
		}
		return def == nil
	})
	if def == nil {
		return false
	}
	kept := true
	var visit func(n ast.Node, leaving bool)
	visit = func(n ast.Node, leaving bool) {
		ast.Inspect(n, func(m ast.Node) bool {
			switch m := m.(type) {
			case *ast.AssignStmt:
				if m == def {
					return false
				}
			case *ast.IfStmt:
				if m.Init != nil {
					visit(m.Init, leaving)
				}
				visit(m.Body, leaving || w.leaves(m.Body))
				if m.Else != nil {
					b, ok := m.Else.(*ast.BlockStmt)
					visit(m.Else, leaving || ok && w.leaves(b))
				}
				return false
			case *ast.Ident:
				if !leaving && results[w.info.Uses[m]] {
					kept = false
				}
			}
			return kept
		})
	}
	visit(loop, false)
	return kept
}

// resultVars returns the variables the loop assigns op's results to,
// its error aside.
func (w *walker) resultVars(loop ast.Stmt, op *ast.CallExpr) (map[types.Object]bool, types.Object) {
	results := map[types.Object]bool{}
	var errVar types.Object
	ast.Inspect(loop, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok && len(as.Rhs) == 1 && ast.Unparen(as.Rhs[0]) == op {
			for _, l := range as.Lhs {
				if id := identOf(l); id != nil && id.Name != "_" {
					if o := w.info.ObjectOf(id); o != nil && isErrorType(o.Type()) {
						errVar = o
					} else if o != nil {
						results[o] = true
					}
				}
			}
		}
		return true
	})
	return results, errVar
}

// endsOnEmpty reports whether the loop leaves when op hands back nothing
// (if n == 0 { return }, else if res == nil { break }): it goes round
// while there is more, a batch or a stream at a time, not a retry.
func (w *walker) endsOnEmpty(loop ast.Stmt, op *ast.CallExpr) bool {
	results, _ := w.resultVars(loop, op)
	found := false
	ast.Inspect(loop, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IfStmt:
			else_, _ := n.Else.(*ast.BlockStmt)
			switch {
			case w.leaves(n.Body):
				found = found || w.emptyTest(n.Cond, results, token.EQL)
			case else_ != nil && w.leaves(else_):
				found = found || w.emptyTest(n.Cond, results, token.NEQ)
			}
		}
		return !found
	})
	return found
}

// emptyTest reports whether cond compares a result (or its length or a
// field of it) with a zero value (0, "", nil) by op.
func (w *walker) emptyTest(cond ast.Expr, results map[types.Object]bool, op token.Token) bool {
	b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || b.Op != op {
		return false
	}
	zero := func(e ast.Expr) bool {
		if astq.IsNil(w.info, e) {
			return true
		}
		tv := w.info.Types[e]
		return tv.Value != nil && (tv.Value.ExactString() == "0" || tv.Value.ExactString() == `""`)
	}
	reads := func(e ast.Expr) bool {
		found := false
		ast.Inspect(e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && results[w.info.Uses[id]] {
				found = true
			}
			return !found
		})
		return found
	}
	return reads(b.X) && zero(b.Y) || reads(b.Y) && zero(b.X)
}

// endsOnSentinel reports whether the loop compares op's error with a
// package's error variable (err == iterator.Done, errors.Is(err,
// io.EOF)): the end of a stream the call reads, item by item.
func (w *walker) endsOnSentinel(loop ast.Stmt, op *ast.CallExpr) bool {
	_, errVar := w.resultVars(loop, op)
	if errVar == nil {
		return false
	}
	found := false
	ast.Inspect(loop, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if n.Op == token.EQL || n.Op == token.NEQ {
				found = found || astq.IsVar(w.info, n.X, errVar) && w.isSentinel(n.Y) || astq.IsVar(w.info, n.Y, errVar) && w.isSentinel(n.X)
			}
		case *ast.CallExpr:
			if astq.IsFunc(astq.Callee(w.info, n), "errors.Is") && len(n.Args) == 2 {
				found = found || astq.IsVar(w.info, n.Args[0], errVar) && w.isSentinel(n.Args[1])
			}
		}
		return !found
	})
	return found
}

// argsMoved reports whether the loop assigns a variable op reads in its
// arguments or receiver: the next call is another (a page cursor moved
// on, an endpoint advanced, a range over items).
func (w *walker) argsMoved(loop ast.Stmt, op *ast.CallExpr) bool {
	read := map[types.Object]bool{}
	ast.Inspect(op, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := w.info.Uses[id].(*types.Var); ok {
				read[v] = true
			}
		}
		return true
	})
	moved := false
	ast.Inspect(loop, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if id := identOf(l); id != nil && read[w.info.ObjectOf(id)] {
					moved = true
				}
			}
		case *ast.IncDecStmt:
			if id := identOf(n.X); id != nil && read[w.info.ObjectOf(id)] {
				moved = true
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if id := identOf(e); id != nil && read[w.info.ObjectOf(id)] {
					moved = true
				}
			}
		}
		return !moved
	})
	return moved
}

// mayWait reports whether a path through stmts can wait: a round that
// starts with a wait, an operation that waits when it fails, or a wait
// call or receive anywhere in them (outside function literals), as the
// walk records them.
func (w *walker) mayWait(s *sim, stmts []ast.Stmt) bool {
	if s.headWait != nil {
		return true
	}
	for op := range s.ops {
		if w.swallows(op) {
			return true
		}
	}
	found := false
	for _, st := range stmts {
		ast.Inspect(st, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.CallExpr:
				found = found || w.isWaitCall(n)
			case *ast.UnaryExpr:
				found = found || n.Op == token.ARROW && w.isWaitRecv(n.X)
			}
			return !found
		})
	}
	return found
}

// successPaths are the paths of the walk under success.
type successPaths []*path

// exits reports whether success of op can leave the site: a path that
// tested op's outcome and left, not by cancellation or abort.
func (succ successPaths) exits(op *ast.CallExpr) bool {
	for _, p := range succ {
		if p.out == outExit && !p.abort && p.observed[op] && p.successDriven() && (p.byContent == nil || p.byContent == op) {
			return true
		}
	}
	return false
}

// onlyByContent reports whether every success exit of op was decided by
// what it handed back, not by its error.
func (succ successPaths) onlyByContent(op *ast.CallExpr) bool {
	for _, p := range succ {
		if p.out == outExit && !p.abort && p.observed[op] && p.successDriven() && p.byContent == nil {
			return false
		}
	}
	return true
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
		if p.out == outNext && !p.held {
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
	// failEnds are how the failure walks of each operation ended.
	failEnds map[*ast.CallExpr][]End
}

// tryFailure walks the body under op's failure in mode and records op as
// retried when the failure comes round again.
func (r *retries) tryFailure(s *sim, stmts []ast.Stmt, op *ast.CallExpr, mode opMode, exits bool) {
	s.fail, s.mode, s.seenFail, s.ambiguous = op, mode, false, false
	ps := s.run(stmts)
	if mode == modeStatus && s.seenFail && s.ambiguous {
		r.statusRetry = true // a status test that may let a failure go round
	}
	if s.overflow || !s.seenFail {
		return
	}
	if mode == modeErr {
		r.recordEnds(op, ps)
	}
	if s.ambiguous {
		return
	}
	fp := failurePaths{ps: ps, op: op, mode: mode}
	if fp.pollsRound() {
		r.statusRetry = true
	}
	comesRound, withWait := fp.comesRound(r)
	// A consume loop (success goes on) is a retry only where its
	// error branch calls again: after a wait of its own, or at once
	// (hot while the dependency is down), unless the failure it tests
	// is a timeout the call itself waited out.
	if !comesRound || !exits && !withWait && !(fp.atOnce() && r.w.spinsOn(r.loop, op, s.ops)) {
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

// recordEnds keeps how the paths of a walk under op's error ended.
func (r *retries) recordEnds(op *ast.CallExpr, ps []*path) {
	if r.failEnds == nil {
		r.failEnds = map[*ast.CallExpr][]End{}
	}
	r.failEnds[op] = appendEnds(r.failEnds[op], ps, nil)
}

// appendEnds appends how the paths ended; with op, an exit its success
// decided is marked so (successPaths.exits).
func appendEnds(ends []End, ps []*path, op *ast.CallExpr) []End {
	for _, p := range ps {
		e := End{Pos: p.stop, Leaves: p.out == outExit}
		if op != nil {
			e.Decided = e.Leaves && !p.abort && p.observed[op] && p.successDriven() && (p.byContent == nil || p.byContent == op)
		}
		if !slices.Contains(ends, e) {
			ends = append(ends, e)
		}
	}
	return ends
}

// flows returns the flow of each retried operation whose failure was
// walked, in the order of ops.
func (r *retries) flows(ops []*ast.CallExpr) []*Flow {
	out := make([]*Flow, len(ops))
	for i, op := range ops {
		if fe, ok := r.failEnds[op]; ok {
			out[i] = &Flow{Op: op, Success: appendEnds(nil, r.succ, op), Failure: fe}
		}
	}
	return out
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

// atOnce reports whether an error, tested, sends a path round again
// with no wait at all: by a jump (continue), not by falling through the
// round as success does (errors ignored, or only logged).
func (fp failurePaths) atOnce() bool {
	if fp.mode != modeErr {
		return false
	}
	for _, p := range fp.ps {
		if fp.roundOnFailure(p) && len(p.waits) == 0 && p.jumped {
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
	v, timer := r.w.waitTimerVar(wn), true
	if v == nil {
		v, timer = r.w.waitDelayVar(wn), false
	}
	x := p.delays[v]
	if x == nil || x == timerHanded || !r.w.assignedAfter(v, wn, r.loop) {
		return nil
	}
	seen := false
	for _, sp := range r.succ {
		if sp.out != outNext || !slices.Contains(sp.waits, wn) {
			continue
		}
		y := sp.delays[v]
		if y == timerHanded {
			return nil // what success arms is unknown
		}
		if y == nil && timer {
			// A timer success does not re-arm does not fire for it
			// again: only the failure's delay brings the case round.
			seen = true
			continue
		}
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

func (w *walker) returnsResponse(call *ast.CallExpr) bool {
	tup, ok := w.info.TypeOf(call).(*types.Tuple)
	return ok && tup.Len() >= 2 && isResponse(tup.At(0).Type()) && isErrorType(tup.At(tup.Len()-1).Type())
}

// isResponse reports whether t is *http.Response or a client library's
// own response (a pointer to a struct with an integer StatusCode field,
// sendgrid's *rest.Response): its status can name a failure.
func isResponse(t types.Type) bool {
	if astq.IsNamed(t, "net/http", "Response") {
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
