package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/analyzers/internal/astq"
)

// A repair is not a retry (SPEC, settled 2026-12-06): one re-attempt
// after a corrective action that changes the request's inputs (a
// refreshed token after 401, a re-resolved leader after "not leader", a
// recreated session), triggered only by the failure that action
// repairs. A loop site is a repair when every failure of its operations
// that goes round does so from a branch that
//
//   - tests a particular failure (a classifier call, errors.Is, a
//     comparison with a value), not any failure;
//   - runs at most once: the loop makes two attempts, or the branch's
//     condition reads a bool variable the branch sets;
//   - calls something other than the operations and the standard
//     library before going round: the corrective action.

// repair reports whether a loop site is a repair rather than a retry.
func (w *walker) repair(site *Site) bool {
	var body *ast.BlockStmt
	switch n := site.Node.(type) {
	case *ast.ForStmt:
		body = n.Body
	case *ast.RangeStmt:
		body = n.Body
	default:
		return false
	}
	if site.StatusRetry || site.Consume || len(site.Waits) > 0 {
		return false
	}
	rounds := 0
	for _, f := range site.Flows {
		if f == nil {
			return false
		}
		for _, e := range f.Failure {
			if e.Leaves {
				continue
			}
			if !e.Pos.IsValid() {
				return false // goes round at the end of a round: any failure
			}
			ifs := enclosingIf(body, e.Pos)
			if ifs == nil || !w.repairBranch(site, ifs, e.Pos) {
				return false
			}
			rounds++
		}
	}
	return rounds > 0
}

// enclosingIf returns the innermost if statement of body whose then
// branch holds pos, or nil.
func enclosingIf(body *ast.BlockStmt, pos token.Pos) *ast.IfStmt {
	var found *ast.IfStmt
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil || pos < n.Pos() || n.End() <= pos {
			return false
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if ifs, ok := n.(*ast.IfStmt); ok && ifs.Body.Pos() <= pos && pos < ifs.Body.End() {
			found = ifs
		}
		return true
	})
	return found
}

// repairBranch reports whether the branch ifs, going round at pos, is a
// one-time repair of a particular failure.
func (w *walker) repairBranch(site *Site, ifs *ast.IfStmt, pos token.Pos) bool {
	if !particularFailure(ifs.Cond) {
		return false
	}
	if site.Attempts != 2 && !w.onceFlag(ifs) {
		return false
	}
	corrective := false
	ast.Inspect(ifs.Body, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok || corrective || c.Pos() >= pos {
			return !corrective
		}
		for _, op := range site.Ops {
			if op == c {
				return false
			}
		}
		fn := astq.Callee(w.info, c)
		if fn != nil && fn.Pkg() != nil && !isStd(fn.Pkg().Path()) {
			corrective = true
		}
		return !corrective
	})
	return corrective
}

// particularFailure reports whether cond tests a particular failure: it
// calls something (errors.Is, a classifier) or compares with ==, rather
// than only testing err != nil.
func particularFailure(cond ast.Expr) bool {
	found := false
	ast.Inspect(cond, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			found = true
		case *ast.BinaryExpr:
			if n.Op == token.EQL && !isNilIdent(n.X) && !isNilIdent(n.Y) {
				found = true
			}
		}
		return !found
	})
	return found
}

func isNilIdent(e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && id.Name == "nil"
}

// onceFlag reports whether the branch's condition reads a bool variable
// that the branch sets (if !refreshed { refreshed = true; ... }): it runs
// once.
func (w *walker) onceFlag(ifs *ast.IfStmt) bool {
	flags := map[types.Object]bool{}
	ast.Inspect(ifs.Cond, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := w.info.Uses[id].(*types.Var); ok && types.Identical(v.Type().Underlying(), types.Typ[types.Bool]) {
				flags[v] = true
			}
		}
		return true
	})
	set := false
	ast.Inspect(ifs.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || set {
			return !set
		}
		for _, l := range as.Lhs {
			if id, ok := ast.Unparen(l).(*ast.Ident); ok && flags[w.info.Uses[id]] {
				set = true
			}
		}
		return !set
	})
	return set
}
