package retryloop

import (
	"go/ast"
	"go/token"
)

// describe fills in what a site touches: remote calls, budgets, the
// context and the HTTP requests it sends.
func (w *walker) describe(site *Site, fs *fnScope, node ast.Node, body *ast.BlockStmt) {
	ast.Inspect(node, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if site.Remote == nil && w.isRemoteCall(n) && w.retriedCall(site, n) {
				site.Remote = n
			}
			if w.isBudgetCall(n) {
				site.Budget = append(site.Budget, n.Pos())
			}
			if w.consults(n) {
				site.Ctx.Consulted = true
			}
		case *ast.UnaryExpr:
			if n.Op == token.ARROW && w.isConsultRecv(n.X) {
				site.Ctx.Consulted = true
			}
		}
		return true
	})
	ast.Inspect(fs.body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && w.isBudgetCall(c) {
			site.FuncBudget = true
		}
		return !site.FuncBudget
	})
	if site.Remote == nil {
		site.RemoteWhy = w.remoteWhy(site)
		site.Local = w.localOps(site)
		site.QuietBeside = len(site.Waits) == 0 && w.localBesideOps(site, node)
	}
	w.describeContext(site, fs, node)
	w.describeRequests(site, fs, node)
	if site.Bound == BoundNone && site.Ctx.Consulted && site.Ctx.InScope != nil {
		if d := w.varDeadline(site.Ctx.InScope, fs, 0); d == DeadlineSet || d == DeadlineCaller {
			site.Bound = BoundDeadline
		}
	}
}

// retriedCall reports whether call is, or is inside, one of the site's
// retried operations: a remote call that runs on every pass but whose
// failure leaves (a read before a parse that is retried) does not make
// the site a remote retry.
func (w *walker) retriedCall(site *Site, call *ast.CallExpr) bool {
	for _, op := range site.Ops {
		if op.Pos() <= call.Pos() && call.End() <= op.End() {
			return true
		}
		// A function literal called as the op (func() error { ... }()).
		if lit, ok := ast.Unparen(op.Fun).(*ast.FuncLit); ok && lit.Pos() <= call.Pos() && call.End() <= lit.End() {
			return true
		}
	}
	return false
}
