package retryloop

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/retrylint/retrylint/analyzers/internal/libmodel"

	"github.com/retrylint/retrylint/analyzers/internal/astq"
)

// Attempt counts (Site.Attempts, Layer.Chain): a positive number is the
// most attempts one call makes.
const (
	AttemptsUnknown   = libmodel.AttemptsUnknown   // nothing in view shows the count
	AttemptsUnbounded = libmodel.AttemptsUnbounded // nothing counts the attempts
)

// Layer is a retry layer that a site's retried operation reaches: a call
// to a function that retries (directly or through wrappers, across
// packages), a call into a retry library or a client with built-in
// retries, or a retry site nested in the site's own code.
type Layer struct {
	// Pos is the call that reaches the inner retry (or the inner site).
	Pos token.Pos
	// Chain is the attempt count of each layer from this one inwards.
	Chain []int
	// Budget reports whether the inner layer consults a retry budget.
	Budget bool
	// Owner names the innermost retrying function or client: the layer
	// nearest the dependency, which should own the retry.
	Owner string
	// Client reports that the inner retry is a client's built-in one.
	Client bool
}

// LayerFact describes a function that retries, or calls (and returns the
// failure of) a function that retries: what a retry site calling it
// multiplies.
type LayerFact struct {
	Chain  []int
	Budget bool
	Owner  string
	Client bool
}

// layers computes the attempt counts of the sites, the retry layers each
// site's operation reaches, and the layer facts of the package's
// functions. quiet are library sites without findings: retry layers all
// the same.
func (w *walker) layers(fns []*fnScope, sites, quiet []*Site) {
	l := &layering{w: w, env: w.libEnv(), byFunc: map[*types.Func][]*Site{}, decl: map[*types.Func]*fnScope{},
		fact: map[*types.Func]*LayerFact{}, done: map[*types.Func]bool{}, inner: map[*Site]bool{}}
	var all []*Site
	for _, s := range append(append([]*Site(nil), sites...), quiet...) {
		if s.Shape != ShapeLibrary {
			s.Attempts = w.siteAttempts(s)
			s.Repair = w.repair(s)
		}
		if !s.Repair { // a repair is no retry layer
			all = append(all, s)
		}
	}
	l.all = all
	if w.inGOROOT() {
		return
	}
	for _, fs := range fns {
		if fs.obj != nil {
			l.decl[fs.obj] = fs
		}
	}
	for _, s := range all {
		if fn := l.owner(s, fns); fn != nil {
			l.byFunc[fn] = append(l.byFunc[fn], s)
		}
	}
	for _, s := range all {
		l.siteInner(s)
	}
	for _, fs := range fns {
		if fs.obj == nil {
			continue
		}
		lf := l.layerOf(fs.obj)
		if lf == nil {
			continue
		}
		f := w.facts[fs.obj]
		if f == nil {
			f = &FuncFact{}
			w.facts[fs.obj] = f
		}
		f.Layer = lf
		w.pass.ExportObjectFact(fs.obj, f)
	}
}

type layering struct {
	w      *walker
	env    *libmodel.Env
	all    []*Site
	byFunc map[*types.Func][]*Site // the sites each declared function runs itself
	decl   map[*types.Func]*fnScope
	fact   map[*types.Func]*LayerFact
	done   map[*types.Func]bool // layerOf computed (or in progress)
	inner  map[*Site]bool       // siteInner computed (or in progress)
}

// owner returns the declared function that runs s when it is called: the
// function holding it, or holding the literal holding it, unless a go
// statement starts it (the failure then does not come back to the caller).
func (l *layering) owner(s *Site, fns []*fnScope) *types.Func {
	if s.Consume || conflictOnly(l.w.info, s) {
		return nil
	}
	for _, fs := range fns {
		if fs.obj == nil || s.Pos < fs.body.Pos() || s.Pos >= fs.body.End() {
			continue
		}
		started := false
		ast.Inspect(fs.body, func(n ast.Node) bool {
			if g, ok := n.(*ast.GoStmt); ok && g.Pos() <= s.Pos && s.Pos < g.End() {
				started = true
			}
			return !started
		})
		if started {
			return nil
		}
		return fs.obj
	}
	return nil
}

// conflictOnly reports whether s is client-go's RetryOnConflict: it
// retries only an update conflict, which no inner layer retries, and a
// conflict is not overload.
func conflictOnly(info *types.Info, s *Site) bool {
	c, ok := s.Node.(*ast.CallExpr)
	return ok && s.Shape == ShapeLibrary && astq.IsFunc(astq.Callee(info, c), "k8s.io/client-go/util/retry.RetryOnConflict")
}

// layerOf returns the layer fact of fn: its own outermost retry site, or
// else a retrying function it calls and whose failure it returns.
func (l *layering) layerOf(fn *types.Func) *LayerFact {
	if fn == nil {
		return nil
	}
	fn = fn.Origin()
	if fn.Pkg() == nil {
		return nil
	}
	if fs, local := l.decl[fn]; local {
		if !l.done[fn] {
			l.done[fn] = true
			l.fact[fn] = l.compute(fs)
		}
		return l.fact[fn]
	}
	if f := l.w.factOf(fn); f != nil && !libmodel.Modeled(fn.Pkg().Path()) {
		// A modeled library's retries are judged by its API (a client's
		// RetryMax), not by the loops inside it.
		return f.Layer
	}
	return nil
}

func (l *layering) compute(fs *fnScope) *LayerFact {
	var best *LayerFact
	for _, s := range l.byFunc[fs.obj] {
		if l.nested(s, fs.obj) {
			continue
		}
		l.siteInner(s)
		lf := &LayerFact{Chain: s.Chain(), Budget: s.Budgeted(), Owner: FuncName(fs.obj)}
		if in := WorstLayer(s.Inner); in != nil {
			lf.Owner, lf.Client = in.Owner, in.Client
		}
		best = worse(best, lf)
	}
	if best != nil {
		return best
	}
	// A wrapper: a call whose failure it hands back.
	ast.Inspect(fs.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.GoStmt, *ast.DeferStmt:
			return false
		case *ast.CallExpr:
			fn := astq.Callee(l.w.info, n)
			if fn == nil || fn.Origin() == fs.obj {
				return true
			}
			// The fact first: failsOut walks the body.
			if lf := l.layerOf(fn); lf != nil && l.w.failsOut(n, fs.body, fs.typ) {
				best = worse(best, lf)
			}
		}
		return true
	})
	return best
}

// nested reports whether s runs inside another site of fn (its loop or the
// operation of its library call): only the outermost sites are fn's layer.
func (l *layering) nested(s *Site, fn *types.Func) bool {
	for _, t := range l.byFunc[fn] {
		if t != s && t.Node.Pos() <= s.Pos && s.End <= t.Node.End() && (t.Node.Pos() != s.Node.Pos() || t.Node.End() != s.Node.End()) {
			return true
		}
	}
	return false
}

// siteInner fills s.Inner: the retry layers s's retried operation reaches.
func (l *layering) siteInner(s *Site) {
	if l.inner[s] {
		return
	}
	l.inner[s] = true
	if s.Consume || conflictOnly(l.w.info, s) {
		return
	}
	seen := map[token.Pos]bool{}
	add := func(in *Layer) {
		if in != nil && !seen[in.Pos] {
			seen[in.Pos] = true
			s.Inner = append(s.Inner, in)
		}
	}
	var body ast.Node // a function literal the site retries
	for _, op := range s.Ops {
		if op != s.Node {
			add(l.callLayer(s, op))
			continue
		}
		var fn *types.Func
		body, fn = l.opBody(s)
		if lf := l.layerOf(fn); lf != nil && l.remoteFunc(fn) {
			add(&Layer{Pos: s.Pos, Chain: lf.Chain, Budget: lf.Budget, Owner: lf.Owner, Client: lf.Client})
		}
	}
	if body != nil {
		ast.Inspect(body, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				if in := l.callLayer(s, c); in != nil && l.w.failsOut(c, body, funcType(body)) {
					add(in)
				}
			}
			_, lit := n.(*ast.FuncLit)
			return !lit || n == body
		})
	}
	for _, t := range l.all {
		if t == s || t.Shape == ShapeLibrary || t.Consume || t.Remote == nil || !l.within(t, s, body) {
			continue
		}
		l.siteInner(t)
		add(&Layer{Pos: t.Pos, Chain: t.Chain(), Budget: t.Budgeted(), Owner: l.ownerName(t)})
	}
}

// within reports whether site t runs inside s: in s's loop retrying one of
// s's operations, or in the function literal s retries.
func (l *layering) within(t, s *Site, body ast.Node) bool {
	if body != nil && body.Pos() <= t.Pos && t.End <= body.End() {
		return true
	}
	if s.Shape == ShapeLibrary || s.Shape == ShapeHelper || t.Func != s.Func || t.Pos <= s.Pos || t.End > s.Node.End() {
		return false
	}
	for _, op := range t.Ops {
		if slicesContains(s.Ops, op) {
			return true
		}
	}
	return false
}

// opBody returns the function literal a library or helper site retries,
// or the function it names.
func (l *layering) opBody(s *Site) (ast.Node, *types.Func) {
	op := s.LibOp
	if s.Shape == ShapeHelper {
		call := s.Node.(*ast.CallExpr)
		if f := l.w.factOf(astq.Callee(l.w.info, call)); f != nil && f.Retrier != nil && f.Retrier.OpParam >= 0 && f.Retrier.OpParam < len(call.Args) {
			op = call.Args[f.Retrier.OpParam]
		}
	}
	if op == nil {
		return nil, nil
	}
	if lit, ok := ast.Unparen(op).(*ast.FuncLit); ok {
		return lit, nil
	}
	if fn, ok := l.w.usedObj(op).(*types.Func); ok {
		return nil, fn // a named function or method value
	}
	prev := l.w.cur
	l.w.cur = l.scopeOf(s)
	defer func() { l.w.cur = prev }()
	if lit := l.w.localFunc(op); lit != nil {
		return lit, nil
	}
	return nil, nil
}

func (l *layering) scopeOf(s *Site) *fnScope {
	switch f := s.Func.(type) {
	case *ast.FuncDecl:
		return &fnScope{node: f, body: f.Body, typ: f.Type, file: s.File}
	case *ast.FuncLit:
		return &fnScope{node: f, body: f.Body, typ: f.Type, file: s.File}
	}
	return nil
}

// callLayer returns the retry layer a call in s's operation reaches, or nil.
func (l *layering) callLayer(s *Site, c *ast.CallExpr) *Layer {
	for _, t := range l.all {
		if t != s && t.Node == ast.Node(c) && !t.Consume && !conflictOnly(l.w.info, t) {
			// A library call or helper call of this package retried again.
			l.siteInner(t)
			in := &Layer{Pos: c.Pos(), Chain: t.Chain(), Budget: t.Budgeted(), Owner: l.ownerName(t)}
			if t.Shape == ShapeLibrary && t.LibOp == nil {
				in.Client = true
			}
			return in
		}
	}
	if n, budgeted, what, ok := libmodel.ClientRetries(l.env, c); ok {
		return &Layer{Pos: c.Pos(), Chain: []int{n}, Budget: budgeted, Owner: what, Client: true}
	}
	fn := astq.Callee(l.w.info, c)
	if fn == nil || !l.w.isRemoteCall(c) {
		return nil // a retry of local work multiplies no load on a dependency
	}
	if lf := l.layerOf(fn); lf != nil {
		return &Layer{Pos: c.Pos(), Chain: lf.Chain, Budget: lf.Budget, Owner: lf.Owner, Client: lf.Client}
	}
	return nil
}

// remoteFunc reports whether fn reaches the network.
func (l *layering) remoteFunc(fn *types.Func) bool {
	if fn == nil {
		return false
	}
	f := l.w.factOf(fn)
	return f != nil && f.Remote || l.w.isRemoteFunc(fn)
}

// inGOROOT reports whether the package is the standard library's. Its
// internal retries retry a dead pooled connection with a fresh one
// (database/sql on driver.ErrBadConn, net/http a request on a closed
// keep-alive connection, net the next address) or local work: failovers,
// not layers that multiply load. Told by where its files are (a source
// tree whose go.mod says "module std"), as GOPATH-style packages have
// import paths without a dot too, and a binary built with -trimpath
// knows no GOROOT.
func (w *walker) inGOROOT() bool {
	if len(w.pass.Files) == 0 {
		return false
	}
	dir := filepath.Dir(w.pass.Fset.File(w.pass.Files[0].Pos()).Name())
	root, ok := strings.CutSuffix(filepath.ToSlash(dir), "/"+w.pass.Pkg.Path())
	if !ok {
		return false
	}
	if v, ok := stdRoots.Load(root); ok {
		return v.(bool)
	}
	data, err := os.ReadFile(filepath.Join(filepath.FromSlash(root), "go.mod"))
	std := err == nil && strings.HasPrefix(strings.TrimSpace(string(data)), "module std")
	stdRoots.Store(root, std)
	return std
}

// stdRoots caches inGOROOT's answer per source tree.
var stdRoots sync.Map

// ownerName names the function holding site t, or its library.
func (l *layering) ownerName(t *Site) string {
	if t.Shape == ShapeLibrary && t.LibOp == nil {
		return "the " + t.Library + " client"
	}
	for fn, sites := range l.byFunc {
		for _, u := range sites {
			if u == t {
				return FuncName(fn)
			}
		}
	}
	return "the inner retry"
}

// funcType returns the type of a function literal, or nil.
func funcType(n ast.Node) *ast.FuncType {
	if lit, ok := n.(*ast.FuncLit); ok {
		return lit.Type
	}
	return nil
}

// failsOut reports whether the failure of call c comes back out of body,
// a function of type typ: c is returned, or the error it gives is
// returned (by name, or by a bare return of the named result it was
// assigned to) or tested before a return. A call whose error is dropped
// or only logged is another operation.
func (w *walker) failsOut(c *ast.CallExpr, body ast.Node, typ *ast.FuncType) bool {
	sig, ok := w.info.TypeOf(c.Fun).(*types.Signature)
	if !ok || sig.Results().Len() == 0 || !isErrorType(sig.Results().At(sig.Results().Len()-1).Type()) {
		return false
	}
	var errVar types.Object
	out := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ReturnStmt:
			if n.Pos() <= c.Pos() && c.End() <= n.End() {
				out = true
			}
		case *ast.AssignStmt:
			for _, r := range n.Rhs {
				if ast.Unparen(r) == ast.Expr(c) && len(n.Lhs) == sig.Results().Len() {
					if id, ok := n.Lhs[len(n.Lhs)-1].(*ast.Ident); ok && id.Name != "_" {
						errVar = w.info.ObjectOf(id)
					}
				}
			}
		}
		return !out
	})
	if out || errVar == nil {
		return out
	}
	named := w.isNamedResult(errVar, typ)
	ast.Inspect(body, func(n ast.Node) bool {
		if r, ok := n.(*ast.ReturnStmt); ok {
			if len(r.Results) == 0 && named {
				out = true // return: the named result err
			}
			for _, e := range r.Results {
				if astq.RefersTo(w.info, e, errVar) {
					out = true
				}
			}
		}
		return !out
	})
	return out
}

// isNamedResult reports whether v is one of the named results of typ.
func (w *walker) isNamedResult(v types.Object, typ *ast.FuncType) bool {
	return typ != nil && w.declares(typ.Results, v)
}

// Product returns the number of attempts a chain of layers makes at most,
// and whether every count is known and bounded; unbounded reports that a
// layer has no limit.
func Product(chain []int) (n int, known, unbounded bool) {
	n, known = 1, true
	for _, c := range chain {
		switch {
		case c == AttemptsUnbounded:
			unbounded = true
		case c == AttemptsUnknown:
			known = false
		default:
			n *= c
		}
	}
	return n, known && !unbounded, unbounded
}

// worse returns the worse of two layer facts: an unbounded chain, else
// the larger product of the counts known.
func worse(a, b *LayerFact) *LayerFact {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	an, _, au := Product(a.Chain)
	bn, _, bu := Product(b.Chain)
	if au != bu {
		if bu {
			return b
		}
		return a
	}
	if bn > an || bn == an && len(b.Chain) > len(a.Chain) {
		return b
	}
	return a
}

// WorstLayer returns the layer of in whose chain makes the most attempts
// (an unbounded one first), or nil.
func WorstLayer(in []*Layer) *Layer {
	var best *Layer
	var bf *LayerFact
	for _, x := range in {
		lf := &LayerFact{Chain: x.Chain}
		if w := worse(bf, lf); w == lf {
			best, bf = x, lf
		}
	}
	return best
}

// FuncName names fn for messages: pkg.Func or pkg.(*T).Method.
func FuncName(fn *types.Func) string {
	name := fn.Name()
	if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil {
		t := sig.Recv().Type()
		ptr := ""
		if p, ok := t.(*types.Pointer); ok {
			t, ptr = p.Elem(), "*"
		}
		if n, ok := types.Unalias(t).(*types.Named); ok {
			if ptr != "" {
				name = "(*" + n.Obj().Name() + ")." + name
			} else {
				name = n.Obj().Name() + "." + name
			}
		}
	}
	if fn.Pkg() != nil {
		name = fn.Pkg().Name() + "." + name
	}
	return name
}

// siteAttempts reads the attempt count of a hand-rolled site from its
// loop header: for i := c; i < n; i++ (or <=, or range n) with constants,
// or no limit at all.
func (w *walker) siteAttempts(s *Site) int {
	switch {
	case s.Bound == BoundNone && len(s.Budget) == 0:
		return AttemptsUnbounded
	case s.Bound != BoundCounter:
		return AttemptsUnknown
	}
	switch l := s.Node.(type) {
	case *ast.RangeStmt:
		if n, ok := w.intValue(l.X); ok && n > 0 {
			return int(n)
		}
	case *ast.ForStmt:
		return w.forAttempts(l)
	}
	return AttemptsUnknown
}

// forAttempts counts the iterations of for i := c; i < n; i++.
func (w *walker) forAttempts(l *ast.ForStmt) int {
	init, ok := l.Init.(*ast.AssignStmt)
	cond, ok2 := l.Cond.(*ast.BinaryExpr)
	inc, ok3 := l.Post.(*ast.IncDecStmt)
	if !ok || !ok2 || !ok3 || len(init.Lhs) != 1 || len(init.Rhs) != 1 || inc.Tok != token.INC {
		return AttemptsUnknown
	}
	id, _ := init.Lhs[0].(*ast.Ident)
	v, _ := w.info.ObjectOf(id).(*types.Var)
	if id == nil || v == nil || !isInt(v.Type()) || !w.isVar(cond.X, v) || !w.isVar(inc.X, v) {
		return AttemptsUnknown
	}
	from, ok := w.intValue(init.Rhs[0])
	to, ok2 := w.intValue(cond.Y)
	if !ok || !ok2 {
		return AttemptsUnknown
	}
	n := to - from
	switch cond.Op {
	case token.LSS:
	case token.LEQ:
		n++
	default:
		return AttemptsUnknown
	}
	if n <= 0 || n > 1<<20 || w.modifiedIn(v, l.Body) {
		return AttemptsUnknown
	}
	return int(n)
}

// intValue returns the value of a constant integer expression.
func (w *walker) intValue(e ast.Expr) (int64, bool) {
	tv := w.info.Types[e]
	if tv.Value == nil {
		return 0, false
	}
	return constant.Int64Val(constant.ToInt(tv.Value))
}

// ChainString writes a chain of attempt counts for messages: "3 × 5", with
// "?" for an unknown count and "unbounded" for none.
func ChainString(chain []int) string {
	parts := make([]string, len(chain))
	for i, c := range chain {
		switch c {
		case AttemptsUnknown:
			parts[i] = "?"
		case AttemptsUnbounded:
			parts[i] = "unbounded"
		default:
			parts[i] = strconv.Itoa(c)
		}
	}
	return strings.Join(parts, " × ")
}
