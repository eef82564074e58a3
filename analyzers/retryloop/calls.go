package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strings"

	"github.com/retrylint/retrylint/analyzers/internal/astq"
)

// BudgetPath is the import path of the bundled retry-budget library.
const BudgetPath = astq.BudgetPath

func pkgPath(fn *types.Func) string {
	if fn == nil || fn.Pkg() == nil {
		return ""
	}
	return fn.Pkg().Path()
}

// returnsError reports whether fn's last result is error.
func returnsError(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Results().Len() == 0 {
		return false
	}
	return isErrorType(sig.Results().At(sig.Results().Len() - 1).Type())
}

func isErrorType(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

// budgetFuncs are calls that consult a retry budget, limiter or breaker.
var budgetFuncs = map[string]bool{
	BudgetPath + ".Adaptive.Allow": true, BudgetPath + ".TokenBucket.Allow": true,
	BudgetPath + ".(interface).Allow": true, BudgetPath + ".RetryBudget.Allow": true,
	BudgetPath + ".Breaker.Admit":          true,
	"golang.org/x/time/rate.Limiter.Allow": true, "golang.org/x/time/rate.Limiter.AllowN": true,
	"golang.org/x/time/rate.Limiter.Wait": true, "golang.org/x/time/rate.Limiter.WaitN": true,
	"golang.org/x/time/rate.Limiter.Reserve": true, "golang.org/x/time/rate.Limiter.ReserveN": true,
	"github.com/sony/gobreaker.CircuitBreaker.Execute": true, "github.com/sony/gobreaker.TwoStepCircuitBreaker.Allow": true,
	"github.com/sony/gobreaker/v2.CircuitBreaker.Execute": true, "github.com/sony/gobreaker/v2.TwoStepCircuitBreaker.Allow": true,
}

// isBudgetFunc reports whether fn consults a retry budget, limiter or breaker.
func (c *walker) isBudgetFunc(fn *types.Func) bool {
	if fn == nil {
		return false
	}
	p := astq.FuncPath(fn)
	if budgetFuncs[p] {
		return true
	}
	for _, n := range c.opts.BudgetFuncs {
		if n == p {
			return true
		}
	}
	if path := pkgPath(fn); strings.HasPrefix(path, "github.com/failsafe-go/failsafe-go/") &&
		(strings.Contains(path, "budget") || strings.Contains(path, "circuitbreaker") || strings.Contains(path, "ratelimiter")) {
		switch fn.Name() {
		case "TryAcquirePermit", "AcquirePermit", "TryAcquirePermits", "AcquirePermitWithMaxWait":
			return true
		}
	}
	var fact FuncFact
	if fn.Pkg() != nil && fn.Pkg() != c.pass.Pkg && c.pass.ImportObjectFact(fn, &fact) && fact.Budget {
		return true
	}
	return false
}

// isRandFunc reports whether fn yields randomness.
func isRandFunc(fn *types.Func) bool {
	switch pkgPath(fn) {
	case "math/rand", "math/rand/v2", "crypto/rand":
		return true
	case BudgetPath:
		switch fn.Name() {
		case "Jitter", "Next", "NewIdempotencyKey":
			return true
		}
	}
	return false
}

// isContextType reports whether t is context.Context.
func isContextType(t types.Type) bool { return astq.IsNamed(t, "context", "Context") }

// isDurationType reports whether t is time.Duration.
func isDurationType(t types.Type) bool { return astq.IsNamed(t, "time", "Duration") }

// isStopChan reports whether t is a channel of struct{} usable as a stop signal.
func isStopChan(t types.Type) bool {
	ch, ok := t.Underlying().(*types.Chan)
	if !ok || ch.Dir() == types.SendOnly {
		return false
	}
	st, ok := ch.Elem().Underlying().(*types.Struct)
	return ok && st.NumFields() == 0
}

// localFunc returns the function literal a local variable of the current
// function holds when it is assigned that, and only that, once
// (call := func() error { return c.Post(...) }), or nil: a value the
// analysis cannot follow.
func (w *walker) localFunc(e ast.Expr) *ast.FuncLit {
	v := w.localVar(e)
	if v == nil {
		return nil
	}
	if _, ok := v.Type().Underlying().(*types.Signature); !ok {
		return nil
	}
	key := copyKey{v, w.cur.body}
	if lit, done := w.localFuncs[key]; done {
		return lit
	}
	lit, _ := ast.Unparen(w.soleValue(v, w.cur.body)).(*ast.FuncLit)
	if w.localFuncs == nil {
		w.localFuncs = map[copyKey]*ast.FuncLit{}
	}
	w.localFuncs[key] = lit
	return lit
}

// localVar returns the variable of the function being examined (or of
// a function of this package around it) that e names, or nil: no
// package-level variable, no field.
func (w *walker) localVar(e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok || w.cur == nil {
		return nil
	}
	v, ok := w.info.Uses[id].(*types.Var)
	if !ok || v.Pkg() != w.pass.Pkg || v.Parent() == nil || v.Parent() == w.pass.Pkg.Scope() {
		return nil
	}
	return v
}

// soleValue returns the value a local variable is given when body
// assigns it exactly once and nothing else can change it, or nil.
func (w *walker) soleValue(v *types.Var, body ast.Node) ast.Expr {
	vals, ok := w.valuesOf(v, body)
	if !ok || len(vals) != 1 {
		return nil
	}
	return vals[0]
}

// valuesOf returns every value the nodes give v: the right-hand side of
// each plain assignment, the initialiser of its declaration (nil for a
// declaration without one), and, for a field, the value keyed by it in a
// composite literal. ok is false when a change cannot be seen: a tuple
// assignment, an operator assignment, v[k] = x, ++/--, a range variable,
// or its address taken.
func (w *walker) valuesOf(v *types.Var, nodes ...ast.Node) (vals []ast.Expr, ok bool) {
	vals, index, ok := w.assignsOf(v, nodes...)
	return vals, ok && len(index) == 0
}

// assignsOf is valuesOf with the element writes v[k] = x kept apart (as
// the assignments) rather than making the values unknown.
func (w *walker) assignsOf(v *types.Var, nodes ...ast.Node) (vals []ast.Expr, index []*ast.AssignStmt, ok bool) {
	set := &writes{}
	scanWrites(w, nodes, func(o types.Object) *writes {
		if o == v {
			return set
		}
		return nil
	})
	return set.vals, set.index, !set.hidden
}

// pkgValuesOf is valuesOf over the package's files (with its tests, or
// without): one scan of the files per pass answers every variable.
func (w *walker) pkgValuesOf(v *types.Var, tests bool) (vals []ast.Expr, ok bool) {
	vals, index, ok := w.pkgAssignsOf(v, tests)
	return vals, ok && len(index) == 0
}

// pkgAssignsOf is assignsOf over the package's files.
func (w *walker) pkgAssignsOf(v *types.Var, tests bool) (vals []ast.Expr, index []*ast.AssignStmt, ok bool) {
	i := 0
	if tests {
		i = 1
	}
	if v.Parent() != nil && v.Parent() != w.pass.Pkg.Scope() {
		// A local: only the declaration around it writes it.
		if d := w.enclosingDecl(v.Pos()); d != nil && (tests || !w.isTestFile(d.Pos())) {
			return w.assignsOf(v, d)
		}
		return nil, nil, true
	}
	if w.pkgWrites[i] == nil {
		all := map[types.Object]*writes{}
		files := w.nonTestFiles()
		if tests {
			files = w.packageFiles()
		}
		scanWrites(w, files, w.pkgWriteSet(all))
		w.pkgWrites[i] = all
	}
	set := w.pkgWrites[i][v]
	if set == nil {
		return nil, nil, true
	}
	return set.vals, set.index, !set.hidden
}

// pkgWriteSet returns the scanWrites answer that indexes into all the
// writes to every package-level variable and field; locals are answered
// from their declaration (pkgAssignsOf).
func (w *walker) pkgWriteSet(all map[types.Object]*writes) func(types.Object) *writes {
	return func(o types.Object) *writes {
		if l, ok := o.(*types.Var); ok && l.Parent() != nil && l.Parent() != w.pass.Pkg.Scope() {
			return nil
		}
		if all[o] == nil {
			all[o] = &writes{}
		}
		return all[o]
	}
}

// writes are what the code writes to one variable.
type writes struct {
	vals   []ast.Expr
	index  []*ast.AssignStmt
	hidden bool // a change that cannot be seen (see valuesOf)
}

// scanWrites records, in source order, every write the nodes make to a
// variable into the set of's answer for it (nil: not wanted).
func scanWrites(w *walker, nodes []ast.Node, of func(types.Object) *writes) {
	sc := writeScan{w: w, of: of}
	for _, node := range nodes {
		ast.Inspect(node, func(n ast.Node) bool {
			sc.node(n)
			return true
		})
	}
}

type writeScan struct {
	w  *walker
	of func(types.Object) *writes
}

// target returns the set of the variable l names (:= defines it), or nil.
func (sc writeScan) target(l ast.Expr) *writes {
	var o types.Object
	if id, isID := ast.Unparen(l).(*ast.Ident); isID {
		o = sc.w.info.ObjectOf(id)
	} else {
		o = sc.w.usedObj(l)
	}
	if o == nil {
		return nil
	}
	return sc.of(o)
}

// hide marks the variable x names as changed in a way that cannot be seen.
func (sc writeScan) hide(x ast.Expr) {
	if x == nil {
		return
	}
	if set := sc.target(x); set != nil {
		set.hidden = true
	}
}

func (sc writeScan) node(n ast.Node) {
	switch n := n.(type) {
	case *ast.AssignStmt:
		sc.assign(n)
	case *ast.ValueSpec:
		sc.valueSpec(n)
	case *ast.KeyValueExpr:
		if id, isID := n.Key.(*ast.Ident); isID {
			if f, isVar := sc.w.info.Uses[id].(*types.Var); isVar && f.IsField() {
				if set := sc.of(f); set != nil {
					set.vals = append(set.vals, n.Value)
				}
			}
		}
	case *ast.IncDecStmt:
		sc.hide(n.X)
	case *ast.RangeStmt:
		sc.hide(n.Key)
		sc.hide(n.Value)
	case *ast.UnaryExpr:
		if n.Op == token.AND {
			sc.hide(n.X) // its address escapes: anything may be stored
		}
	}
}

func (sc writeScan) assign(n *ast.AssignStmt) {
	for i, l := range n.Lhs {
		if ix, isIndex := ast.Unparen(l).(*ast.IndexExpr); isIndex {
			if set := sc.target(ix.X); set != nil {
				set.index = append(set.index, n)
			}
		}
		set := sc.target(l)
		if set == nil {
			continue
		}
		if len(n.Lhs) != len(n.Rhs) || n.Tok != token.ASSIGN && n.Tok != token.DEFINE {
			set.hidden = true
		} else {
			set.vals = append(set.vals, n.Rhs[i])
		}
	}
}

func (sc writeScan) valueSpec(n *ast.ValueSpec) {
	for i, name := range n.Names {
		o := sc.w.info.Defs[name]
		if o == nil {
			continue
		}
		set := sc.of(o)
		switch {
		case set == nil:
		case i < len(n.Values):
			set.vals = append(set.vals, n.Values[i])
		case len(n.Values) == 0:
			set.vals = append(set.vals, nil)
		default:
			set.hidden = true // var a, b = f()
		}
	}
}

// usedObj returns the object a name or a selector (x.f, pkg.F) refers to.
func (w *walker) usedObj(e ast.Expr) types.Object {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return w.info.Uses[e]
	case *ast.SelectorExpr:
		return w.info.Uses[e.Sel]
	}
	return nil
}

// packageFiles returns the package's files as nodes for valuesOf.
// enclosingDecl returns the top-level declaration of the package's
// files that holds pos, or nil.
func (w *walker) enclosingDecl(pos token.Pos) ast.Decl {
	for _, f := range w.pass.Files {
		if pos < f.FileStart || pos >= f.FileEnd {
			continue
		}
		for _, d := range f.Decls {
			if d.Pos() <= pos && pos < d.End() {
				return d
			}
		}
	}
	return nil
}

// isTestFile reports whether pos lies in a _test.go file.
func (w *walker) isTestFile(pos token.Pos) bool {
	return strings.HasSuffix(w.pass.Fset.File(pos).Name(), "_test.go")
}

func (w *walker) packageFiles() []ast.Node {
	ns := make([]ast.Node, len(w.pass.Files))
	for i, f := range w.pass.Files {
		ns[i] = f
	}
	return ns
}

// sortedOps returns the operations in source order: a walk per operation
// must not depend on map order.
func sortedOps(ops map[*ast.CallExpr]bool) []*ast.CallExpr {
	return slices.SortedFunc(maps.Keys(ops), func(a, b *ast.CallExpr) int { return int(a.Pos() - b.Pos()) })
}
