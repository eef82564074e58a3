package retryloop

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/retrylint/retrylint/analyzers/internal/libmodel"

	"github.com/retrylint/retrylint/analyzers/internal/astq"
)

// ownSites finds every function's own retry sites and library sites,
// exporting the retrier facts of generic helpers first: they judge the
// calls to them.
func (w *walker) ownSites(env *libmodel.Env, fns []*fnScope) []*Site {
	var out []*Site
	for _, fs := range fns {
		w.enter(fs)
		sites := w.findSites(fs)
		libSites := w.librarySites(env, fs)
		r := w.retrierFact(fs, sites)
		if r == nil && fs.obj != nil {
			r = w.libRetrier(fs, libSites) // a helper around a retry library
		}
		if r == nil && fs.obj != nil {
			r = w.pollRetrier(fs) // a helper polling a condition
		}
		rs := w.resendFact(fs, append(slices.Clip(libSites), w.quiet...))
		if r != nil || rs != nil {
			f := w.facts[fs.obj]
			if f == nil {
				f = &FuncFact{}
			}
			f.Retrier, f.Resends = r, rs
			w.facts[fs.obj] = f
			w.pass.ExportObjectFact(fs.obj, f)
		}
		out = append(out, sites...)
		out = append(out, libSites...)
	}
	return out
}

// markOwnRemote: a helper this package passes a remote operation carries
// its one budget finding here (SPEC); callers elsewhere learn it from the
// fact.
func (w *walker) markOwnRemote(sites []*Site) {
	for _, s := range sites {
		if s.Shape != ShapeHelper || s.Remote == nil || len(s.Budget) > 0 {
			continue
		}
		fn := astq.Callee(w.info, s.Node.(*ast.CallExpr))
		if fn == nil {
			continue
		}
		fn = fn.Origin()
		if f := w.facts[fn]; fn.Pkg() == w.pass.Pkg && f != nil && f.Retrier != nil && !f.Retrier.OwnRemote {
			f.Retrier.OwnRemote = true
			w.pass.ExportObjectFact(fn, f)
		}
	}
}

// librarySites turns libmodel's findings in fs into sites.
func (w *walker) librarySites(env *libmodel.Env, fs *fnScope) []*Site {
	var out []*Site
	for _, ls := range libmodel.Sites(env, fs.file, fs.node) {
		// The work a library call retries: its operation, or the call
		// itself when the library sends (a retrying client).
		libRemote := ls.Op == nil || env.Remote(ls.Op)
		// A site without findings is kept when it retries a parameter: a
		// helper wrapping the library, judged at its calls.
		if len(ls.Findings) == 0 && (fs.obj == nil || w.opParam(fs, ls.Op) < 0) {
			w.quiet = append(w.quiet, &Site{
				Shape: ShapeLibrary, Node: ls.Call, Pos: ls.Call.Pos(), End: ls.Call.End(),
				Func: fs.node, File: fs.file, Ops: []*ast.CallExpr{ls.Call},
				Library: ls.Library, LibOp: ls.Op, LibBudgetless: ls.Budgetless, Attempts: ls.Attempts, LibAnyMethod: ls.AnyMethod, LibRemote: libRemote, LibConfig: ls.Config,
			})
			continue
		}
		out = append(out, &Site{
			Shape: ShapeLibrary, Node: ls.Call, Pos: ls.Call.Pos(), End: ls.Call.End(),
			Func: fs.node, File: fs.file, Ops: []*ast.CallExpr{ls.Call},
			Library: ls.Library, LibFindings: ls.Findings, LibOp: ls.Op, LibBudgetless: ls.Budgetless, Attempts: ls.Attempts, LibAnyMethod: ls.AnyMethod,
			LibRemote: libRemote, LibConfig: ls.Config,
		})
	}
	return out
}

// opParam returns the index of the parameter of fs that e names, or -1.
func (w *walker) opParam(fs *fnScope, e ast.Expr) int {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok || e == nil {
		return -1
	}
	v, ok := w.info.Uses[id].(*types.Var)
	if !ok {
		return -1
	}
	return w.paramIndex(v, fs.typ)
}

// libRetrier describes a function that hands a parameter to a retry
// library as the operation (backoff.Retry(ctx, op, opts...)): a generic
// retry helper whose calls are judged through its fact. The library's
// waits and bound are its own: unknown here.
func (w *walker) libRetrier(fs *fnScope, sites []*Site) *RetrierFact {
	for _, s := range sites {
		i := w.opParam(fs, s.LibOp)
		if i < 0 {
			continue
		}
		r := opRetrier(i)
		r.Budget = !s.LibBudgetless
		return r
	}
	return nil
}

// opRetrier is the fact of a helper retrying its parameter i, nothing
// else of it known (its bound and waits its own).
func opRetrier(i int) *RetrierFact {
	return &RetrierFact{OpParam: i, DelayParam: -1, ResendParam: -1, MethodParam: -1, HeaderParam: -1, CtxParam: -1, Bound: BoundUnknown}
}

// helperCalls turns each call to a retry helper into a site, judged by
// the helper's fact and the arguments it is given.
func (w *walker) helperCalls(fs *fnScope) []*Site {
	var out []*Site
	ast.Inspect(fs.body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if call, ok := n.(*ast.CallExpr); ok {
			if site := w.helperCall(fs, call); site != nil {
				out = append(out, site)
			}
		}
		return true
	})
	return out
}

// helperCall returns the site of one call to a retry helper, or nil.
func (w *walker) helperCall(fs *fnScope, call *ast.CallExpr) *Site {
	fn := astq.Callee(w.info, call)
	if fn == nil || fn == fs.obj {
		return nil
	}
	f := w.factOf(fn)
	if f == nil || f.Retrier == nil {
		return nil
	}
	if w.otherModule(fn) {
		// A retry helper of another module is a library this SPEC does
		// not name: its budget, delay and jitter are unknown (SPEC,
		// settled cases), whatever its code shows.
		return nil
	}
	r := f.Retrier
	if r.Poll && w.swallowedFailure(argAt(call, r.OpParam)) == nil && !(r.RetriesErr && w.condRemote(argAt(call, r.OpParam))) {
		return nil // polling: the condition's failures are not made "not yet"
	}
	site := &Site{
		Shape: ShapeHelper, Node: call, Pos: call.Pos(), End: call.End(),
		Func: fs.node, File: fs.file, Ops: []*ast.CallExpr{call}, Bound: r.Bound,
		Ctx: Context{Attempts: DeadlineUnknown}, HelperReported: r.OwnRemote && fn.Pkg() != w.pass.Pkg,
	}
	if r.Budget {
		site.Budget = append(site.Budget, fn.Pos())
	}
	if arg := argAt(call, r.OpParam); arg != nil {
		w.helperOp(site, fs, arg, r.CtxParam >= 0)
	}
	for _, vo := range r.ValueOps {
		if site.Remote == nil && w.valueWork(argAt(call, vo.Param), vo.Method) == StatePresent {
			site.Remote = call // the value it is handed reaches the network
		}
	}
	w.helperRequests(site, fs, call, fn, r)
	if arg := argAt(call, r.CtxParam); arg != nil {
		// The helper stops when this context ends: one made here by
		// context.Background never does.
		if bg := w.backgroundArg(arg); bg != nil {
			site.Ctx.Attempts, site.Ctx.BackgroundCall = DeadlineNone, bg
			if site.Bound == BoundDeadline {
				site.Bound = BoundNone
			}
		}
	}
	if arg := argAt(call, r.DelayParam); arg != nil {
		wt := &Wait{Kind: WaitHelper, Node: call, Call: call, Delay: arg, Related: []token.Pos{fn.Pos()}}
		w.judgeDelay(wt)
		if r.Grows && wt.Growth == GrowthFixed {
			wt.Growth = GrowthGrowing
		}
		wt.Jitter = wt.Jitter || r.Jitter
		site.Waits = append(site.Waits, wt)
	} else {
		if len(site.Requests) == 0 && site.Remote == nil && site.Ctx.Attempts != DeadlineNone && !w.sleepsThrough(fs, call, r) {
			return nil // nothing to judge here
		}
		// The helper's own wait is judged where the helper is.
		site.Waits = append(site.Waits, &Wait{Kind: WaitHelper, Node: call, Call: call, Growth: GrowthUnknown, Related: []token.Pos{fn.Pos()}})
	}
	// The helper's waits are its own business, but one that sleeps with
	// time.Sleep ignores a context here that it is not handed.
	site.Ctx.Consulted = !r.Sleeps || argAt(call, r.CtxParam) != nil
	if r.Sleeps {
		site.Waits[len(site.Waits)-1].Sleeps = true
		site.Waits[len(site.Waits)-1].SleepsOn = r.SleepsOn
		site.Ctx.InScope, site.Ctx.StopChan = w.contextInScope(fs, call.Pos())
	}
	return site
}

// otherModule reports whether fn belongs to a module other than the one
// analysed (known only when the driver names the package's module).
func (w *walker) otherModule(fn *types.Func) bool {
	m := w.pass.Module
	if m == nil || m.Path == "" || fn.Pkg() == nil {
		return false
	}
	p := fn.Pkg().Path()
	return p != m.Path && !strings.HasPrefix(p, m.Path+"/")
}

// argAt returns argument i of call, or nil when i is -1 or out of range.
func argAt(call *ast.CallExpr, i int) ast.Expr {
	if i < 0 || i >= len(call.Args) {
		return nil
	}
	return call.Args[i]
}

// helperOp reads the operation handed to a helper: what it sends, whether
// it reaches the network, consults a budget or times each attempt, and,
// for a helper not handed a context, the deadline its attempts run under.
func (w *walker) helperOp(site *Site, fs *fnScope, op ast.Expr, ctxHanded bool) {
	if lit := w.localFunc(op); lit != nil {
		op = lit // a closure assigned once in this function
		site.OpFunc = lit
	}
	// Requests the operation sends: each attempt runs the whole
	// function literal, so a key minted inside it is per attempt.
	if lit, ok := ast.Unparen(op).(*ast.FuncLit); ok {
		w.describeRequests(site, &fnScope{node: lit, body: lit.Body, typ: lit.Type, file: fs.file}, lit.Body)
	}
	var remote []*ast.CallExpr
	ast.Inspect(op, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if w.isRemoteCall(c) {
				remote = append(remote, c)
			}
			if site.Remote == nil && w.isRemoteCall(c) {
				site.Remote = c
			}
			if w.isBudgetCall(c) {
				site.Budget = append(site.Budget, c.Pos())
			}
			if astq.IsFunc(astq.Callee(w.info, c), "context.WithTimeout", "context.WithDeadline", "context.WithTimeoutCause", "context.WithDeadlineCause") {
				site.Ctx.AttemptTimeout = true // each attempt has its own
			}
		}
		return true
	})
	// The deadline each attempt runs under: the remote calls of a
	// literal, judged in it (context.TODO() made there has none). A
	// helper handed a context is judged by that context instead.
	if lit, ok := ast.Unparen(op).(*ast.FuncLit); ok && len(remote) > 0 && !ctxHanded {
		site.Ctx.Attempts, _ = w.litAttempts(site, lit, fs)
	}
}

// helperRequests records the requests a helper builds or re-sends for
// this call.
func (w *walker) helperRequests(site *Site, fs *fnScope, call *ast.CallExpr, fn *types.Func, r *RetrierFact) {
	if arg := argAt(call, r.MethodParam); arg != nil && !r.Keyed {
		// The helper builds the request with the method it is given.
		tv := w.info.Types[arg]
		noHeaders := r.HeaderParam < 0 || r.HeaderParam < len(call.Args) && astq.IsNil(w.info, call.Args[r.HeaderParam])
		if tv.Value != nil && tv.Value.Kind() == constant.String && noHeaders {
			m := strings.ToUpper(constant.StringVal(tv.Value))
			site.Requests = append(site.Requests, &Request{Pos: call.Pos(), Send: call, Method: m, Via: fn})
		}
	}
	if arg := argAt(call, r.ResendParam); arg != nil {
		// The request is built here and re-sent there: judge it here.
		req := &Request{Send: call, Pos: call.Pos(), Via: fn}
		// A key minted in this function is one key per call of the
		// helper, which retries inside: stable across its attempts.
		w.resolveRequest(req, arg, fs, call)
		if req.Build != nil {
			req.Pos = req.Build.Pos()
			site.Requests = append(site.Requests, req)
		}
	}
}

// markHanded judges, for each generic retry helper of this package, the
// work its calls here hand it: remote when one hands it remote work,
// local when every one hands it local work, unknown otherwise (no call in
// sight, or work behind a function value or an interface).
func (w *walker) markHanded(fns []*fnScope, sites []*Site) {
	loops := map[*types.Func]*Site{}
	for _, s := range sites {
		d, ok := s.Func.(*ast.FuncDecl)
		if s.HandedOp == nil || !ok {
			continue
		}
		if fn, ok := w.info.Defs[d.Name].(*types.Func); ok {
			loops[fn], s.Handed = s, StateUnknown // until a call is seen
		}
	}
	if len(loops) == 0 {
		return
	}
	calls := map[*Site]int{}
	for _, fs := range fns {
		w.enter(fs)
		ast.Inspect(fs.body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			fn := astq.Callee(w.info, call)
			if fn == nil || loops[fn.Origin()] == nil {
				return true
			}
			s := loops[fn.Origin()]
			f := w.facts[fn.Origin()]
			if f == nil || f.Retrier == nil {
				return true
			}
			work := w.callWork(call, f.Retrier)
			switch {
			case work == StatePresent:
				s.Handed = StatePresent
				s.HandedPos = append(s.HandedPos, call.Pos())
			case calls[s] == 0 || work == StateUnknown && s.Handed == StateAbsent:
				s.Handed = work
			}
			calls[s]++
			s.HandedCalls++
			return true
		})
	}
	w.cur = nil
}

// plainLoop reports whether a site's loop calls nothing but its
// operations, builtins and conversions, context methods, and functions
// handed only errors and constants (errors.Is(err, ErrX),
// isRetryable(err)): nothing it calls can count its attempts.
func (w *walker) plainLoop(s *Site) bool {
	plain := true
	ast.Inspect(s.Node, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok || !plain {
			return false
		}
		c, ok := n.(*ast.CallExpr)
		if !ok || slices.Contains(s.Ops, c) {
			return true
		}
		if tv := w.info.Types[c.Fun]; tv.IsType() || tv.IsBuiltin() {
			return true
		}
		fn := astq.Callee(w.info, c)
		if fn == nil || fn.Pkg() == nil {
			plain = false
			return false
		}
		if fn.Pkg() != w.pass.Pkg && isStdPath(fn.Pkg().Path()) {
			return true // the standard library counts no one's attempts
		}
		if sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok && w.info.Selections[sel] != nil && !isErrorType(w.info.TypeOf(sel.X)) {
			plain = false // a method of some state: it may count
			return false
		}
		for _, a := range c.Args {
			if t := w.info.Types[a]; t.Value == nil && !isErrorType(t.Type) {
				plain = false
			}
		}
		return plain
	})
	return plain
}

// isStdPath reports whether an import path is the standard library's:
// no dot in its first element.
func isStdPath(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// callWork judges the work one call hands a helper: its function value
// and the values whose methods the helper retries. Remote when one part
// is, unknown when one cannot be seen into, local otherwise.
func (w *walker) callWork(call *ast.CallExpr, r *RetrierFact) State {
	work := StateAbsent
	if r.OpParam >= 0 {
		work = w.handedWork(argAt(call, r.OpParam))
	}
	for _, vo := range r.ValueOps {
		if work == StatePresent {
			break
		}
		if v := w.valueWork(argAt(call, vo.Param), vo.Method); v != StateAbsent {
			work = v
		}
	}
	return work
}

// valueOp returns the interface-typed parameter of fs whose method op
// calls (tx.Exec(...) on a tx Tx parameter).
func (w *walker) valueOp(op *ast.CallExpr, fs *fnScope) (ValueOp, bool) {
	sel, ok := ast.Unparen(op.Fun).(*ast.SelectorExpr)
	if !ok {
		return ValueOp{}, false
	}
	v, i := w.paramOf(sel.X, fs)
	if i < 0 || !types.IsInterface(v.Type()) {
		return ValueOp{}, false
	}
	return ValueOp{Param: i, Method: sel.Sel.Name}, true
}

// valueWork judges the method a helper retries on the value a call hands
// it: by the method of the value's own type (stdlibTxnAdapter.Exec, a
// database/sql call: remote); unknown when the value is itself an
// interface the model cannot see through.
func (w *walker) valueWork(arg ast.Expr, method string) State {
	t := w.info.TypeOf(arg)
	if arg == nil || t == nil {
		return StateUnknown
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, w.pass.Pkg, method)
	m, ok := obj.(*types.Func)
	if !ok {
		return StateUnknown
	}
	return w.funcWork(m)
}

// funcWork judges a named function or method handed as work: remote by
// itself or through its fact, unknown when it is an interface method no
// implementation in view settles, local otherwise.
func (w *walker) funcWork(fn *types.Func) State {
	switch {
	case w.isRemoteFunc(fn) || w.implsRemote(fn):
		return StatePresent
	case isInterfaceMethod(fn):
		return StateUnknown
	}
	if f := w.factOf(fn); f != nil && f.Remote {
		return StatePresent
	}
	return StateAbsent
}

// handedWork judges the operation handed to a helper: a function literal
// (or a closure assigned once) by the calls it makes, a named function or
// method by itself; any other function value is unknown.
func (w *walker) handedWork(op ast.Expr) State {
	if op == nil {
		return StateUnknown
	}
	if lit := w.localFunc(op); lit != nil {
		op = lit
	}
	if lit, ok := ast.Unparen(op).(*ast.FuncLit); ok {
		return w.litWork(lit)
	}
	if remoteFuncType(w.info.TypeOf(op)) {
		return StatePresent
	}
	fn, ok := w.usedObj(op).(*types.Func)
	if !ok {
		return StateUnknown
	}
	return w.funcWork(fn)
}

// litWork judges a function literal by the calls it makes (its nested
// literals aside): remote when one reaches the network, unknown when one
// goes through a function value or an interface, local otherwise.
func (w *walker) litWork(lit *ast.FuncLit) State {
	work := StateAbsent
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok || work == StatePresent {
			return false
		}
		c, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if w.isRemoteCall(c) {
			work = StatePresent
			return false
		}
		if w.unseenCall(c) {
			work = StateUnknown
		}
		return true
	})
	return work
}

// unseenCall reports whether a call goes where the model cannot see:
// through a function value (not a closure assigned once here) or an
// interface method. Conversions and builtins are seen.
func (w *walker) unseenCall(c *ast.CallExpr) bool {
	if tv := w.info.Types[c.Fun]; tv.IsType() || tv.IsBuiltin() {
		return false
	}
	fn := astq.Callee(w.info, c)
	return fn == nil && w.localFunc(c.Fun) == nil || fn != nil && isInterfaceMethod(fn)
}

// hidesWait reports whether a site's loop makes a call, not one of its
// operations, through a function value or an interface as a statement
// (wait(), b.Pause()): what it does between attempts is unseen, so the
// loop is not known to retry at once.
func (w *walker) hidesWait(s *Site) bool {
	hides := false
	ast.Inspect(s.Node, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok || hides {
			return false
		}
		st, ok := n.(*ast.ExprStmt)
		if !ok {
			return true
		}
		c, ok := ast.Unparen(st.X).(*ast.CallExpr)
		if !ok || slices.Contains(s.Ops, c) {
			return true
		}
		hides = w.unseenCall(c)
		return true
	})
	return hides
}

// sleepsThrough reports whether a call of the helper r sleeps through a
// cancellation in view: the helper waits blind (Sleeps) and is not handed
// the context or stop channel in scope at the call. retrydeadline's
// second clause applies to any retry site, whatever its operation (SPEC,
// settled cases), so such a call is a site even when nothing else about
// it can be judged here.
func (w *walker) sleepsThrough(fs *fnScope, call *ast.CallExpr, r *RetrierFact) bool {
	// Only a helper handed the operation it retries (a function value):
	// a method re-sending a request it is given is a layer of its own
	// (retrynested), judged at its loop.
	if !r.Sleeps || argAt(call, r.OpParam) == nil || argAt(call, r.CtxParam) != nil {
		return false
	}
	ctx, stop := w.contextInScope(fs, call.Pos())
	return ctx != nil || stop != nil
}
