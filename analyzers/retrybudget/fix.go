package retrybudget

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
	"unicode"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/internal/fixes"
	"github.com/retrylint/retrylint/analyzers/retryloop"
)

// budgetFix threads a shared budget through a retry loop around one call
// whose error is assigned by a statement of the loop body:
//
//	var ledgerBudget budget.Budget // one per dependency, package level
//	...
//	resp, err := c.Do(req)
//	ledgerBudget.Record(err)
//	if err != nil && !ledgerBudget.Allow() {
//		return nil, err
//	}
//
// Every outcome is recorded; after a failure, a retry happens only while
// the budget allows, otherwise the function gives up with the error. A
// loop with no attempt cap (for { … }) gets one as well: it counts its
// attempts and gives up after budget.DefaultAttempts.
//
//	for attempt := 1; ; attempt++ {
//		...
//		if err != nil && (attempt >= budget.DefaultAttempts || !ledgerBudget.Allow()) {
//
// An unbounded loop around local work (it waits, but calls nothing remote)
// gets the cap alone. uncapped asks for the cap.
func budgetFix(pass *analysis.Pass, s *retryloop.Site, d *decls, uncapped bool) []analysis.SuggestedFix {
	if len(s.Ops) != 1 || s.StatusRetry {
		// A retry on a failure status (no error) would pass the guard
		// unasked and be recorded as a success.
		return nil
	}
	body := loopBody(s.Node)
	if body == nil || !fixes.Editable(pass, s.Pos) {
		return nil
	}
	file := fixes.FileOf(pass, s.Pos)
	loop, _ := s.Node.(*ast.ForStmt)
	if uncapped && (loop == nil || loop.Init != nil || loop.Post != nil || commentIn(file, loop.For, loop.Body.Lbrace)) {
		return nil
	}
	op := s.Ops[0]
	var stmt *ast.AssignStmt
	for _, st := range body.List {
		if as, ok := st.(*ast.AssignStmt); ok && len(as.Rhs) == 1 && ast.Unparen(as.Rhs[0]) == op {
			stmt = as
		}
	}
	if stmt == nil {
		return nil
	}
	errID, ok := stmt.Lhs[len(stmt.Lhs)-1].(*ast.Ident)
	if !ok || errID.Name == "_" {
		return nil
	}
	if t := pass.TypesInfo.TypeOf(errID); t == nil || !types.Identical(t, types.Universe.Lookup("error").Type()) {
		return nil
	}
	ret, ok := fixes.ReturnErr(pass, file, s.Func, errID.Name)
	if !ok || ret == "return" {
		return nil // a bare return would read as success
	}
	// The guard goes after any per-attempt cancel of the loop body.
	at, ok := guardPoint(pass, body, stmt)
	if !ok {
		return nil
	}
	indent := fixes.Indent(pass, stmt.Pos())
	var edits []analysis.TextEdit
	var record, allow, why, msg string
	declared := "" // the library's name in d.file, when the fix declares the budget
	if s.Remote != nil {
		name, exists := budgetVar(pass, s)
		if name == "" || d.file == nil || !fixes.Editable(pass, d.file.Pos()) {
			return nil
		}
		record = indent + name + ".Record(" + errID.Name + ")\n"
		allow = "!" + name + ".Allow()"
		why = "retry budget spent: fail fast instead of piling on"
		msg = "Guard the retries with a shared budget (" + name + ".Allow) and record every outcome"
		if !exists {
			var de []analysis.TextEdit
			declared, de = declEdits(pass, d)
			edits = append(edits, de...)
		}
	} else if !uncapped {
		return nil
	}
	if uncapped {
		counter := fixes.FreeName(pass, file, "attempt", loop.For)
		// The budget import goes where the cap is read; declEdits may
		// already add it to this file.
		pkg, imp := fixes.Import(pass, file, fixes.BudgetPath, "budget", at)
		switch {
		case declared == "" || file != d.file:
			edits = append(edits, imp...)
		case declared != pkg:
			return nil // the name is shadowed at the guard: one import, two names
		}
		capped := counter + " >= " + pkg + ".DefaultAttempts"
		if allow != "" {
			allow = "(" + capped + " || " + allow + ")"
			why = "attempts or retry budget spent: fail fast instead of piling on"
			msg = "Cap the attempts at budget.DefaultAttempts, guard the retries with a shared budget and record every outcome"
		} else {
			allow = capped
			why = "attempts spent: a persistent failure gives up instead of retrying forever"
			msg = "Cap the attempts at budget.DefaultAttempts"
		}
		if loop.Cond == nil {
			edits = append(edits, analysis.TextEdit{Pos: loop.For + token.Pos(len("for")), End: loop.Body.Lbrace,
				NewText: []byte(" " + counter + " := 1; ; " + counter + "++ ")})
		} else {
			edits = append(edits,
				analysis.TextEdit{Pos: loop.Cond.Pos(), End: loop.Cond.Pos(), NewText: []byte(counter + " := 1; ")},
				analysis.TextEdit{Pos: loop.Cond.End(), End: loop.Cond.End(), NewText: []byte("; " + counter + "++")})
		}
	}
	guard := "\n" + record +
		indent + "if " + errID.Name + " != nil && " + allow + " {\n" +
		indent + "\t" + ret + " // " + why + "\n" +
		indent + "}"
	edits = append(edits, analysis.TextEdit{Pos: at, End: at, NewText: []byte(guard)})
	return []analysis.SuggestedFix{{Message: msg, TextEdits: edits}}
}

// declEdits declares the package's budget variables (and imports the
// library) in the file chosen for them. Every fix carries the same
// edits, so any subset of the fixes compiles and none conflict. It
// returns the library's name in that file.
func declEdits(pass *analysis.Pass, d *decls) (string, []analysis.TextEdit) {
	declName, edits := fixes.Import(pass, d.file, fixes.BudgetPath, "budget")
	at := declPos(d.file)
	text := "\n\n// Retry budgets, one per dependency, shared by every call to it: retries\n" +
		"// stay near 10% of successes, so an outage cannot multiply load.\n"
	if len(d.names) == 1 {
		text += "var " + d.names[0] + " " + declName + ".Budget"
	} else {
		text += "var (\n"
		for _, n := range d.names {
			text += "\t" + n + " " + declName + ".Budget\n"
		}
		text += ")"
	}
	return declName, append(edits, analysis.TextEdit{Pos: at, End: at, NewText: []byte(text)})
}

// commentIn reports whether a comment of the file lies in [from, to).
func commentIn(f *ast.File, from, to token.Pos) bool {
	for _, cg := range f.Comments {
		if cg.Pos() < to && cg.End() > from {
			return true
		}
	}
	return false
}

func loopBody(n ast.Node) *ast.BlockStmt {
	switch n := n.(type) {
	case *ast.ForStmt:
		return n.Body
	case *ast.RangeStmt:
		return n.Body
	}
	return nil
}

// budgetVar names the package-level budget for the site's dependency: the
// receiver type of the enclosing method, else the package. exists reports
// whether a budget.Budget variable of that name is already declared.
func budgetVar(pass *analysis.Pass, s *retryloop.Site) (name string, exists bool) {
	base := pass.Pkg.Name()
	if fd, ok := s.Func.(*ast.FuncDecl); ok && fd.Recv != nil && len(fd.Recv.List) == 1 {
		t := fd.Recv.List[0].Type
		if st, ok := t.(*ast.StarExpr); ok {
			t = st.X
		}
		if ix, ok := t.(*ast.IndexExpr); ok {
			t = ix.X
		}
		if id, ok := t.(*ast.Ident); ok {
			base = id.Name
		}
	}
	name = lowerFirst(base) + "Budget"
	if obj := pass.Pkg.Scope().Lookup(name); obj != nil {
		if v, ok := obj.(*types.Var); ok && isBudgetType(v.Type()) {
			return name, true
		}
		return "", false
	}
	// The name must not be shadowed where it is used.
	if sc := pass.Pkg.Scope().Innermost(s.Pos); sc != nil {
		if _, obj := sc.LookupParent(name, s.Pos); obj != nil {
			return "", false
		}
	}
	return name, false
}

func isBudgetType(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == fixes.BudgetPath && n.Obj().Name() == "Budget"
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	// HTTPClient -> httpClient
	i := 0
	for i < len(r) && unicode.IsUpper(r[i]) && (i+1 == len(r) || i == 0 || unicode.IsUpper(r[i+1])) {
		r[i] = unicode.ToLower(r[i])
		i++
	}
	out := string(r)
	return strings.ReplaceAll(out, "_", "")
}

// declPos is where the package-level declaration goes: after the imports.
func declPos(f *ast.File) token.Pos {
	pos := f.Name.End()
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			pos = gd.End()
		}
	}
	return pos
}

// guardPoint is where the guard goes: after the operation's statement and
// any cancel() calls right after it, so an early return never skips the
// cancellation of a per-attempt context (go vet's lostcancel). ok is false
// when a cancel function of the loop body is still uncalled there.
func guardPoint(pass *analysis.Pass, body *ast.BlockStmt, stmt ast.Stmt) (token.Pos, bool) {
	i := 0
	for i < len(body.List) && body.List[i] != stmt {
		i++
	}
	at := stmt.End()
	for j := i + 1; j < len(body.List); j++ {
		es, ok := body.List[j].(*ast.ExprStmt)
		if !ok {
			break
		}
		c, ok := ast.Unparen(es.X).(*ast.CallExpr)
		if !ok || len(c.Args) != 0 || !isCancelFunc(pass.TypesInfo.TypeOf(c.Fun)) {
			break
		}
		at = es.End()
	}
	// Any cancel function declared in the body and called after the guard
	// would be skipped by its return.
	uncalled := false
	ast.Inspect(body, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if ok && c.Pos() > at && len(c.Args) == 0 && isCancelFunc(pass.TypesInfo.TypeOf(c.Fun)) {
			uncalled = true
		}
		return !uncalled
	})
	return at, !uncalled
}

func isCancelFunc(t types.Type) bool {
	if t == nil {
		return false
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context" && (n.Obj().Name() == "CancelFunc" || n.Obj().Name() == "CancelCauseFunc")
}
