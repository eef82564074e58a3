package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/analyzers/internal/astq"
	"golang.org/x/tools/go/types/typeutil"
)

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
			if c, ok := ast.Unparen(r).(*ast.CallExpr); ok && f.w.picksFromList(c) {
				// the next address of a rotation (ns := r.nextNameserver())
				f.changing[o] = true
			}
			if v, ok := o.(*types.Var); ok && isInt(v.Type()) && (as.Tok == token.ADD_ASSIGN || as.Tok == token.SUB_ASSIGN ||
				as.Tok == token.ASSIGN && astq.RefersTo(info, r, v)) {
				f.changing[v] = true
			}
			// A name walked up or trimmed (name = parent(name), the
			// next label of a domain): each pass works on the next one.
			if v, ok := o.(*types.Var); ok && isString(v.Type()) && as.Tok == token.ASSIGN && astq.RefersTo(info, r, v) {
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
	if !f.w.follows("dependsOn", e) {
		return false
	}
	defer f.w.unfollows("dependsOn", e)
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

// gotoFailover reports whether every jump back to the label first moves
// an operation's argument to something else (mode = SSLModeDisable; goto
// restart): each attempt targets another configuration, which is
// failover, not retry (SPEC). A move to a constant under a guard that
// does not read the moved variable (if c.cfg.Prefer { tsa = Any; goto
// restartAll }) moves it once: every later jump tries the same again.
func (w *walker) gotoFailover(rest []ast.Stmt, lbl *types.Label, ops map[*ast.CallExpr]bool) bool {
	jumps, moved := 0, 0
	var visit func(list []ast.Stmt, guard ast.Expr)
	visit = func(list []ast.Stmt, guard ast.Expr) {
		for i, st := range list {
			if b, ok := st.(*ast.BranchStmt); ok && b.Tok == token.GOTO && b.Label != nil && w.info.Uses[b.Label] == lbl {
				jumps++
				if w.movesArgument(list[:i], ops, guard) {
					moved++
				}
				continue
			}
			ast.Inspect(st, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncLit:
					return false
				case *ast.IfStmt:
					if n.Init != nil {
						visit([]ast.Stmt{n.Init}, nil)
					}
					visit(n.Body.List, n.Cond)
					if n.Else != nil {
						visit([]ast.Stmt{n.Else}, nil)
					}
					return false
				case *ast.BlockStmt:
					visit(n.List, nil)
					return false
				case *ast.CaseClause:
					visit(n.Body, nil)
					return false
				case *ast.CommClause:
					visit(n.Body, nil)
					return false
				}
				return true
			})
		}
	}
	visit(rest, nil)
	return jumps > 0 && moved == jumps
}

// movesArgument reports whether the statements assign a variable that an
// operation takes as an argument, to a value that differs from round to
// round: not a constant, or one the jump's guard tests (a one-way
// fallback).
func (w *walker) movesArgument(stmts []ast.Stmt, ops map[*ast.CallExpr]bool, guard ast.Expr) bool {
	for _, st := range stmts {
		if inc, ok := st.(*ast.IncDecStmt); ok {
			if v, ok := w.info.Uses[identOf(inc.X)].(*types.Var); ok && w.argOf(v, ops) {
				return true // mode++: another each time
			}
			continue
		}
		as, ok := st.(*ast.AssignStmt)
		if !ok || as.Tok == token.DEFINE {
			continue
		}
		for i, l := range as.Lhs {
			id, ok := l.(*ast.Ident)
			if !ok {
				continue
			}
			v, ok := w.info.Uses[id].(*types.Var)
			if !ok || !w.argOf(v, ops) {
				continue
			}
			once := len(as.Rhs) == len(as.Lhs) && as.Tok == token.ASSIGN && w.info.Types[as.Rhs[i]].Value != nil &&
				guard != nil && !astq.RefersTo(w.info, guard, v)
			if !once {
				return true
			}
		}
	}
	return false
}

// argOf reports whether one of ops takes v in an argument.
func (w *walker) argOf(v *types.Var, ops map[*ast.CallExpr]bool) bool {
	for op := range ops {
		for _, a := range op.Args {
			if astq.RefersTo(w.info, a, v) {
				return true
			}
		}
	}
	return false
}

// receivesWork reports whether a loop body takes a value from a channel
// (x := <-jobs): a worker loop, whose every iteration handles a new item,
// not a retry. A select case that receives a value is a worker of its
// own: its operations (case m := <-in: handle(m)) leave ops, and the
// operations of the other cases may still be retried (a resync on a
// timer's case); a case whose value no remaining operation reads (case
// err = <-errChan: log it) feeds no attempt, one whose value an
// operation after the select reads feeds every round.
func (w *walker) receivesWork(body *ast.BlockStmt, ops map[*ast.CallExpr]bool) bool {
	found := false
	inCase := map[ast.Stmt]bool{}
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
		case *ast.CommClause:
			if as, ok := n.Comm.(*ast.AssignStmt); ok && w.workRecv(as) {
				inCase[as] = true
				dropOps(n.Body, ops)
				// case job = <-jobs: then handle(job) after the select:
				// the item feeds the operations of every round.
				found = w.feedsOps(as, ops)
			}
		case *ast.AssignStmt:
			found = !inCase[n] && w.workRecv(n)
		}
		return true
	})
	return found || len(ops) == 0
}

// workRecv reports whether an assignment takes a value from a channel
// that is no timer, stop or signal channel (job := <-jobs).
func (w *walker) workRecv(n *ast.AssignStmt) bool {
	if len(n.Rhs) != 1 {
		return false
	}
	u, ok := ast.Unparen(n.Rhs[0]).(*ast.UnaryExpr)
	if !ok || u.Op != token.ARROW || w.isWaitRecv(u.X) || w.isConsultRecv(u.X) || isSignalChan(w.info.TypeOf(u.X)) {
		return false
	}
	for _, l := range n.Lhs {
		if id, ok := l.(*ast.Ident); !ok || id.Name != "_" {
			return true
		}
	}
	return false
}

// feedsOps reports whether one of ops reads a variable the assignment
// as receives into.
func (w *walker) feedsOps(as *ast.AssignStmt, ops map[*ast.CallExpr]bool) bool {
	for _, l := range as.Lhs {
		id := identOf(l)
		if id == nil || id.Name == "_" {
			continue
		}
		obj := w.info.ObjectOf(id)
		if obj == nil {
			continue
		}
		for op := range ops {
			if astq.RefersTo(w.info, op, obj) {
				return true
			}
		}
	}
	return false
}

// identOf returns e as an identifier, or nil.
func identOf(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}

// dropOps removes the operations stmts call from ops.
func dropOps(stmts []ast.Stmt, ops map[*ast.CallExpr]bool) {
	for _, st := range stmts {
		ast.Inspect(st, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				delete(ops, c)
			}
			return true
		})
	}
}

// poolFailover reports whether a loop of the standard library retries at
// once on driver.ErrBadConn: by the driver contract that error says the
// pooled connection is dead and the pool takes another, so database/sql's
// own retry runs each attempt on a different connection, a failover (see
// inGOROOT). The same loop in application code stays a retry: the SPEC
// corpus flags it (testdata/corpus store.exec).
func (w *walker) poolFailover(site *Site, body *ast.BlockStmt) bool {
	return len(site.Waits) == 0 && w.inGOROOT() && w.badConnRetry(body)
}

// badConnRetry reports whether a loop tests its failure for
// driver.ErrBadConn.
func (w *walker) badConnRetry(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found {
			return false
		}
		if e, ok := n.(ast.Expr); ok {
			if v, ok := w.usedObj(e).(*types.Var); ok && v.Pkg() != nil && v.Pkg().Path() == "database/sql/driver" && v.Name() == "ErrBadConn" {
				found = true
			}
		}
		return !found
	})
	return found
}

func isString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// spinsOn reports whether a consume loop that calls op again at once
// after its failure spins on op: the loop may not block on a channel
// (what it waits for is not seen), does not go on after a timeout the
// call waited out, and op is not fed by another operation of the round
// (conn := l.Accept(); handshake(conn): each round handles a new item).
func (w *walker) spinsOn(loop ast.Stmt, op *ast.CallExpr, ops map[*ast.CallExpr]bool) bool {
	return loop != nil && !w.testsTimeout(loop) && !w.blocks(loop) && !w.fedInRound(loop, op, ops)
}

// testsTimeout reports whether loop asks whether an error is a timeout
// (net.Error's Timeout, os.IsTimeout, os.ErrDeadlineExceeded): a read
// under a deadline that goes on after one has waited out the deadline.
func (w *walker) testsTimeout(loop ast.Stmt) bool {
	found := false
	ast.Inspect(loop, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			found = found || w.isTimeoutTest(n)
		case *ast.SelectorExpr:
			if v, ok := w.info.Uses[n.Sel].(*types.Var); ok && v.Pkg() != nil {
				p := v.Pkg().Path() + "." + v.Name()
				found = found || p == "os.ErrDeadlineExceeded" || p == "context.DeadlineExceeded"
			}
		}
		return !found
	})
	return found
}

// blocks reports whether loop may block on a channel: a select with no
// default, or a receive outside one with a default. What it waits for
// is not seen, so a round through it may wait.
func (w *walker) blocks(loop ast.Stmt) bool {
	found := false
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SelectStmt:
			for _, c := range n.Body.List {
				if c.(*ast.CommClause).Comm == nil {
					// With a default it does not block: only its
					// cases' bodies may.
					for _, c := range n.Body.List {
						for _, st := range c.(*ast.CommClause).Body {
							ast.Inspect(st, visit)
						}
					}
					return false
				}
			}
			found = true
		case *ast.UnaryExpr:
			found = found || n.Op == token.ARROW
		case *ast.RangeStmt:
			found = found || isChan(w.info.TypeOf(n.X))
		}
		return !found
	}
	ast.Inspect(loop, visit)
	return found
}

// isTimeoutTest reports whether call asks whether an error is a
// timeout: os.IsTimeout, or a Timeout method of a net or os error type
// (net.Error, *net.OpError, *os.SyscallError).
func (w *walker) isTimeoutTest(call *ast.CallExpr) bool {
	fn := astq.Callee(w.info, call)
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	switch fn.Pkg().Path() {
	case "os":
		return fn.Name() == "IsTimeout" || fn.Name() == "Timeout"
	case "net":
		return fn.Name() == "Timeout"
	}
	return false
}

// fedInRound reports whether op reads a variable the loop's round
// defines from another operation's result or an accepted connection,
// directly or through other such variables (tc := tls.Server(conn, cfg) after conn, err :=
// l.Accept()).
func (w *walker) fedInRound(loop ast.Stmt, op *ast.CallExpr, ops map[*ast.CallExpr]bool) bool {
	defs := map[types.Object]ast.Expr{}
	ast.Inspect(loop, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) && len(as.Rhs) != 1 {
			return true
		}
		for i, l := range as.Lhs {
			if id := identOf(l); id != nil {
				if o := w.info.ObjectOf(id); o != nil && loop.Pos() < o.Pos() && o.Pos() < loop.End() {
					defs[o] = as.Rhs[min(i, len(as.Rhs)-1)]
				}
			}
		}
		return true
	})
	seen := map[types.Object]bool{}
	var fed func(e ast.Node, depth int) bool
	fed = func(e ast.Node, depth int) bool {
		if !w.follows("fed", e) {
			return false
		}
		defer w.unfollows("fed", e)
		found := false
		ast.Inspect(e, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.CallExpr:
				if n != op && (ops[n] || acceptsOwn(astq.Callee(w.info, n))) {
					found = true
				}
			case *ast.Ident:
				o := w.info.Uses[n]
				if rhs := defs[o]; rhs != nil && !seen[o] && depth < 3 {
					seen[o] = true
					found = fed(rhs, depth+1)
				}
			}
			return !found
		})
		return found
	}
	for _, a := range op.Args {
		if fed(a, 0) {
			return true
		}
	}
	if sel, ok := ast.Unparen(op.Fun).(*ast.SelectorExpr); ok {
		return fed(sel.X, 0)
	}
	return false
}

// picksFromList reports whether c calls a function of this package that
// returns an element of a list chosen by what the call does not hand it:
// an index made from its receiver's state, a counter or a random number,
// not from its parameters or a constant (r.servers[r.next], a rotation or
// a random pick). Each call may hand back another element.
func (w *walker) picksFromList(c *ast.CallExpr) bool {
	fn, _ := typeutil.Callee(w.info, c).(*types.Func)
	decl := w.decls[fn]
	if decl == nil || decl.Body == nil {
		return false
	}
	params := map[types.Object]bool{}
	for _, fl := range decl.Type.Params.List {
		for _, n := range fl.Names {
			params[w.info.Defs[n]] = true
		}
	}
	picks := func(e ast.Expr) bool {
		ix, ok := ast.Unparen(e).(*ast.IndexExpr)
		if !ok {
			return false
		}
		switch w.info.TypeOf(ix.X).Underlying().(type) {
		case *types.Slice, *types.Array:
		default:
			return false
		}
		if tv, ok := w.info.Types[ix.Index]; !ok || tv.Value != nil {
			return false
		}
		fromParam := false
		ast.Inspect(ix.Index, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && params[w.info.Uses[id]] {
				fromParam = true
			}
			return !fromParam
		})
		return !fromParam
	}
	// locals assigned such an element, then returned
	picked := map[types.Object]bool{}
	found := false
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			if len(n.Lhs) == len(n.Rhs) {
				for i, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok && picks(n.Rhs[i]) {
						picked[w.info.ObjectOf(id)] = true
					}
				}
			}
		case *ast.ReturnStmt:
			for _, r := range n.Results {
				if id, ok := ast.Unparen(r).(*ast.Ident); ok && picked[w.info.Uses[id]] || picks(r) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}
