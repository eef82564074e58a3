package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/internal/diag"
	"github.com/retrylint/retrylint/analyzers/internal/libmodel"
	"github.com/retrylint/retrylint/analyzers/internal/optlist"

	"github.com/retrylint/retrylint/analyzers/internal/astq"
	"github.com/retrylint/retrylint/analyzers/internal/follow"
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
	a.Flags.Var(optlist.NewHeaders(&opts.KeyHeaders), "headers", "comma-separated extra idempotency key header names (any name ending in Idempotency-Key is always recognised)")
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
	// factsDone: the package's own facts are settled (ownImplsRemote
	// reads them); ownIface caches its answers.
	factsDone bool
	ownIface  map[*types.Func]bool
	cur       *fnScope // the function being examined
	// path bounds every resolver that follows a definition (package
	// follow): a value defined by itself ends as unknown, not in a
	// stack overflow.
	path        follow.Path
	polarity    map[types.Object]Tri      // status-code sets judged (setPolarity)
	errPreds    map[*types.Func]Tri       // error classifiers evaluated at nil (errPredAtNil)
	retryFlags  map[*types.Func]Tri       // retry flags returned beside an error (retryFlag)
	pkgVarInit  map[*types.Var]ast.Expr   // package variables set only where declared (pkgVarValue)
	constFields map[*types.Var]bool       // unexported fields set only to constants (constField)
	blockLabels map[*ast.BlockStmt]int    // labels per block (stateMachine)
	sleepVars   map[*types.Var]bool       // function variables judged (sleepVar)
	timerChans  map[*types.Var][]ast.Expr // channels only timer callbacks signal (afterFuncChan)
	loops       []ast.Node                // loops of the current function, once computed
	loopsFor    *fnScope
	quiet       []*Site // library sites without findings: retry layers still
	// pkgWrites index the writes of the package's files to every
	// variable, without and with the tests (pkgAssignsOf).
	pkgWrites [2]map[types.Object]*writes
	// statusCopies caches statusCopy per variable and function body.
	statusCopies map[copyKey]*ast.SelectorExpr
	// localFuncs caches localFunc per variable and function body.
	localFuncs map[copyKey]*ast.FuncLit
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
	directives := diag.Directives(pass.Files)
	if !w.relevant() && len(w.opts.RemotePkgs) == 0 && len(w.opts.BudgetFuncs) == 0 {
		return &Result{KeyHeaders: opts.KeyHeaders, Directives: directives}, nil
	}
	fns := w.functions()
	w.computeFacts(fns)
	w.factsDone = true
	defer w.exportPackageFact()

	res := &Result{KeyHeaders: opts.KeyHeaders, Directives: directives, FactOf: w.factOf}
	env := w.libEnv()
	res.Sites = w.ownSites(env, fns)
	for _, fs := range fns {
		w.enter(fs)
		res.Sites = append(res.Sites, w.helperCalls(fs)...)
		res.Resent = append(res.Resent, w.resentRequests(fs)...)
	}
	w.markOwnRemote(res.Sites)
	w.markHanded(fns, res.Sites)
	for _, f := range pass.Files {
		if fds := libmodel.ServiceConfigFindings(env, f); len(fds) > 0 {
			res.Sites = append(res.Sites, &Site{
				Shape: ShapeLibrary, Node: f, Pos: fds[0].Pos, End: fds[0].End, File: f,
				Library: "google.golang.org/grpc", LibFindings: fds,
			})
		}
	}
	w.layers(fns, res.Sites, w.quiet)
	res.Quiet = w.quiet
	w.cur = nil
	for _, s := range res.Sites {
		s.keyHeaders = opts.KeyHeaders
	}
	for _, s := range slices.Concat(res.Sites, res.Quiet) {
		ev := s.evidence()
		s.ev = &ev // the site is finished: its evidence is computed once
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
// literals, noting the declarations. One walk of the files, and only for
// a package past the fast path: an inspector (inspect.Analyzer) would be
// built for every package, and on std building it cost more than half of
// what this whole analysis costs (BenchmarkSuiteOverhead).
func (w *walker) functions() []*fnScope {
	var fns []*fnScope
	// The same walk indexes the package's writes with its tests
	// (pkgAssignsOf), and without them when it has none.
	writes := map[types.Object]*writes{}
	sc := writeScan{w: w, of: w.pkgWriteSet(writes)}
	tests := false
	for _, file := range w.pass.Files {
		tests = tests || w.isTestFile(file.Pos())
		var scopes []*fnScope // the functions around the node, innermost last
		litVars := map[*ast.FuncLit]*types.Var{}
		ast.Inspect(file, func(n ast.Node) bool {
			if n == nil {
				return true
			}
			sc.node(n)
			// The walk is in source order: a node past a function's end
			// is outside it.
			for len(scopes) > 0 && n.Pos() >= scopes[len(scopes)-1].node.End() {
				scopes = scopes[:len(scopes)-1]
			}
			var fs *fnScope
			switch n := n.(type) {
			case *ast.FuncDecl:
				if n.Body == nil {
					return false
				}
				fs = &fnScope{node: n, file: file, body: n.Body, typ: n.Type}
				if obj, ok := w.info.Defs[n.Name].(*types.Func); ok {
					fs.obj = obj
					w.decls[obj] = n
				}
			case *ast.FuncLit:
				fs = &fnScope{node: n, file: file, body: n.Body, typ: n.Type, selfVar: litVars[n]}
			case *ast.AssignStmt:
				if n.Tok == token.ASSIGN && len(n.Lhs) == 1 && len(n.Rhs) == 1 {
					if lit, ok := ast.Unparen(n.Rhs[0]).(*ast.FuncLit); ok {
						if v, ok := identVar(w.info, n.Lhs[0]).(*types.Var); ok {
							litVars[lit] = v
						}
					}
				}
				w.scanNode(n, scopes)
			default:
				w.scanNode(n, scopes)
			}
			if fs != nil {
				fns = append(fns, fs)
				scopes = append(scopes, fs)
			}
			return true
		})
	}
	w.pkgWrites[1] = writes
	if !tests {
		w.pkgWrites[0] = writes
	}
	return fns
}

// scanNode records n in the functions around it (functions).
func (w *walker) scanNode(n ast.Node, scopes []*fnScope) {
	if len(scopes) == 0 {
		return
	}
	switch n := n.(type) {
	case *ast.CallExpr:
		fn := astq.Callee(w.info, n)
		for _, fs := range scopes {
			fs.calls, fs.callees = append(fs.calls, n), append(fs.callees, fn)
		}
	case *ast.SelectStmt:
		for _, fs := range scopes {
			fs.waitable = true
		}
	case *ast.UnaryExpr:
		if n.Op == token.ARROW {
			for _, fs := range scopes {
				fs.waitable = true
			}
		}
	case *ast.ForStmt, *ast.RangeStmt, *ast.LabeledStmt:
		scopes[len(scopes)-1].loops = true
	}
}

// exportPackageFact marks a package with any function fact, so that its
// importers take the slow path.
func (w *walker) exportPackageFact() {
	var pf *PkgFact
	for fn, f := range w.facts {
		if f == nil {
			continue
		}
		if pf == nil {
			pf = &PkgFact{}
		}
		if f.Remote && fn.Pkg() == w.pass.Pkg {
			pf.Remote = true
			break
		}
	}
	if pf != nil {
		w.pass.ExportPackageFact(pf)
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
	key := copyKey{v, w.cur.body}
	if sel, done := w.statusCopies[key]; done {
		if sel == nil {
			return id
		}
		return sel
	}
	if w.statusCopies == nil {
		w.statusCopies = map[copyKey]*ast.SelectorExpr{}
	}
	sel := w.findStatusCopy(v)
	w.statusCopies[key] = sel
	if sel == nil {
		return id
	}
	return sel
}

// copyKey is a variable as seen from one function body.
type copyKey struct {
	v    *types.Var
	body ast.Node
}

// findStatusCopy returns the resp.StatusCode v is assigned exactly once
// in the current function, or nil.
func (w *walker) findStatusCopy(v *types.Var) *ast.SelectorExpr {
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
	return nil
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

// isBudgetCall reports whether a call consults a budget, limiter or breaker.
func (w *walker) isBudgetCall(call *ast.CallExpr) bool {
	fn := astq.Callee(w.info, call)
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
		IsBudget: w.isBudgetCall,
		MadeClient: func(fn *types.Func) *libmodel.MadeClient {
			if f := w.factOf(fn); f != nil {
				return f.MadeClient
			}
			return nil
		},
		KeyHeaders: append(append([]string(nil), defaultKeyHeaders...), w.opts.KeyHeaders...),
	}
}

// PkgFact marks a package some of whose functions have facts: packages
// importing it must be analyzed in full.
type PkgFact struct {
	// Remote: a function of the package reaches the network.
	Remote bool
}

// AFact marks PkgFact as an analysis fact.
func (*PkgFact) AFact() {}

func (f *PkgFact) String() string {
	if f.Remote {
		return "retry-relevant, remote"
	}
	return "retry-relevant"
}

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
	return !isStdPath(path)
}

// follows puts the definition at, followed by the resolver what, on the
// pass's one follow.Path; false means it is being followed already (the
// value is defined by itself) or the path is too long: the resolver then
// answers unknown. Each true follows is matched by one unfollows.
func (w *walker) follows(what string, at any) bool {
	return w.path.Enter(follow.Key{What: what, At: at})
}

func (w *walker) unfollows(what string, at any) { w.path.Leave(follow.Key{What: what, At: at}) }
