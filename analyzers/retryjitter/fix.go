package retryjitter

import (
	"go/ast"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/internal/fixes"
	"github.com/retrylint/retrylint/analyzers/retryloop"
)

// jitterFix wraps the growing delay in budget.Jitter: full jitter, a delay
// drawn uniformly from [0, d).
func jitterFix(pass *analysis.Pass, w *retryloop.Wait) []analysis.SuggestedFix {
	arg := delayArg(w)
	if arg == nil || !fixes.Editable(pass, arg.Pos()) {
		return nil
	}
	file := fixes.FileOf(pass, arg.Pos())
	name, imp := fixes.Import(pass, file, fixes.BudgetPath, "budget", arg.Pos())
	edits := append([]analysis.TextEdit{
		{Pos: arg.Pos(), End: arg.Pos(), NewText: []byte(name + ".Jitter(")},
		{Pos: arg.End(), End: arg.End(), NewText: []byte(")")},
	}, imp...)
	return []analysis.SuggestedFix{{Message: "Wrap the delay in budget.Jitter", TextEdits: edits}}
}

// delayArg returns the delay argument of the wait's call when the wait's
// delay is exactly that argument.
func delayArg(w *retryloop.Wait) ast.Expr {
	if w.Call == nil || w.Delay == nil {
		return nil
	}
	for _, a := range w.Call.Args {
		if a == w.Delay {
			return a
		}
	}
	return nil
}
