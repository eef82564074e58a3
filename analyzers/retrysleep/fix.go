package retrysleep

import (
	"go/ast"
	"go/constant"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/internal/fixes"
	"github.com/retrylint/retrylint/analyzers/retryloop"
)

// backoffFix replaces a fixed delay with exponential full-jitter backoff
// starting from the same base: a backoff declared before the loop, its
// next delay at the wait.
//
//	backoff := budget.Backoff{Base: time.Second}.Start()
//	for ... {
//		...
//		time.Sleep(backoff.Next())
//	}
func backoffFix(pass *analysis.Pass, s *retryloop.Site, w *retryloop.Wait) []analysis.SuggestedFix {
	switch s.Node.(type) {
	case *ast.ForStmt, *ast.RangeStmt:
	default:
		return nil
	}
	if w.Call == nil || w.Delay == nil || !fixes.Editable(pass, w.Call.Pos()) {
		return nil
	}
	var arg ast.Expr
	for _, a := range w.Call.Args {
		if a == w.Delay {
			arg = a
		}
	}
	if arg == nil {
		return nil
	}
	// Only a constant base below the library's 10s cap: a larger one
	// would be shortened by the cap, a variable one cannot be judged.
	tv := pass.TypesInfo.Types[arg]
	if tv.Value == nil {
		return nil
	}
	d, ok := constant.Int64Val(constant.ToInt(tv.Value))
	if !ok || d <= 0 || d >= int64(10*time.Second) {
		return nil
	}
	at, ok := fixes.InsertionPoint(s.Func, s.Node)
	if !ok {
		return nil
	}
	base, ok := fixes.Text(pass, arg)
	if !ok {
		return nil
	}
	file := fixes.FileOf(pass, at)
	name, imp := fixes.Import(pass, file, fixes.BudgetPath, "budget", at, arg.Pos())
	bo := fixes.FreeName(pass, file, "backoff", at)
	indent := fixes.Indent(pass, at)
	edits := append([]analysis.TextEdit{
		{Pos: at, End: at, NewText: []byte(bo + " := " + name + ".Backoff{Base: " + base + "}.Start()\n" + indent)},
		{Pos: arg.Pos(), End: arg.End(), NewText: []byte(bo + ".Next()")},
	}, imp...)
	return []analysis.SuggestedFix{{
		Message:   "Replace the fixed delay with exponential full-jitter backoff (budget.Backoff)",
		TextEdits: edits,
	}}
}
