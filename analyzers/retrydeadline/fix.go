package retrydeadline

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/internal/fixes"
	"github.com/retrylint/retrylint/analyzers/retryloop"
)

// sleepFix turns `time.Sleep(d)` into a context-aware wait that gives up
// when the context is done:
//
//	if err := budget.Sleep(ctx, d); err != nil {
//		return <zero values>, err
//	}
func sleepFix(pass *analysis.Pass, s *retryloop.Site) []analysis.SuggestedFix {
	ctxVar := s.Ctx.InScope
	if ctxVar == nil || s.WaitsElsewhere(pass.TypesInfo) {
		return nil
	}
	// Every sleep of the loop: one left as it was would hide behind the
	// others, the loop now consulting the context.
	var calls []*ast.CallExpr
	var uses []token.Pos
	for _, w := range s.Waits {
		switch w.Kind {
		case retryloop.WaitSleep:
		case retryloop.WaitAfter, retryloop.WaitTimer:
			return nil // a receive from a timer: not one call to rewrite
		default:
			continue
		}
		if w.Call == nil {
			return nil
		}
		calls, uses = append(calls, w.Call), append(uses, w.Call.Pos())
	}
	if len(calls) == 0 {
		return nil
	}
	file := fixes.FileOf(pass, calls[0].Pos())
	name, edits := fixes.Import(pass, file, fixes.BudgetPath, "budget", uses...)
	for _, c := range calls {
		e, ok := sleepEdits(pass, s, ctxVar, c, name)
		if !ok {
			return nil
		}
		edits = append(edits, e...)
	}
	return []analysis.SuggestedFix{{
		Message:   "Wait with budget.Sleep(" + ctxVar.Name() + ", d) and give up when " + ctxVar.Name() + " is done",
		TextEdits: edits,
	}}
}

// sleepEdits rewrites one time.Sleep(d) statement into budget.Sleep.
func sleepEdits(pass *analysis.Pass, s *retryloop.Site, ctxVar *types.Var, call *ast.CallExpr, name string) ([]analysis.TextEdit, bool) {
	if call == nil || len(call.Args) != 1 || !fixes.Editable(pass, call.Pos()) {
		return nil, false
	}
	stmt := fixes.StmtInList(s.Func, call)
	if es, ok := stmt.(*ast.ExprStmt); !ok || ast.Unparen(es.X) != call {
		return nil, false
	}
	// The context must be visible, under its name, at the sleep.
	if sc := pass.Pkg.Scope().Innermost(call.Pos()); sc == nil {
		return nil, false
	} else if _, obj := sc.LookupParent(ctxVar.Name(), call.Pos()); obj != types.Object(ctxVar) {
		return nil, false
	}
	file := fixes.FileOf(pass, call.Pos())
	ret, ok := fixes.ReturnErr(pass, file, s.Func, "err")
	if !ok {
		return nil, false
	}
	indent := fixes.Indent(pass, stmt.Pos())
	arg := call.Args[0]
	return []analysis.TextEdit{
		{Pos: call.Pos(), End: arg.Pos(), NewText: []byte("if err := " + name + ".Sleep(" + ctxVar.Name() + ", ")},
		{Pos: arg.End(), End: call.End(), NewText: []byte("); err != nil {\n" + indent + "\t" + ret + "\n" + indent + "}")},
	}, true
}

// timeoutFix bounds a loop running under context.Background/TODO: it
// derives a context with a timeout before the loop.
//
//	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
//	defer cancel()
func timeoutFix(pass *analysis.Pass, s *retryloop.Site) []analysis.SuggestedFix {
	bg := s.Ctx.BackgroundCall
	if bg == nil || s.Shape == retryloop.ShapeLibrary || !fixes.Editable(pass, s.Pos) {
		return nil
	}
	loop, ok := s.Node.(ast.Stmt)
	if !ok || fixes.InLoop(s.Func, loop) {
		return nil // a defer inside an outer loop would pile up
	}
	switch loop.(type) {
	case *ast.ForStmt, *ast.RangeStmt:
	default:
		return nil
	}
	// ctxVar := context.Background() before the loop, in the function.
	stmt := fixes.StmtInList(s.Func, bg)
	as, ok := stmt.(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || ast.Unparen(as.Rhs[0]) != bg || as.End() > loop.Pos() || inNestedLit(s.Func, as) {
		return nil
	}
	id, ok := as.Lhs[0].(*ast.Ident)
	if !ok {
		return nil
	}
	at, ok := fixes.InsertionPoint(pass, s.Func, loop)
	if !ok {
		return nil
	}
	file := fixes.FileOf(pass, at)
	cancel := fixes.FreeName(pass, file, "cancel", at)
	ctxName, imp1 := fixes.Import(pass, file, "context", "context", at)
	timeName, imp2 := fixes.Import(pass, file, "time", "time", at)
	if len(imp1) > 0 {
		return nil // context is already imported: Background was called
	}
	indent := fixes.Indent(pass, at)
	text := id.Name + ", " + cancel + " := " + ctxName + ".WithTimeout(" + id.Name + ", 30*" + timeName + ".Second)\n" +
		indent + "defer " + cancel + "()\n" + indent
	edits := append([]analysis.TextEdit{{Pos: at, End: at, NewText: []byte(text)}}, imp2...)
	// Edits at the loop keyword from other analyzers (a backoff
	// declaration) go after ours: insert at the start of the line.
	if ls := fixes.LineStart(pass, at); ls < at {
		edits[0] = analysis.TextEdit{Pos: ls, End: ls, NewText: []byte(indent + text[:len(text)-len(indent)])}
	}
	return []analysis.SuggestedFix{{
		Message:   "Bound the retries with context.WithTimeout (30s; adjust to the caller's budget)",
		TextEdits: edits,
	}}
}

// inNestedLit reports whether n lies in a function literal inside fn (the
// closure an attempt runs): a name it declares is not in scope at fn's
// loop.
func inNestedLit(fn, n ast.Node) bool {
	found := false
	ast.Inspect(fn, func(x ast.Node) bool {
		if lit, ok := x.(*ast.FuncLit); ok && x != fn && lit.Pos() <= n.Pos() && n.End() <= lit.End() {
			found = true
		}
		return !found
	})
	return found
}
