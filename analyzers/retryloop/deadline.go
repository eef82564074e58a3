package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/retrylint/retrylint/analyzers/internal/astq"
)

// describeContext finds the context and stop channel in scope and the
// deadline the attempts run under.
func (w *walker) describeContext(site *Site, fs *fnScope, node ast.Node) {
	best, stop := w.contextInScope(fs, node.Pos())
	// A closure sees its enclosing function's context too: a parameter,
	// or a local declared before the literal (ctx := s.ctx; go func() {
	// for { … } }()).
	if best == nil {
		if outer := w.enclosingOf(fs.node); outer != nil {
			best, _ = w.contextInScope(outer, fs.node.Pos())
		}
	}
	if stop == nil {
		stop = w.stopField(fs, node)
	}
	site.Ctx.InScope, site.Ctx.StopChan = best, stop
	site.Ctx.Attempts = w.attemptsDeadline(site, fs)
	if w.perAttemptTimeout(node) {
		site.Ctx.AttemptTimeout = true
	}
}

// contextInScope returns the context and the stop channel declared last
// before pos, as parameters or in the body, and in scope at pos.
func (w *walker) contextInScope(fs *fnScope, pos token.Pos) (best, stop *types.Var) {
	consider := func(v *types.Var) {
		if v == nil || v.Pos() > pos || (v.Parent() != nil && !v.Parent().Contains(pos)) {
			return
		}
		if isContextType(v.Type()) && (best == nil || v.Pos() > best.Pos()) {
			best = v
		}
		if isStopChan(v.Type()) && (stop == nil || v.Pos() > stop.Pos()) {
			stop = v
		}
	}
	if fs.typ.Params != nil {
		for _, f := range fs.typ.Params.List {
			for _, n := range f.Names {
				v, _ := w.info.Defs[n].(*types.Var)
				consider(v)
			}
		}
	}
	ast.Inspect(fs.body, func(n ast.Node) bool {
		if n == nil || n.Pos() > pos {
			return false
		}
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := w.info.Defs[id].(*types.Var); ok {
				consider(v)
			}
		}
		return true
	})
	return best, stop
}

// attemptsDeadline is the deadline the attempts run under: the first
// operation's, raised by any later one with a firmer deadline, though no
// deadline never replaces one.
func (w *walker) attemptsDeadline(site *Site, fs *fnScope) Deadline {
	dl := DeadlineUnknown
	first := true
	for _, op := range site.Ops {
		d, ok := w.opDeadline(site, op, fs)
		if !ok {
			continue
		}
		if first {
			dl, first = d, false
			continue
		}
		if (d > dl || dl == DeadlineNone) && !(d == DeadlineNone && dl != DeadlineNone) {
			dl = d
		}
	}
	return dl
}

// perAttemptTimeout reports whether the site sets a timeout or deadline
// of its own (a per-attempt WithTimeout inside it).
func (w *walker) perAttemptTimeout(node ast.Node) bool {
	found := false
	ast.Inspect(node, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && astq.IsFunc(astq.Callee(w.info, c), "context.WithTimeout", "context.WithDeadline", "context.WithTimeoutCause", "context.WithDeadlineCause") {
			found = true
		}
		return true
	})
	return found
}

// enclosingOf finds the function scope enclosing a function literal.
func (w *walker) enclosingOf(n ast.Node) *fnScope {
	lit, ok := n.(*ast.FuncLit)
	if !ok {
		return nil
	}
	for _, d := range w.decls {
		if d.Body != nil && d.Pos() <= lit.Pos() && lit.End() <= d.End() {
			return &fnScope{node: d, body: d.Body, typ: d.Type}
		}
	}
	return nil
}

// opDeadline classifies the deadline one operation runs under; ok is false
// when the operation says nothing about it.
func (w *walker) opDeadline(site *Site, op *ast.CallExpr, fs *fnScope) (Deadline, bool) {
	if d, ok := w.literalDeadline(site, op, fs); ok {
		return d, true
	}
	fn := astq.Callee(w.info, op)
	// A context argument.
	for _, a := range op.Args {
		if w.isContextExpr(a) {
			d := w.ctxDeadline(site, a, fs, 0)
			return d, true
		}
	}
	switch {
	case astq.IsFunc(fn, "net/http.Get", "net/http.Head", "net/http.Post", "net/http.PostForm"):
		return DeadlineNone, true
	case astq.IsFunc(fn, "net/http.Client.Do", "net/http.Client.Get", "net/http.Client.Head", "net/http.Client.Post", "net/http.Client.PostForm"):
		timeout := w.clientTimeout(op, fs)
		if timeout == Yes {
			site.Ctx.AttemptTimeout = true
			return DeadlineSet, true
		}
		if astq.IsFunc(fn, "net/http.Client.Do") && len(op.Args) == 1 {
			if b := w.requestBuild(op.Args[0], fs); b != nil {
				if astq.IsFunc(astq.Callee(w.info, b), "net/http.NewRequestWithContext") && len(b.Args) > 0 {
					return w.ctxDeadline(site, b.Args[0], fs, 0), true
				}
				if timeout == No {
					return DeadlineNone, true
				}
			}
			return DeadlineUnknown, true
		}
		if timeout == No {
			return DeadlineNone, true
		}
		return DeadlineUnknown, true
	case astq.IsFunc(fn, "net.Dial", "net.DialTCP", "net.DialUDP", "net.DialUnix", "crypto/tls.Dial",
		"net/smtp.Dial", "net/smtp.SendMail", "net/rpc.Dial", "net/rpc.DialHTTP"): // no timeout, no context
		return DeadlineNone, true
	case astq.IsFunc(fn, "net.DialTimeout"):
		site.Ctx.AttemptTimeout = true
		return DeadlineSet, true
	case fn != nil && pkgPath(fn) == "database/sql" && fn.Type().(*types.Signature).Recv() != nil &&
		astq.IsNamed(fn.Type().(*types.Signature).Recv().Type(), "database/sql", "Tx"):
		// tx.Commit(), tx.Exec(q): a transaction runs under the context
		// it was begun with (BeginTx), which ends it when done; which
		// one, is not traced here.
		return DeadlineUnknown, true
	case fn != nil && pkgPath(fn) == "database/sql" && sqlRemote(fn.Name()) && !strings.HasSuffix(fn.Name(), "Context") && fn.Name() != "Conn":
		// db.Ping(), db.QueryRow(q): database/sql runs them under
		// context.Background().
		return DeadlineNone, true
	}
	if f := w.factOf(fn); f != nil && f.NoDeadline {
		return DeadlineNone, true // its remote calls run under none
	}
	return DeadlineUnknown, false
}

// literalDeadline judges an operation that runs a function literal (an
// immediately called one, or a closure assigned once here) by the remote
// calls in it: context.TODO() made there, or db.Ping(), has no deadline.
func (w *walker) literalDeadline(site *Site, op *ast.CallExpr, fs *fnScope) (Deadline, bool) {
	lit := w.opLiteral(op.Fun)
	if lit == nil {
		return DeadlineUnknown, false
	}
	d, ok := w.litAttempts(site, lit, fs)
	return d, ok && d != DeadlineUnknown
}

// opLiteral returns the function literal e is, or the closure assigned
// once in this function that e names, or nil.
func (w *walker) opLiteral(e ast.Expr) *ast.FuncLit {
	if lit, ok := ast.Unparen(e).(*ast.FuncLit); ok {
		return lit
	}
	return w.localFunc(e)
}

// litAttempts is the deadline each attempt of a function literal runs
// under, judged in the literal by its remote calls (ok false when it makes
// none); their context-less Background and per-attempt timeouts are
// recorded on site.
func (w *walker) litAttempts(site *Site, lit *ast.FuncLit, fs *fnScope) (Deadline, bool) {
	var remote []*ast.CallExpr
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		if _, nested := n.(*ast.FuncLit); nested {
			return false
		}
		if c, ok := n.(*ast.CallExpr); ok && w.isRemoteCall(c) {
			remote = append(remote, c)
		}
		return true
	})
	if len(remote) == 0 {
		return DeadlineUnknown, false
	}
	probe := &Site{Ops: remote}
	d := w.attemptsDeadline(probe, &fnScope{node: lit, body: lit.Body, typ: lit.Type, file: fs.file})
	if site.Ctx.BackgroundCall == nil {
		site.Ctx.BackgroundCall = probe.Ctx.BackgroundCall
	}
	site.Ctx.AttemptTimeout = site.Ctx.AttemptTimeout || probe.Ctx.AttemptTimeout
	return d, true
}

// ctxDeadline classifies a context expression.
func (w *walker) ctxDeadline(site *Site, e ast.Expr, fs *fnScope, depth int) Deadline {
	e = ast.Unparen(e)
	if depth > 6 || !w.follows("ctxDeadline", e) {
		return DeadlineUnknown
	}
	defer w.unfollows("ctxDeadline", e)
	switch e := e.(type) {
	case *ast.CallExpr:
		fn := astq.Callee(w.info, e)
		switch {
		case astq.IsFunc(fn, "context.Background", "context.TODO"):
			if site != nil && site.Ctx.BackgroundCall == nil {
				site.Ctx.BackgroundCall = e
			}
			return DeadlineNone
		case astq.IsFunc(fn, "context.WithTimeout", "context.WithDeadline", "context.WithTimeoutCause", "context.WithDeadlineCause"):
			return DeadlineSet
		case astq.IsFunc(fn, "context.WithCancel", "context.WithValue", "context.WithCancelCause", "context.WithoutCancel"):
			if len(e.Args) > 0 {
				if astq.IsFunc(fn, "context.WithoutCancel") {
					return DeadlineNone
				}
				return w.ctxDeadline(site, e.Args[0], fs, depth+1)
			}
		case astq.IsFunc(fn, "net/http.Request.Context"):
			return DeadlineCaller
		}
		return DeadlineUnknown
	case *ast.Ident:
		v, ok := w.info.Uses[e].(*types.Var)
		if !ok {
			return DeadlineUnknown
		}
		return w.varDeadlineSite(site, v, fs, depth)
	}
	return DeadlineUnknown
}

func (w *walker) varDeadline(v *types.Var, fs *fnScope, depth int) Deadline {
	return w.varDeadlineSite(nil, v, fs, depth)
}

func (w *walker) varDeadlineSite(site *Site, v *types.Var, fs *fnScope, depth int) Deadline {
	if w.isParam(v, fs.typ) {
		return DeadlineCaller
	}
	at := [2]any{v, fs.node}
	if !w.follows("varDeadline", at) {
		return DeadlineUnknown
	}
	defer w.unfollows("varDeadline", at)
	res := DeadlineUnknown
	n := 0
	ast.Inspect(fs.body, func(nd ast.Node) bool {
		as, ok := nd.(*ast.AssignStmt)
		if !ok {
			return true
		}
		for i, l := range as.Lhs {
			if !w.isVar(l, v) {
				continue
			}
			n++
			var r ast.Expr
			if len(as.Rhs) == len(as.Lhs) {
				r = as.Rhs[i]
			} else if len(as.Rhs) == 1 && i == 0 {
				r = as.Rhs[0]
			}
			if r == nil {
				res = DeadlineUnknown
				continue
			}
			d := w.ctxDeadline(site, r, fs, depth+1)
			if n == 1 {
				res = d
			} else if d != res {
				res = DeadlineUnknown
			}
		}
		return true
	})
	if n == 0 {
		// A closure's captured context: judge it in the enclosing function.
		if outer := w.enclosingOf(fs.node); outer != nil {
			return w.varDeadlineSite(site, v, outer, depth+1)
		}
	}
	return res
}

// backgroundArg returns the context.Background or TODO call a context
// argument comes from when it has no deadline (made in the current
// function, or derived from one made there without a timeout), or nil.
func (w *walker) backgroundArg(e ast.Expr) *ast.CallExpr {
	if w.cur == nil {
		return nil
	}
	probe := &Site{}
	if w.ctxDeadline(probe, e, w.cur, 0) != DeadlineNone {
		return nil
	}
	return probe.Ctx.BackgroundCall
}

// stopField returns a stop channel held in a field that the site itself
// mentions (passes it on, receives from it): an input the loop could be
// told to stop by. One the function closes or sends on is its output.
func (w *walker) stopField(fs *fnScope, node ast.Node) *types.Var {
	var field *types.Var
	ast.Inspect(node, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok && field == nil {
			if v, ok := w.info.Uses[sel.Sel].(*types.Var); ok && v.IsField() && isStopChan(v.Type()) {
				field = v
			}
		}
		return field == nil
	})
	if field == nil {
		return nil
	}
	output := false
	ast.Inspect(fs.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SendStmt:
			if sel, ok := ast.Unparen(n.Chan).(*ast.SelectorExpr); ok && w.info.Uses[sel.Sel] == field {
				output = true
			}
		case *ast.CallExpr:
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && id.Name == "close" && len(n.Args) == 1 {
				if _, isBuiltin := w.info.Uses[id].(*types.Builtin); isBuiltin {
					if sel, ok := ast.Unparen(n.Args[0]).(*ast.SelectorExpr); ok && w.info.Uses[sel.Sel] == field {
						output = true
					}
				}
			}
		}
		return !output
	})
	if output {
		return nil
	}
	return field
}
