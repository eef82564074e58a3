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
// whose error is assigned by a statement of the loop body. The retry is
// guarded where the loop decides to go round, just before it waits; a
// success is recorded where it leaves, a failure at the guard (only the
// failures that are retried spend tokens, as in gRFC A6):
//
//	var ledgerBudget budget.Budget // one per dependency, package level
//	...
//	for i := 0; i < 3; i++ {
//		resp, err := c.Do(req)
//		if err == nil {
//			ledgerBudget.RecordSuccess()
//			return resp, nil
//		}
//		lastErr = err
//		ledgerBudget.RecordFailure()
//		if !ledgerBudget.Allow() {
//			break // retry budget spent: give up as when the attempts run out
//		}
//		time.Sleep(…)
//	}
//	return nil, fmt.Errorf("ledger: %w", lastErr)
//
// By then the loop body has done what a failed attempt does (classified,
// cleaned up, kept the error), so a loop with a condition leaves through
// its own way out: the code after it, which runs when the attempts are
// spent. A for { … } loop has no such way out; there the guard returns the
// error with the function's zero values. A loop with no attempt cap
// (uncapped) counts its attempts in its header and gives up after
// budget.DefaultAttempts:
//
//	for attempt := 1; ; attempt++ {
//		...
//		if err != nil && (attempt >= budget.DefaultAttempts || !poolBudget.Allow()) {
//			return nil, err
//		}
//
// An unbounded loop around local work (it waits, but calls nothing remote)
// gets the cap alone.
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
	if uncapped && (loop == nil || loop.Init != nil || loop.Post != nil || fixes.CommentIn(file, loop.For, loop.Body.Lbrace)) {
		return nil
	}
	op := s.Ops[0]
	opAt := -1
	var stmt *ast.AssignStmt
	var inIf *ast.IfStmt // if err = op(); err == nil { … }: the call in the if's init
	for i, st := range body.List {
		if ifs, ok := st.(*ast.IfStmt); ok && ifs.Init != nil {
			if as, ok := ifs.Init.(*ast.AssignStmt); ok && as.Tok == token.ASSIGN {
				st, inIf = as, ifs
			}
		}
		if as, ok := st.(*ast.AssignStmt); ok && len(as.Rhs) == 1 && ast.Unparen(as.Rhs[0]) == op {
			opAt, stmt = i, as
			break
		}
		inIf = nil
	}
	if opAt < 0 {
		return nil
	}
	errID, ok := stmt.Lhs[len(stmt.Lhs)-1].(*ast.Ident)
	if !ok || errID.Name == "_" {
		return nil
	}
	errObj := pass.TypesInfo.ObjectOf(errID)
	if errObj == nil || !types.Identical(errObj.Type(), types.Universe.Lookup("error").Type()) {
		return nil
	}
	// The guard goes before the first statement that waits, or at the end
	// of the body; every retry must pass it with the call's error.
	at := len(body.List)
	for i := opAt + 1; i < len(body.List); i++ {
		if waitsIn(s, body.List[i]) {
			at = i
			break
		}
	}
	between := body.List[opAt+1 : at]
	onTheWay := between // what runs between the call and the guard
	if inIf != nil {
		onTheWay = append(append([]ast.Stmt(nil), inIf.Body.List...), between...)
	}
	if goesRound(pass, s.Func, s.Node, onTheWay) || assigns(pass, onTheWay, errObj) || leavesEarly(pass, s.Func, s.Node, body) {
		return nil
	}
	// Before the comment lines that introduce that statement, if any.
	next := body.Rbrace
	if at < len(body.List) {
		next = body.List[at].Pos()
	}
	guardPos := fixes.LineStart(pass, fixes.LeadingComment(pass, file, body.List[at-1].End(), next))
	// A per-attempt cancel still to be called after the guard would be
	// skipped by its exit (go vet's lostcancel).
	if cancelAfter(pass, body, guardPos) {
		return nil
	}
	// The way out: the loop's own exit when its condition is the bound
	// (the code after it runs when the attempts are spent); otherwise a
	// return, where the loop never ends or only a return follows it.
	var exit string
	switch {
	case loop == nil || loop.Cond != nil && s.Bound != retryloop.BoundNone && loop.Cond.Pos() <= s.BoundPos && s.BoundPos < loop.Cond.End():
		exit = "break"
	case (loop.Cond == nil || returnAfter(s.Func, s.Node) != nil) && !cleansUpBeforeReturn(pass, body):
		var ok bool
		exit, ok = fixes.ReturnErr(pass, file, s.Func, errID.Name)
		if !ok || exit == "return" {
			return nil // a bare return would read as success
		}
	default:
		// The code after a flag loop may be what it must not skip; a body
		// that cleans up before giving up would leak on a new return.
		return nil
	}
	indent := fixes.Indent(pass, stmt.Pos())
	var edits []analysis.TextEdit
	var cond, bare, why, msg string // bare: cond without the parentheses && needs
	var preGuard string             // a statement before the guard's if
	declared := ""                  // the library's name in home, when the fix declares the budget
	var home *ast.File
	if s.Remote != nil {
		name, exists := budgetVar(pass, s)
		if name == "" {
			return nil
		}
		if !exists {
			home = d.home[name]
			if home == nil || !fixes.Editable(pass, home.Pos()) {
				return nil
			}
		}
		// Only failures that are retried may spend tokens (gRFC A6): one
		// the loop gives up on at once (not found, a permanent error)
		// must not, or a caller's own bad requests starve its retries.
		switch succ := successBranch(pass, inIf, between, errObj); {
		case succ != nil:
			// The success is recorded where it leaves, the failure at
			// the guard, which only a retried failure reaches.
			first := succ.Body.List[0]
			at := fixes.LineStart(pass, fixes.LeadingComment(pass, file, succ.Body.Lbrace, first.Pos()))
			edits = append(edits, analysis.TextEdit{Pos: at, End: at,
				NewText: []byte(fixes.Indent(pass, first.Pos()) + name + ".RecordSuccess()\n")})
			preGuard = indent + name + ".RecordFailure()\n"
		case returns(onTheWay) || inIf != nil:
			// A failure that gives up on the way would be recorded as
			// retried; a call in an if's init has no line after it.
			return nil
		default:
			eol := fixes.AfterTrailingComment(pass, file, stmt.End())
			edits = append(edits, analysis.TextEdit{Pos: eol, End: eol, NewText: []byte("\n" + indent + name + ".Record(" + errID.Name + ")")})
		}
		cond = "!" + name + ".Allow()"
		bare = cond
		why = "retry budget spent"
		msg = "Guard the retries with a shared budget (" + name + ".Allow) and record the outcomes"
		if !exists {
			var de []analysis.TextEdit
			declared, de = declEdits(pass, home, d.names[home])
			edits = append(edits, de...)
		}
	} else if !uncapped {
		return nil
	}
	if uncapped {
		counter := fixes.FreeName(pass, file, "attempt", loop.For)
		// The budget import goes where the cap is read; declEdits may
		// already add it to this file.
		pkg, imp := fixes.Import(pass, file, fixes.BudgetPath, "budget", guardPos)
		switch {
		case declared == "" || file != home:
			edits = append(edits, imp...)
		case declared != pkg:
			return nil // the name is shadowed at the guard: one import, two names
		}
		capped := counter + " >= " + pkg + ".DefaultAttempts"
		if cond != "" {
			bare = capped + " || " + cond
			cond = "(" + bare + ")"
			why = "attempts or retry budget spent"
			msg = "Cap the attempts at budget.DefaultAttempts, guard the retries with a shared budget and record the outcomes"
		} else {
			cond, bare = capped, capped
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
	if exit == "break" {
		why += ": give up as when the attempts run out"
	} else if s.Remote != nil {
		why += ": fail fast instead of piling on"
	}
	test := errID.Name + " != nil && " + cond
	decided := between
	if inIf != nil {
		decided = append([]ast.Stmt{inIf}, between...)
	}
	if failedBy(pass, decided, errObj) {
		test = bare
	}
	guard := preGuard + indent + "if " + test + " {\n" +
		indent + "\t" + exit + " // " + why + "\n" +
		indent + "}\n"
	edits = append(edits, analysis.TextEdit{Pos: guardPos, End: guardPos, NewText: []byte(guard)})
	return []analysis.SuggestedFix{{Message: msg, TextEdits: edits}}
}

// successBranch returns the statement where a success leaves: an
// `if err == nil { … return … }` right after the call (the call's own if,
// or one of the statements on the way to the guard), or nil.
func successBranch(pass *analysis.Pass, inIf *ast.IfStmt, between []ast.Stmt, err types.Object) *ast.IfStmt {
	cands := between
	if inIf != nil {
		cands = append([]ast.Stmt{inIf}, between...)
	}
	for _, st := range cands {
		ifs, ok := st.(*ast.IfStmt)
		if !ok || ifs.Else != nil || len(ifs.Body.List) == 0 || (ifs.Init != nil && ifs != inIf) {
			continue
		}
		if _, ok := ifs.Body.List[len(ifs.Body.List)-1].(*ast.ReturnStmt); ok && nilCheck(pass, ifs.Cond, err) {
			return ifs
		}
	}
	return nil
}

// returns reports whether stmts hold a return (outside function literals).
func returns(stmts []ast.Stmt) bool {
	found := false
	for _, st := range stmts {
		ast.Inspect(st, func(n ast.Node) bool {
			switch n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				found = true
			}
			return !found
		})
	}
	return found
}

// failedBy reports whether one of stmts leaves when err is nil
// (if err == nil { return … }), so that after them err is known to be set.
func failedBy(pass *analysis.Pass, stmts []ast.Stmt, err types.Object) bool {
	for _, st := range stmts {
		ifs, ok := st.(*ast.IfStmt)
		if !ok || ifs.Else != nil || len(ifs.Body.List) == 0 {
			continue
		}
		if as, ok := ifs.Init.(*ast.AssignStmt); ifs.Init != nil && (!ok || as.Tok != token.ASSIGN) {
			continue // a := in the init would be another err
		}
		// err == nil, or err == nil || more (if err == nil || !retryable(err)).
		cond := ast.Unparen(ifs.Cond)
		for {
			b, ok := cond.(*ast.BinaryExpr)
			if !ok || b.Op != token.LOR {
				break
			}
			cond = ast.Unparen(b.X)
		}
		if !nilCheck(pass, cond, err) {
			continue
		}
		if _, ok := ifs.Body.List[len(ifs.Body.List)-1].(*ast.ReturnStmt); ok {
			return true
		}
	}
	return false
}

// cleansUpBeforeReturn reports whether a return of the loop body that
// gives up with an error comes right after a call (db.Close(); return
// nil, err): the way the code releases what it holds when it gives up,
// which a new return would skip.
func cleansUpBeforeReturn(pass *analysis.Pass, body *ast.BlockStmt) bool {
	found := false
	var visit func(list []ast.Stmt)
	visit = func(list []ast.Stmt) {
		for i, st := range list {
			if r, ok := st.(*ast.ReturnStmt); ok && i > 0 && len(r.Results) > 0 {
				last := r.Results[len(r.Results)-1]
				_, isCall := list[i-1].(*ast.ExprStmt)
				if isCall && !pass.TypesInfo.Types[last].IsNil() {
					found = true
				}
			}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BlockStmt:
			visit(n.List)
		case *ast.CaseClause:
			visit(n.Body)
		case *ast.CommClause:
			visit(n.Body)
		}
		return !found
	})
	return found
}

// waitsIn reports whether st holds one of the site's waits.
func waitsIn(s *retryloop.Site, st ast.Stmt) bool {
	for _, w := range s.Waits {
		if st.Pos() <= w.Node.Pos() && w.Node.End() <= st.End() {
			return true
		}
	}
	return false
}

// goesRound reports whether stmts can start the next attempt of loop
// themselves (continue, goto): such a retry would not pass the guard.
func goesRound(pass *analysis.Pass, fn, loop ast.Node, stmts []ast.Stmt) bool {
	found := false
	for _, st := range stmts {
		branches(pass, fn, loop, st, func(b *ast.BranchStmt, ours bool) {
			if b.Tok == token.GOTO || b.Tok == token.CONTINUE && ours {
				found = true
			}
		})
	}
	return found
}

// leavesEarly reports whether the loop body breaks out of the loop: the
// code after the loop then runs on success too, and is no way to give up.
func leavesEarly(pass *analysis.Pass, fn, loop ast.Node, body *ast.BlockStmt) bool {
	found := false
	branches(pass, fn, loop, body, func(b *ast.BranchStmt, ours bool) {
		if b.Tok == token.BREAK && ours || b.Tok == token.GOTO {
			found = true
		}
	})
	return found
}

// branches calls f for each branch statement in n (not in function
// literals), with whether it targets loop: a labeled branch to loop's
// label, or an unlabeled one not inside a nested loop (or, for break, a
// switch or select).
func branches(pass *analysis.Pass, fn, loop ast.Node, n ast.Node, f func(*ast.BranchStmt, bool)) {
	var walk func(n ast.Node, inLoop, inSwitch bool)
	walk = func(n ast.Node, inLoop, inSwitch bool) {
		ast.Inspect(n, func(m ast.Node) bool {
			switch m := m.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ForStmt:
				walk(m.Body, true, inSwitch)
				return false
			case *ast.RangeStmt:
				walk(m.Body, true, inSwitch)
				return false
			case *ast.SwitchStmt:
				walk(m.Body, inLoop, true)
				return false
			case *ast.TypeSwitchStmt:
				walk(m.Body, inLoop, true)
				return false
			case *ast.SelectStmt:
				walk(m.Body, inLoop, true)
				return false
			case *ast.BranchStmt:
				if m.Label != nil {
					l, _ := pass.TypesInfo.Uses[m.Label].(*types.Label)
					f(m, l != nil && l.Pos() == labelPos(loop, fn))
					return false
				}
				switch m.Tok {
				case token.CONTINUE:
					f(m, !inLoop)
				case token.BREAK:
					f(m, !inLoop && !inSwitch)
				default:
					f(m, false)
				}
			}
			return true
		})
	}
	walk(n, false, false)
}

// labelPos is where the label of loop is declared, or NoPos.
func labelPos(loop, fn ast.Node) token.Pos {
	p := fixes.Path(fn, loop)
	if len(p) >= 2 {
		if ls, ok := p[len(p)-2].(*ast.LabeledStmt); ok {
			return ls.Label.Pos()
		}
	}
	return token.NoPos
}

// assigns reports whether stmts assign to v.
func assigns(pass *analysis.Pass, stmts []ast.Stmt, v types.Object) bool {
	found := false
	for _, st := range stmts {
		ast.Inspect(st, func(n ast.Node) bool {
			if as, ok := n.(*ast.AssignStmt); ok {
				for _, l := range as.Lhs {
					if id, ok := ast.Unparen(l).(*ast.Ident); ok && pass.TypesInfo.ObjectOf(id) == v {
						found = true
					}
				}
			}
			if u, ok := n.(*ast.UnaryExpr); ok && u.Op == token.AND {
				if id, ok := ast.Unparen(u.X).(*ast.Ident); ok && pass.TypesInfo.ObjectOf(id) == v {
					found = true // its address escapes
				}
			}
			return !found
		})
	}
	return found
}

// declEdits declares the budget variables names (and imports the library)
// in file. Every fix using one of them carries the same edits, so none
// conflict. It returns the library's name in that file.
func declEdits(pass *analysis.Pass, file *ast.File, names []string) (string, []analysis.TextEdit) {
	declName, edits := fixes.Import(pass, file, fixes.BudgetPath, "budget")
	at := declPos(file)
	text := "\n\n// Retry budgets, one per dependency, shared by every call to it: retries\n" +
		"// stay near 10% of successes, so an outage cannot multiply load.\n"
	if len(names) == 1 {
		text += "var " + names[0] + " " + declName + ".Budget"
	} else {
		text += "var (\n"
		for _, n := range names {
			text += "\t" + n + " " + declName + ".Budget\n"
		}
		text += ")"
	}
	return declName, append(edits, analysis.TextEdit{Pos: at, End: at, NewText: []byte(text)})
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

// cancelAfter reports whether a cancel function is called in the loop body
// after pos: a guard that leaves at pos would skip it.
func cancelAfter(pass *analysis.Pass, body *ast.BlockStmt, pos token.Pos) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if ok && c.Pos() > pos && len(c.Args) == 0 && isCancelFunc(pass.TypesInfo.TypeOf(c.Fun)) {
			found = true
		}
		return !found
	})
	return found
}

func isCancelFunc(t types.Type) bool {
	if t == nil {
		return false
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context" && (n.Obj().Name() == "CancelFunc" || n.Obj().Name() == "CancelCauseFunc")
}
