package retrysleep

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/internal/astq"
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
func backoffFix(pass *analysis.Pass, s *retryloop.Site) []analysis.SuggestedFix {
	switch s.Node.(type) {
	case *ast.ForStmt, *ast.RangeStmt:
	default:
		return nil
	}
	// A consume loop goes on after a success: a backoff declared before it
	// would never start over, and one burst of errors would slow every
	// later error for the life of the loop.
	if s.Consume {
		return nil
	}
	// Every wait of the loop draws from the one backoff, so they must all
	// wait the same constant now; a wait left fixed would hide behind the
	// new growing one.
	var args []ast.Expr
	var d int64
	for i, w := range s.Waits {
		arg, v, ok := constDelay(pass, w)
		if !ok || i > 0 && v != d {
			return nil
		}
		args, d = append(args, arg), v
	}
	// Only a constant base below the library's 10s cap: a larger one
	// would be shortened by the cap.
	if len(args) == 0 || d <= 0 || d >= int64(10*time.Second) || s.WaitsElsewhere(pass.TypesInfo) {
		return nil
	}
	// Many attempts of a short fixed wait (50 × 10ms: wait for a server
	// to come up) would wait minutes once each doubles up to the cap.
	if s.Attempts > fixes.MaxAttempts {
		return nil
	}
	at, ok := fixes.InsertionPoint(pass, s.Func, s.Node)
	if !ok {
		return nil
	}
	base, ok := fixes.Text(pass, args[0])
	if !ok {
		return nil
	}
	file := fixes.FileOf(pass, at)
	uses := []token.Pos{at}
	for _, a := range args {
		uses = append(uses, a.Pos())
	}
	name, imp := fixes.Import(pass, file, fixes.BudgetPath, "budget", uses...)
	bo := fixes.FreeName(pass, file, "backoff", at)
	indent := fixes.Indent(pass, at)
	edits := []analysis.TextEdit{{Pos: at, End: at, NewText: []byte(bo + " := " + name + ".Backoff{Base: " + base + "}.Start()\n" + indent)}}
	for _, a := range args {
		edits = append(edits, analysis.TextEdit{Pos: a.Pos(), End: a.End(), NewText: []byte(bo + ".Next()")})
	}
	return []analysis.SuggestedFix{{
		Message:   "Replace the fixed delay with exponential full-jitter backoff (budget.Backoff)",
		TextEdits: append(edits, imp...),
	}}
}

// constDelay returns the delay argument of a wait call and its constant
// value; ok is false for a wait that is not a call taking a constant.
func constDelay(pass *analysis.Pass, w *retryloop.Wait) (ast.Expr, int64, bool) {
	if w.Call == nil || w.Delay == nil || !fixes.Editable(pass, w.Call.Pos()) {
		return nil, 0, false
	}
	for _, a := range w.Call.Args {
		if a != w.Delay {
			continue
		}
		tv := pass.TypesInfo.Types[a]
		if tv.Value == nil {
			return nil, 0, false
		}
		d, ok := constant.Int64Val(constant.ToInt(tv.Value))
		return a, d, ok
	}
	return nil, 0, false
}

// waitFix adds the missing wait to a counted retry loop: full-jitter
// exponential backoff before every attempt but the first, so nothing
// waits after the last one.
//
//	backoff := budget.Backoff{}.Start()
//	for i := 0; i < n; i++ {
//		if i > 0 {
//			time.Sleep(backoff.Next()) // or budget.Sleep(ctx, …) when a context is in scope
//		}
//		...
func waitFix(pass *analysis.Pass, s *retryloop.Site) []analysis.SuggestedFix {
	// The counter tells the first attempt from the retries: it starts at
	// 0 and only the loop moves it.
	c := s.Counter
	body := astq.LoopBody(s.Node)
	if c == nil || !c.Steps || c.Var == nil || body == nil {
		return nil
	}
	counter := c.Var.Name()
	if len(body.List) == 0 || !fixes.Editable(pass, s.Pos) {
		return nil
	}
	at, ok := fixes.InsertionPoint(pass, s.Func, s.Node)
	if !ok {
		return nil
	}
	file := fixes.FileOf(pass, at)
	first := body.List[0]
	name, imp := fixes.Import(pass, file, fixes.BudgetPath, "budget", at, first.Pos())
	bo := fixes.FreeName(pass, file, "backoff", at)
	indent := fixes.Indent(pass, first.Pos())
	var wait string
	if v := s.Ctx.InScope; v != nil && visible(pass, v, first.Pos()) {
		ret, ok := fixes.ReturnErr(pass, file, s.Func, "err")
		if !ok {
			return nil
		}
		wait = "if err := " + name + ".Sleep(" + v.Name() + ", " + bo + ".Next()); err != nil {\n" +
			indent + "\t\t" + ret + "\n" + indent + "\t}"
	} else {
		timeName, timeImp := fixes.Import(pass, file, "time", "time", first.Pos())
		imp = append(imp, timeImp...)
		wait = timeName + ".Sleep(" + bo + ".Next())"
	}
	edits := append([]analysis.TextEdit{
		{Pos: at, End: at, NewText: []byte(bo + " := " + name + ".Backoff{}.Start()\n" + fixes.Indent(pass, at))},
		{Pos: first.Pos(), End: first.Pos(), NewText: []byte("if " + counter + " > 0 {\n" + indent + "\t" + wait + "\n" + indent + "}\n" + indent)},
	}, imp...)
	return []analysis.SuggestedFix{{
		Message:   "Wait with full-jitter exponential backoff (budget.Backoff) before each retry",
		TextEdits: edits,
	}}
}

// visible reports whether v is visible under its name at pos.
func visible(pass *analysis.Pass, v types.Object, pos token.Pos) bool {
	sc := pass.Pkg.Scope().Innermost(pos)
	if sc == nil {
		return false
	}
	_, obj := sc.LookupParent(v.Name(), pos)
	return obj == v
}
