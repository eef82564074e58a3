// Package retryloop finds and classifies retry sites once for the
// retrylint analyzers, which only decide and word.
//
// A retry site is code that runs the same operation again after it
// failed: a loop (counted, range n, bare, flag-driven), a goto back to a
// label, or a function that calls itself, in which a failure of an
// operation leads to another attempt and success leaves. For each site
// the Result records the retried operations, the bound, the waits
// between attempts (how the delay evolves and whether it is random), the
// context and its deadline, budget consultations and the HTTP requests
// sent. Facts carry what crosses packages: whether a function reaches the
// network, consults a budget, sends a non-idempotent request without a
// key, waits, or computes a delay.
package retryloop

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/internal/libmodel"
	"github.com/retrylint/retrylint/analyzers/internal/optlist"
)

// Analyzer is the model of the default suite: the one the reporters'
// Analyzer values require, configured through their flags.
var Analyzer = New()

// New returns a model analyzer with options of its own, independent of
// every other: its flags -budget-funcs, -remote-pkgs and -headers, which
// the reporters that own them expose under their names (see Flag). The
// options are read when a pass runs, so flags set after New apply.
func New() *analysis.Analyzer {
	opts := new(options)
	a := &analysis.Analyzer{
		Name:       "retryloop",
		Doc:        "find and classify retry sites for the retrylint analyzers (reports nothing)",
		URL:        "https://github.com/retrylint/retrylint/blob/main/docs/README.md",
		Run:        func(pass *analysis.Pass) (any, error) { return run(pass, opts) },
		ResultType: reflect.TypeFor[*Result](),
		FactTypes:  []analysis.Fact{new(FuncFact), new(PkgFact)},
	}
	// The lists are checked and normalised by optlist when set, so the
	// command line, go vet and the golangci-lint plugin reject the same
	// entries with the same words.
	a.Flags.Var(optlist.NewFuncs(&opts.BudgetFuncs), "budget-funcs", "comma-separated functions that count as a retry budget check (pkg/path.Func, pkg/path.Type.Method or pkg/path.(*Type).Method)")
	a.Flags.Var(optlist.NewPkgs(&opts.RemotePkgs), "remote-pkgs", "comma-separated import path prefixes whose calls count as remote calls")
	a.Flags.Var(optlist.NewHeaders(&opts.KeyHeaders), "headers", "comma-separated extra idempotency key header names (Idempotency-Key and X-Idempotency-Key are always recognised)")
	return a
}

// Flag registers the option called name of model, an analyzer made by
// New, as a flag of reporter: the two flags share one value, so setting
// either configures the model that reporter reads. An option belongs to
// the reporter whose check it tunes (-retrybudget.budget-funcs), though
// every analyzer reading the model sees it.
func Flag(reporter, model *analysis.Analyzer, name string) {
	f := model.Flags.Lookup(name)
	if f == nil {
		panic("internal error: the retryloop model has no option " + name)
	}
	reporter.Flags.Var(f.Value, f.Name, f.Usage)
}

// options are the classification settings of one model, set through its
// flags.
type options struct {
	BudgetFuncs []string // extra functions that consult a budget (pkg/path.Func, pkg/path.Type.Method)
	RemotePkgs  []string // extra import path prefixes whose calls reach the network
	KeyHeaders  []string // extra idempotency key header names
}

// walker carries one pass's state.
type walker struct {
	pass        *analysis.Pass
	info        *types.Info
	opts        *options
	decls       map[*types.Func]*ast.FuncDecl
	facts       map[*types.Func]*FuncFact
	importsHTTP bool // the package imports net/http
	importsRH   bool // ... or go-retryablehttp
	// remote and budget cache the classification of callees.
	remote, budget map[*types.Func]bool
	cur            *fnScope                // the function being examined
	litDepth       int                     // local closures being followed (reachesRemote)
	polarity       map[types.Object]Tri    // status-code sets judged (setPolarity)
	pkgVarInit     map[*types.Var]ast.Expr // package variables set only where declared (pkgVarValue)
	blockLabels    map[*ast.BlockStmt]int  // labels per block (stateMachine)
	sleepVars      map[*types.Var]bool     // function variables judged (sleepVar)
	loops          []ast.Node              // loops of the current function, once computed
	loopsFor       *fnScope
	quiet          []*Site // library sites without findings: retry layers still
}

func run(pass *analysis.Pass, opts *options) (any, error) {
	w := &walker{
		pass:   pass,
		info:   pass.TypesInfo,
		opts:   opts,
		decls:  map[*types.Func]*ast.FuncDecl{},
		facts:  map[*types.Func]*FuncFact{},
		remote: map[*types.Func]bool{},
		budget: map[*types.Func]bool{},
	}
	// Fast path: a package that reaches neither time, the network, a
	// context nor a package with facts can hold no wait, remote call or
	// deadline, so no retry site it has can be reported.
	if !w.relevant() && len(w.opts.RemotePkgs) == 0 && len(w.opts.BudgetFuncs) == 0 {
		return &Result{KeyHeaders: opts.KeyHeaders}, nil
	}
	fns := w.functions()
	w.computeFacts(fns)
	defer w.exportPackageFact()

	res := &Result{KeyHeaders: opts.KeyHeaders}
	env := w.libEnv()
	res.Sites = w.ownSites(env, fns)
	for _, fs := range fns {
		w.enter(fs)
		res.Sites = append(res.Sites, w.helperCalls(fs)...)
		res.Resent = append(res.Resent, w.resentRequests(fs)...)
	}
	w.markOwnRemote(res.Sites)
	for _, f := range pass.Files {
		if issues := libmodel.ServiceConfigIssues(env, f); len(issues) > 0 {
			res.Sites = append(res.Sites, &Site{
				Shape: ShapeLibrary, Node: f, Pos: issues[0].Pos, End: issues[0].End, File: f,
				Library: "google.golang.org/grpc", LibIssues: issues,
			})
		}
	}
	w.layers(fns, res.Sites, w.quiet)
	res.Quiet = w.quiet
	w.cur = nil
	for _, s := range res.Sites {
		s.keyHeaders = opts.KeyHeaders
	}
	slices.SortStableFunc(res.Sites, func(a, b *Site) int { return int(a.Pos - b.Pos) })
	return res, nil
}

// relevant reports whether the package imports what a retry site needs
// (relevantImport) or a package with facts; it also notes net/http.
func (w *walker) relevant() bool {
	relevant := false
	for _, imp := range w.pass.Pkg.Imports() {
		switch imp.Path() {
		case "net/http":
			w.importsHTTP = true
		case retryablehttpPath:
			w.importsRH = true
		}
		if relevantImport(imp.Path()) {
			relevant = true
		}
		var pf PkgFact
		if w.pass.ImportPackageFact(imp, &pf) {
			relevant = true
		}
	}
	return relevant
}

// functions lists the package's functions with bodies, declarations and
// literals, noting the declarations.
func (w *walker) functions() []*fnScope {
	var fns []*fnScope
	for _, file := range w.pass.Files {
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				if n.Body == nil {
					return false
				}
				fs := &fnScope{node: n, file: file, body: n.Body, typ: n.Type}
				if obj, ok := w.info.Defs[n.Name].(*types.Func); ok {
					fs.obj = obj
					w.decls[obj] = n
				}
				fns = append(fns, fs)
			case *ast.FuncLit:
				fns = append(fns, &fnScope{node: n, file: file, body: n.Body, typ: n.Type})
			case *ast.GenDecl, *ast.ImportSpec:
				return n.(ast.Node) != nil && isVarDecl(n)
			}
			return true
		})
	}
	return fns
}

// exportPackageFact marks a package with any function fact, so that its
// importers take the slow path.
func (w *walker) exportPackageFact() {
	for _, f := range w.facts {
		if f != nil {
			w.pass.ExportPackageFact(&PkgFact{})
			return
		}
	}
}

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
		fn := callee(w.info, s.Node.(*ast.CallExpr))
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

// enter makes fs the current function.
func (w *walker) enter(fs *fnScope) {
	w.cur = fs
	w.loopsFor = nil
}

// statusCopy returns the resp.StatusCode a local variable of the current
// function holds when it is assigned that, and only that, exactly once
// (code := resp.StatusCode); otherwise id itself.
func (w *walker) statusCopy(id *ast.Ident) ast.Expr {
	v, ok := w.info.Uses[id].(*types.Var)
	if !ok || w.cur == nil || !isInt(v.Type()) {
		return id
	}
	var from ast.Expr
	n := 0
	ast.Inspect(w.cur.body, func(nd ast.Node) bool {
		switch nd := nd.(type) {
		case *ast.AssignStmt:
			for i, l := range nd.Lhs {
				if lid, ok := l.(*ast.Ident); ok && w.info.ObjectOf(lid) == v {
					n++
					if len(nd.Lhs) == len(nd.Rhs) {
						from = ast.Unparen(nd.Rhs[i])
					}
				}
			}
		case *ast.IncDecStmt:
			if w.isVar(nd.X, v) {
				n += 2 // changed in place: not a plain copy
			}
		case *ast.UnaryExpr:
			if nd.Op == token.AND && w.isVar(nd.X, v) {
				n += 2 // its address taken
			}
		case *ast.ValueSpec:
			for _, name := range nd.Names {
				if w.info.Defs[name] == v {
					n += 2 // var code int: assigned later, maybe more than once
				}
			}
		}
		return true
	})
	if sel, ok := from.(*ast.SelectorExpr); ok && n == 1 && sel.Sel.Name == "StatusCode" {
		return sel
	}
	return id
}

// curLoops returns the loops of the current function (computed on demand).
func (w *walker) curLoops() []ast.Node {
	if w.loopsFor == w.cur {
		return w.loops
	}
	w.loopsFor = w.cur
	w.loops = w.loops[:0]
	if w.cur == nil {
		return nil
	}
	ast.Inspect(w.cur.body, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt, *ast.RangeStmt:
			w.loops = append(w.loops, n)
		}
		return true
	})
	return w.loops
}

// factOf returns the fact of a function of this package (computed) or of
// another (imported), or nil.
func (w *walker) factOf(fn *types.Func) *FuncFact {
	if fn == nil {
		return nil
	}
	if f, ok := w.facts[fn]; ok {
		return f
	}
	if fn.Pkg() == nil || fn.Pkg() == w.pass.Pkg {
		return nil
	}
	var f FuncFact
	if w.pass.ImportObjectFact(fn.Origin(), &f) {
		w.facts[fn] = &f
		return &f
	}
	w.facts[fn] = nil
	return nil
}

// isRemoteCall reports whether a call reaches the network.
func (w *walker) isRemoteCall(call *ast.CallExpr) bool {
	fn := callee(w.info, call)
	if fn == nil {
		// A local closure: what it calls.
		if lit := w.localFunc(call.Fun); lit != nil {
			return w.reachesRemote(lit) != nil
		}
		return false
	}
	if w.pass.Pkg != fn.Pkg() {
		if r, ok := w.remote[fn]; ok {
			return r
		}
	}
	if w.remote != nil {
		if r, ok := w.remote[fn]; ok {
			return r
		}
	}
	r := w.isRemoteFunc(fn)
	if !r {
		f := w.factOf(fn)
		r = f != nil && f.Remote
	}
	if !r {
		r = w.implsRemote(fn)
	}
	if w.pass.Pkg != fn.Pkg() && w.remote != nil {
		w.remote[fn] = r
	}
	return r
}

// implsRemote reports whether fn is a method of an interface declared in
// another package whose every implementation there (at least one) is
// remote: godo's DropletActionsService, implemented by the package's own
// service type only. An interface with a local implementation, or none
// visible, is unknown: not remote.
func (w *walker) implsRemote(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil || fn.Pkg() == nil || fn.Pkg() == w.pass.Pkg {
		return false
	}
	named, ok := types.Unalias(sig.Recv().Type()).(*types.Named)
	if !ok {
		return false
	}
	iface, ok := named.Underlying().(*types.Interface)
	if !ok || iface.NumMethods() == 0 {
		return false
	}
	if w.remote != nil {
		w.remote[fn] = false // an implementation calling back through the interface
	}
	sc := fn.Pkg().Scope()
	impls := 0
	for _, name := range sc.Names() {
		tn, ok := sc.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		nt, ok := tn.Type().(*types.Named)
		if !ok || nt.TypeParams().Len() > 0 {
			continue
		}
		if _, ok := nt.Underlying().(*types.Interface); ok {
			continue
		}
		var t types.Type = nt
		if !types.Implements(t, iface) {
			t = types.NewPointer(nt)
			if !types.Implements(t, iface) {
				continue
			}
		}
		obj, _, _ := types.LookupFieldOrMethod(t, true, fn.Pkg(), fn.Name())
		m, ok := obj.(*types.Func)
		if !ok {
			return false
		}
		impls++
		if !w.isRemoteFunc(m) {
			if f := w.factOf(m); f == nil || !f.Remote {
				return false
			}
		}
	}
	return impls > 0
}

// isBudgetCall reports whether a call consults a budget, limiter or breaker.
func (w *walker) isBudgetCall(call *ast.CallExpr) bool {
	fn := callee(w.info, call)
	if fn == nil {
		return false
	}
	if w.pass.Pkg != fn.Pkg() {
		if b, ok := w.budget[fn]; ok {
			return b
		}
	}
	b := w.isBudgetFunc(fn)
	if !b {
		f := w.factOf(fn)
		b = f != nil && f.Budget
	}
	if w.pass.Pkg != fn.Pkg() && w.budget != nil {
		w.budget[fn] = b
	}
	return b
}

// libEnv gives libmodel the judgements only the model can make.
func (w *walker) libEnv() *libmodel.Env {
	return &libmodel.Env{
		Info: w.info, Pkg: w.pass.Pkg, Fset: w.pass.Fset, Files: w.pass.Files,
		Remote: func(op ast.Expr) bool {
			found := false
			ast.Inspect(op, func(n ast.Node) bool {
				if c, ok := n.(*ast.CallExpr); ok && w.isRemoteCall(c) {
					found = true
				}
				return !found
			})
			if lit := w.localFunc(op); !found && lit != nil {
				found = w.reachesRemote(lit) != nil
			}
			if !found {
				// A named function: its fact.
				if id, ok := ast.Unparen(op).(*ast.Ident); ok {
					if fn, ok := w.info.Uses[id].(*types.Func); ok {
						if f := w.factOf(fn); f != nil && f.Remote {
							found = true
						}
					}
				}
			}
			return found
		},
		IsBudget:   w.isBudgetCall,
		KeyHeaders: append(append([]string(nil), defaultKeyHeaders...), w.opts.KeyHeaders...),
	}
}

// librarySites turns libmodel's findings in fs into sites.
func (w *walker) librarySites(env *libmodel.Env, fs *fnScope) []*Site {
	var out []*Site
	for _, ls := range libmodel.Sites(env, fs.file, fs.node) {
		// A site without issues is kept when it retries a parameter: a
		// helper wrapping the library, judged at its calls.
		if len(ls.Issues) == 0 && (fs.obj == nil || w.opParam(fs, ls.Op) < 0) {
			w.quiet = append(w.quiet, &Site{
				Shape: ShapeLibrary, Node: ls.Call, Pos: ls.Call.Pos(), End: ls.Call.End(),
				Func: fs.node, File: fs.file, Ops: []*ast.CallExpr{ls.Call},
				Library: ls.Library, LibOp: ls.Op, LibBudgetless: ls.Budgetless, Attempts: ls.Attempts, LibAnyMethod: ls.AnyMethod,
			})
			continue
		}
		out = append(out, &Site{
			Shape: ShapeLibrary, Node: ls.Call, Pos: ls.Call.Pos(), End: ls.Call.End(),
			Func: fs.node, File: fs.file, Ops: []*ast.CallExpr{ls.Call},
			Library: ls.Library, LibIssues: ls.Issues, LibOp: ls.Op, LibBudgetless: ls.Budgetless, Attempts: ls.Attempts, LibAnyMethod: ls.AnyMethod,
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
		return &RetrierFact{OpParam: i, DelayParam: -1, ResendParam: -1, MethodParam: -1, HeaderParam: -1, CtxParam: -1,
			Bound: BoundUnknown, Budget: !s.LibBudgetless}
	}
	return nil
}

// isVarDecl reports whether a declaration may hold function literals
// (a var declaration), so the walk descends into it.
func isVarDecl(n ast.Node) bool {
	gd, ok := n.(*ast.GenDecl)
	return ok && gd.Tok == token.VAR
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
	fn := callee(w.info, call)
	if fn == nil || fn == fs.obj {
		return nil
	}
	f := w.factOf(fn)
	if f == nil || f.Retrier == nil {
		return nil
	}
	r := f.Retrier
	site := &Site{
		Shape: ShapeHelper, Node: call, Pos: call.Pos(), End: call.End(),
		Func: fs.node, File: fs.file, Ops: []*ast.CallExpr{call}, Bound: r.Bound,
		Ctx: Context{Attempts: DeadlineUnknown}, HelperReported: r.OwnRemote && fn.Pkg() != w.pass.Pkg,
	}
	if r.Budget {
		site.Budget = append(site.Budget, fn.Pos())
	}
	if arg := argAt(call, r.OpParam); arg != nil {
		w.helperOp(site, fs, arg)
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
		if len(site.Requests) == 0 && site.Remote == nil && site.Ctx.Attempts != DeadlineNone {
			return nil // nothing to judge here
		}
		// The helper's own wait is judged where the helper is.
		site.Waits = append(site.Waits, &Wait{Kind: WaitHelper, Node: call, Call: call, Growth: GrowthUnknown, Related: []token.Pos{fn.Pos()}})
	}
	site.Ctx.Consulted = true // the helper's waits are its own business
	return site
}

// argAt returns argument i of call, or nil when i is -1 or out of range.
func argAt(call *ast.CallExpr, i int) ast.Expr {
	if i < 0 || i >= len(call.Args) {
		return nil
	}
	return call.Args[i]
}

// helperOp reads the operation handed to a helper: what it sends, whether
// it reaches the network, consults a budget or times each attempt.
func (w *walker) helperOp(site *Site, fs *fnScope, op ast.Expr) {
	if lit := w.localFunc(op); lit != nil {
		op = lit // a closure assigned once in this function
	}
	// Requests the operation sends: each attempt runs the whole
	// function literal, so a key minted inside it is per attempt.
	if lit, ok := ast.Unparen(op).(*ast.FuncLit); ok {
		w.describeRequests(site, &fnScope{node: lit, body: lit.Body, typ: lit.Type, file: fs.file}, lit.Body)
	}
	ast.Inspect(op, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if site.Remote == nil && w.isRemoteCall(c) {
				site.Remote = c
			}
			if w.isBudgetCall(c) {
				site.Budget = append(site.Budget, c.Pos())
			}
			if isFunc(callee(w.info, c), "context.WithTimeout", "context.WithDeadline", "context.WithTimeoutCause", "context.WithDeadlineCause") {
				site.Ctx.AttemptTimeout = true // each attempt has its own
			}
		}
		return true
	})
}

// helperRequests records the requests a helper builds or re-sends for
// this call.
func (w *walker) helperRequests(site *Site, fs *fnScope, call *ast.CallExpr, fn *types.Func, r *RetrierFact) {
	if arg := argAt(call, r.MethodParam); arg != nil && !r.Keyed {
		// The helper builds the request with the method it is given.
		tv := w.info.Types[arg]
		noHeaders := r.HeaderParam < 0 || r.HeaderParam < len(call.Args) && isNil(ast.Unparen(call.Args[r.HeaderParam]))
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

// PkgFact marks a package some of whose functions have facts: packages
// importing it must be analyzed in full.
type PkgFact struct{}

// AFact marks PkgFact as an analysis fact.
func (*PkgFact) AFact() {}

func (*PkgFact) String() string { return "retry-relevant" }

// relevantImport reports whether importing path can bring waits, remote
// calls, contexts or budgets into a package.
func relevantImport(path string) bool {
	switch path {
	case "time", "context", "net", "net/http", "net/rpc", "net/smtp", "database/sql", "crypto/tls", BudgetPath,
		"math/rand", "math/rand/v2", "crypto/rand": // a random source feeds jitter through facts
		return true
	}
	for _, p := range remotePkgPrefixes {
		if strings.HasPrefix(path, p) {
			return true
		}
	}
	// Any module outside the standard library may reach the network.
	return strings.Contains(strings.SplitN(path, "/", 2)[0], ".")
}
