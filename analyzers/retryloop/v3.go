package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/retrylint/retrylint/analyzers/internal/astq"
	"github.com/retrylint/retrylint/analyzers/internal/flow"
	"github.com/retrylint/retrylint/analyzers/internal/sites"
)

// v3 is what the model v3 (analyzers/internal/sites, the SPEC's definition
// computed on SSA) decided of the package's cycles: the operations whose
// failure goes round to them again while their success leaves, by the
// Lparen of the call, for the cycles of loops and of gotos. The walk of
// this package then describes such a site (its bound, waits, deadline,
// requests) even where its own simulation did not see the retry.
type v3 struct {
	loops map[token.Pos]*flow.Site // cycles of for and range loops
	gotos map[token.Pos]*flow.Site // cycles whose head is a label
	// retries are the package's functions that retry a parameter (its
	// index in the signature), by v3's summaries.
	retries map[*types.Func]int
}

func newV3(res *sites.Result) *v3 {
	v := &v3{loops: map[token.Pos]*flow.Site{}, gotos: map[token.Pos]*flow.Site{}, retries: map[*types.Func]int{}}
	if res == nil {
		return v
	}
	for fn, idx := range res.Summaries {
		obj, ok := fn.Object().(*types.Func)
		if !ok || len(idx) == 0 {
			continue
		}
		i := idx[0]
		if fn.Signature.Recv() != nil {
			i-- // SSA counts the receiver first
		}
		if i >= 0 {
			v.retries[obj] = i
		}
	}
	for _, s := range res.Loops {
		switch {
		case s.Header == nil: // recursion: judged by recursionSite
		case strings.HasSuffix(s.Header.Comment, ".loop"):
			v.loops[s.Op.Pos()] = s
		default:
			v.gotos[s.Op.Pos()] = s
		}
	}
	return v
}

// forced returns the operations among s.ops that the model v3 found
// retried on the cycle s walks (a loop, or a goto back to s.gotoL), in
// source order, with the sites it found. A loop's cycle is the innermost
// loop statement holding every instruction of it.
func (v *v3) forced(s *sim, stmts []ast.Stmt) ([]*ast.CallExpr, []*flow.Site) {
	if v == nil || s.loop == nil && s.gotoL == nil {
		return nil, nil
	}
	var ops []*ast.CallExpr
	var found []*flow.Site
	var nested []ast.Node // loops inside the cycle's statements
	visit := func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt, *ast.RangeStmt:
			nested = append(nested, n)
		case *ast.CallExpr:
			if fs := v.siteOf(s, n); fs != nil && s.ops[n] {
				ops, found = append(ops, n), append(found, fs)
			}
		}
		return true
	}
	for _, st := range stmts {
		ast.Inspect(st, visit)
	}
	for i := 0; i < len(ops); i++ {
		if s.loop != nil && !spans(s.loop, found[i]) || slices.ContainsFunc(nested, func(n ast.Node) bool { return spans(n, found[i]) }) {
			ops, found = slices.Delete(ops, i, i+1), slices.Delete(found, i, i+1)
			i--
		}
	}
	return ops, found
}

// spans reports whether n holds every instruction of fs's cycle.
func spans(n ast.Node, fs *flow.Site) bool {
	return fs.Lo.IsValid() && n.Pos() <= fs.Lo && fs.Hi < n.End()
}

// simulate3 is simulate, and where it finds no retry, the site the model
// v3 found on the same cycle, described by this package's walk: its waits
// are every wait the cycle's statements hold (whichever path they are
// on: a wait the cycle may pass is not judged absent).
func (w *walker) simulate3(s *sim, stmts []ast.Stmt) *Site {
	if site := w.simulate(s, stmts); site != nil {
		return site
	}
	ops, found := w.v3.forced(s, stmts)
	if len(ops) == 0 {
		return nil
	}
	site := &Site{Consume: !slices.ContainsFunc(found, func(fs *flow.Site) bool { return fs.Kind == flow.Retry })}
	site.StatusRetry = slices.ContainsFunc(found, func(fs *flow.Site) bool { return fs.Status })
	site.Ops = ops
	site.Flows = make([]*Flow, len(ops))
	site.Waits = w.siteWaits(s, w.cycleWaits(s, stmts), nil)
	site.v3Fail = []token.Pos{}
	for _, fs := range found {
		site.v3Fail = append(site.v3Fail, fs.Test.Cond.Pos())
	}
	return site
}

// cycleWaits lists the waits of stmts, outside function literals: wait
// calls, receives from a timer, a select with such a case, and the wait
// a ranged ticker starts each round with.
func (w *walker) cycleWaits(s *sim, stmts []ast.Stmt) map[ast.Node]bool {
	waits := map[ast.Node]bool{}
	if s.headWait != nil {
		waits[s.headWait] = true
	}
	for _, st := range stmts {
		ast.Inspect(st, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.CallExpr:
				if w.isWaitCall(n) || w.swallows(n) {
					waits[n] = true
				}
			case *ast.UnaryExpr:
				if n.Op == token.ARROW && w.isWaitRecv(n.X) {
					waits[n] = true
				}
			case *ast.SelectStmt:
				for _, c := range n.Body.List {
					if cc, ok := c.(*ast.CommClause); ok {
						if u := commRecv(cc.Comm); u != nil && w.isWaitRecv(u.X) {
							waits[n] = true
						}
					}
				}
			}
			return true
		})
	}
	return waits
}

// siteOf returns the v3 site of call on the kind of cycle s walks, or nil.
func (v *v3) siteOf(s *sim, call *ast.CallExpr) *flow.Site {
	if s.gotoL != nil {
		fs := v.gotos[call.Lparen]
		if fs != nil && fs.Header.Comment == s.gotoL.Name() {
			return fs
		}
		return nil
	}
	return v.loops[call.Lparen]
}

// v3Retrier is the fact of a function the model v3 found retrying one of
// its parameters where this walk found no retry helper: a wrapper around
// a helper or a retry library, however it forwards the operation (a
// closure, an option list). Its bound and waits are the inner helper's,
// unknown here.
func (w *walker) v3Retrier(fs *fnScope) *RetrierFact {
	if fs.obj == nil || w.v3 == nil {
		return nil
	}
	i, ok := w.v3.retries[fs.obj]
	if !ok {
		return nil
	}
	r := opRetrier(i)
	// A budget consulted in the function (in the closure it hands on,
	// say) or by the helper it calls guards every attempt.
	ast.Inspect(fs.body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			f := w.factOf(astq.Callee(w.info, c))
			r.Budget = r.Budget || w.isBudgetCall(c) || f != nil && f.Retrier != nil && f.Retrier.Budget
		}
		return !r.Budget
	})
	return r
}
