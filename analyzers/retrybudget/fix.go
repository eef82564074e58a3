package retrybudget

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/internal/fixes"
	"github.com/retrylint/retrylint/analyzers/retryloop"

	"github.com/retrylint/retrylint/analyzers/internal/astq"
)

// budgetFix threads a shared budget through a retry loop around one call
// whose error is assigned by a statement of the loop body. The retry is
// guarded where the loop decides to go round, just before it waits; a
// success is recorded where it leaves, a failure at the guard (only the
// failures that are retried spend tokens, as in gRFC A6):
//
//	var ledgerBudget budget.Adaptive // one per dependency, package level
//	...
//	for i := 0; i < 3; i++ {
//		resp, err := c.Do(req)
//		if err == nil {
//			ledgerBudget.Record(nil)
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
	f := &budgetFixer{pass: pass, s: s, d: d, uncapped: uncapped, flow: s.FlowOf(s.Ops[0])}
	if f.flow == nil || !f.target() || !f.locateCall() || !f.placeGuard() || !f.chooseExit() {
		return nil
	}
	f.indent = fixes.Indent(pass, f.stmt.Pos())
	switch {
	case s.Remote != nil:
		if !f.addBudget() {
			return nil
		}
	case !uncapped:
		return nil
	}
	if uncapped && !f.addCap() {
		return nil
	}
	f.addGuard()
	return []analysis.SuggestedFix{{Message: f.msg, TextEdits: f.edits}}
}

// budgetFixer builds budgetFix's fix step by step; each step reports
// whether the fix is still possible.
type budgetFixer struct {
	pass     *analysis.Pass
	s        *retryloop.Site
	d        *decls
	uncapped bool
	flow     *retryloop.Flow // the model's ends of the call's success and failure paths

	file     *ast.File
	body     *ast.BlockStmt
	loop     *ast.ForStmt
	opAt     int             // the index in body of the statement holding the call
	stmt     *ast.AssignStmt // the statement that assigns the call's error
	inIf     *ast.IfStmt     // if err = op(); err == nil { … }: the call in the if's init
	errID    *ast.Ident
	errObj   types.Object
	between  []ast.Stmt // the body's statements between the call and the guard
	onTheWay []ast.Stmt // what runs between the call and the guard
	guardPos token.Pos
	exit     string // the guard's way out: break or a return
	indent   string

	edits      []analysis.TextEdit
	cond, bare string // bare: cond without the parentheses && needs
	why, msg   string
	preGuard   string    // a statement before the guard's if
	declared   string    // the library's name in home, when the fix declares the budget
	home       *ast.File // where the budget is declared, when the fix declares it
}

// target reports whether the loop body can be edited and, for an uncapped
// loop, whether its header can take a counter: a bare for or a condition,
// with no comment a rewrite would lose.
func (f *budgetFixer) target() bool {
	f.body = astq.LoopBody(f.s.Node)
	if f.body == nil || !fixes.Editable(f.pass, f.s.Pos) {
		return false
	}
	f.file = fixes.FileOf(f.pass, f.s.Pos)
	f.loop, _ = f.s.Node.(*ast.ForStmt)
	loop := f.loop
	return !f.uncapped || loop != nil && loop.Init == nil && loop.Post == nil && !fixes.CommentIn(f.file, loop.For, loop.Body.Lbrace)
}

// locateCall reports whether a statement of the body assigns the call's
// error to a variable of type error (itself, or as an if's init).
func (f *budgetFixer) locateCall() bool {
	op := f.s.Ops[0]
	f.opAt = -1
	for i, st := range f.body.List {
		if ifs, ok := st.(*ast.IfStmt); ok && ifs.Init != nil {
			if as, ok := ifs.Init.(*ast.AssignStmt); ok && as.Tok == token.ASSIGN {
				st, f.inIf = as, ifs
			}
		}
		if as, ok := st.(*ast.AssignStmt); ok && len(as.Rhs) == 1 && ast.Unparen(as.Rhs[0]) == op {
			f.opAt, f.stmt = i, as
			break
		}
		f.inIf = nil
	}
	if f.opAt < 0 {
		return false
	}
	errID, ok := f.stmt.Lhs[len(f.stmt.Lhs)-1].(*ast.Ident)
	if !ok || errID.Name == "_" {
		return false
	}
	f.errID = errID
	f.errObj = f.pass.TypesInfo.ObjectOf(errID)
	return f.errObj != nil && types.Identical(f.errObj.Type(), types.Universe.Lookup("error").Type())
}

// placeGuard reports whether the guard has a place every retry passes
// with the call's error: before the first statement that waits, or at the
// end of the body, before the comment lines that introduce it.
func (f *budgetFixer) placeGuard() bool {
	pass, body := f.pass, f.body
	at := len(body.List)
	for i := f.opAt + 1; i < len(body.List); i++ {
		if waitsIn(f.s, body.List[i]) {
			at = i
			break
		}
	}
	f.between = body.List[f.opAt+1 : at]
	f.onTheWay = f.between
	if f.inIf != nil {
		f.onTheWay = append(append([]ast.Stmt(nil), f.inIf.Body.List...), f.between...)
	}
	// A retry that starts the next attempt on the way (a failure going
	// round by continue) would not pass the guard; a body that breaks out
	// of the loop runs the code after it on success too, which is then no
	// way to give up (a goto anywhere: it could do either).
	if roundsIn(f.flow, f.onTheWay) || assigns(pass, f.onTheWay, f.errObj) ||
		f.s.JumpsIn(body.List, retryloop.JumpLeave, retryloop.JumpGoto) {
		return false
	}
	next := body.Rbrace
	if at < len(body.List) {
		next = body.List[at].Pos()
	}
	f.guardPos = fixes.LineStart(pass, fixes.LeadingComment(pass, f.file, body.List[at-1].End(), next))
	// A per-attempt cancel still to be called after the guard would be
	// skipped by its exit (go vet's lostcancel).
	return !cancelAfter(pass, body, f.guardPos)
}

// chooseExit reports whether the guard has a way out: the loop's own exit
// when its condition is the bound (the code after it runs when the
// attempts are spent); otherwise a return, where the loop never ends or
// only a return follows it.
func (f *budgetFixer) chooseExit() bool {
	s, loop := f.s, f.loop
	switch {
	case loop == nil || loop.Cond != nil && s.Bound != retryloop.BoundNone && loop.Cond.Pos() <= s.BoundPos && s.BoundPos < loop.Cond.End():
		// The code after the loop gives up with what the body kept
		// (lastErr = err): kept after the guard, it would not be kept
		// yet when the guard leaves (nil on the first attempt).
		for _, k := range s.Kept {
			if k.Pos >= f.guardPos {
				return false
			}
		}
		f.exit = "break"
	case (loop.Cond == nil || giveUpReturn(s) != nil) && !cleansUpBeforeReturn(f.pass, f.body):
		exit, ok := fixes.ReturnErr(f.pass, f.file, s.Func, f.errID.Name)
		if !ok || exit == "return" {
			return false // a bare return would read as success
		}
		f.exit = exit
	default:
		// The code after a flag loop may be what it must not skip; a body
		// that cleans up before giving up would leak on a new return.
		return false
	}
	return true
}

// addBudget adds the budget's edits: its declaration when there is none,
// the recording of outcomes and the Allow condition. It reports whether
// the budget can be added.
func (f *budgetFixer) addBudget() bool {
	name, exists := budgetVar(f.pass, f.s)
	if name == "" {
		return false
	}
	if !exists {
		f.home = f.d.home[name]
		if f.home == nil || !fixes.Editable(f.pass, f.home.Pos()) {
			return false
		}
	}
	if !f.recordOutcomes(name) {
		return false
	}
	f.cond = "!" + name + ".Allow()"
	f.bare = f.cond
	f.why = "retry budget spent"
	f.msg = "Guard the retries with a shared budget (" + name + ".Allow) and record the outcomes"
	if !exists {
		var de []analysis.TextEdit
		f.declared, de = declEdits(f.pass, f.home, f.d.names[f.home])
		f.edits = append(f.edits, de...)
	}
	return true
}

// recordOutcomes adds the recording of the call's outcome, and reports
// whether it has a place. Only failures that are retried may spend tokens
// (gRFC A6): one the loop gives up on at once (not found, a permanent
// error) must not, or a caller's own bad requests starve its retries.
func (f *budgetFixer) recordOutcomes(name string) bool {
	pass := f.pass
	switch succ := successBranch(f.flow, f.inIf, f.between); {
	case succ != nil && !f.flow.SuccessMayReach(f.guardPos):
		// The success is recorded where it leaves, the failure at
		// the guard, which only a retried failure reaches (a success
		// that goes round past it would be counted a failure).
		first := succ.Body.List[0]
		at := fixes.LineStart(pass, fixes.LeadingComment(pass, f.file, succ.Body.Lbrace, first.Pos()))
		f.edits = append(f.edits, analysis.TextEdit{Pos: at, End: at,
			NewText: []byte(fixes.Indent(pass, first.Pos()) + name + ".Record(nil)\n")})
		f.preGuard = f.indent + name + ".RecordFailure()\n"
	case givesUpIn(f.flow, f.onTheWay) || f.inIf != nil:
		// A failure that gives up on the way would be recorded as
		// retried; a call in an if's init has no line after it.
		return false
	default:
		eol := fixes.AfterTrailingComment(pass, f.file, f.stmt.End())
		f.edits = append(f.edits, analysis.TextEdit{Pos: eol, End: eol, NewText: []byte("\n" + f.indent + name + ".Record(" + f.errID.Name + ")")})
	}
	return true
}

// addCap adds the attempt counter to the loop header and its cap to the
// guard's condition; it reports whether the budget package's name can be
// used at the guard.
func (f *budgetFixer) addCap() bool {
	loop := f.loop
	counter := fixes.FreeName(f.pass, f.file, "attempt", loop.For)
	// The budget import goes where the cap is read; declEdits may
	// already add it to this file.
	pkg, imp := fixes.Import(f.pass, f.file, fixes.BudgetPath, "budget", f.guardPos)
	switch {
	case f.declared == "" || f.file != f.home:
		f.edits = append(f.edits, imp...)
	case f.declared != pkg:
		return false // the name is shadowed at the guard: one import, two names
	}
	capped := counter + " >= " + pkg + ".DefaultAttempts"
	if f.cond != "" {
		f.bare = capped + " || " + f.cond
		f.cond = "(" + f.bare + ")"
		f.why = "attempts or retry budget spent"
		f.msg = "Cap the attempts at budget.DefaultAttempts, guard the retries with a shared budget and record the outcomes"
	} else {
		f.cond, f.bare = capped, capped
		f.why = "attempts spent: a persistent failure gives up instead of retrying forever"
		f.msg = "Cap the attempts at budget.DefaultAttempts"
	}
	if loop.Cond == nil {
		f.edits = append(f.edits, analysis.TextEdit{Pos: loop.For + token.Pos(len("for")), End: loop.Body.Lbrace,
			NewText: []byte(" " + counter + " := 1; ; " + counter + "++ ")})
	} else {
		f.edits = append(f.edits,
			analysis.TextEdit{Pos: loop.Cond.Pos(), End: loop.Cond.Pos(), NewText: []byte(counter + " := 1; ")},
			analysis.TextEdit{Pos: loop.Cond.End(), End: loop.Cond.End(), NewText: []byte("; " + counter + "++")})
	}
	return true
}

// addGuard adds the guard itself. Its test leaves out err != nil where
// no success of the call reaches it: every success path has left or gone
// round before.
func (f *budgetFixer) addGuard() {
	why := f.why
	if f.exit == "break" {
		why += ": give up as when the attempts run out"
	} else if f.s.Remote != nil {
		why += ": fail fast instead of piling on"
	}
	test := f.errID.Name + " != nil && " + f.cond
	if !f.flow.SuccessMayReach(f.guardPos) {
		test = f.bare
	}
	guard := f.preGuard + f.indent + "if " + test + " {\n" +
		f.indent + "\t" + f.exit + " // " + why + "\n" +
		f.indent + "}\n"
	f.edits = append(f.edits, analysis.TextEdit{Pos: f.guardPos, End: f.guardPos, NewText: []byte(guard)})
}

// successBranch returns the statement where a success leaves: an if
// right after the call (the call's own, or one of the statements on the
// way to the guard) whose body ends in a return where the model saw the
// call's success leave, and which no path of its failure enters. Or nil.
func successBranch(flow *retryloop.Flow, inIf *ast.IfStmt, between []ast.Stmt) *ast.IfStmt {
	cands := between
	if inIf != nil {
		cands = append([]ast.Stmt{inIf}, between...)
	}
	exits := flow.Exits()
	for _, st := range cands {
		ifs, ok := st.(*ast.IfStmt)
		if !ok || ifs.Else != nil || len(ifs.Body.List) == 0 || (ifs.Init != nil && ifs != inIf) {
			continue
		}
		ret, ok := ifs.Body.List[len(ifs.Body.List)-1].(*ast.ReturnStmt)
		if ok && slices.Contains(exits, ret.Pos()) && !flow.FailureStopsIn(ifs.Body.Pos(), ifs.Body.End()) {
			return ifs
		}
	}
	return nil
}

// givesUpIn reports whether a failure of the call leaves the loop in one
// of stmts.
func givesUpIn(flow *retryloop.Flow, stmts []ast.Stmt) bool {
	return slices.ContainsFunc(stmts, func(st ast.Stmt) bool { return flow.GivesUpIn(st.Pos(), st.End()) })
}

// roundsIn reports whether a failure of the call goes round by a jump in
// one of stmts.
func roundsIn(flow *retryloop.Flow, stmts []ast.Stmt) bool {
	return slices.ContainsFunc(stmts, func(st ast.Stmt) bool { return flow.RoundsIn(st.Pos(), st.End()) })
}

// giveUpReturn returns the return statement right after the site's loop,
// which runs when its attempts are spent, or nil.
func giveUpReturn(s *retryloop.Site) *ast.ReturnStmt {
	r, _ := s.After.(*ast.ReturnStmt)
	return r
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
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		visit(astq.StmtList(n))
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
		text += "var " + names[0] + " " + declName + ".Adaptive"
	} else {
		text += "var (\n"
		for _, n := range names {
			text += "\t" + n + " " + declName + ".Adaptive\n"
		}
		text += ")"
	}
	return declName, append(edits, analysis.TextEdit{Pos: at, End: at, NewText: []byte(text)})
}

// budgetVar names the package-level budget for the site's dependency: the
// receiver type of the enclosing method, else the package. exists reports
// whether a budget.Adaptive variable of that name is already declared.
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
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == fixes.BudgetPath && n.Obj().Name() == "Adaptive"
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
