package retrybudget

import (
	"bytes"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/internal/fixes"
	"github.com/retrylint/retrylint/analyzers/retryloop"

	"github.com/retrylint/retrylint/analyzers/internal/astq"
)

// doFix is the alternative to budgetFix for the plain shape "counted loop
// around one call": it replaces the loop and the return that gives up
// after it with budget.DoValue (or budget.Do for an error-only function):
//
//	for i := 0; i < 3; i++ {
//		resp, err := c.Do(req)
//		if err == nil {
//			return resp, nil
//		}
//		time.Sleep(time.Second)
//	}
//	return nil, errors.New("gave up")
//
// becomes
//
//	return budget.DoValue(ctx, func(ctx context.Context) (*http.Response, error) {
//		return c.Do(req)
//	}, budget.WithAttempts(3))
//
// The rewrite changes what the caller sees in two ways, which the message
// says: the original waits give way to Do's full-jitter backoff, and the
// final error is Do's *budget.Error wrapping the last failure instead of
// the loop's own. It is offered only where every other difference can be
// ruled out from the syntax; any doubt, and there is no alternative.
func doFix(pass *analysis.Pass, s *retryloop.Site) *analysis.SuggestedFix {
	ctxVar := s.Ctx.InScope
	// A labeled loop would leave its label behind.
	if s.Shape != retryloop.ShapeCounted || len(s.Ops) != 1 || ctxVar == nil || len(s.Waits) > 1 || s.Labeled ||
		!fixes.Editable(pass, s.Pos) {
		return nil
	}
	file := fixes.FileOf(pass, s.Pos)
	ftype := funcType(s.Func)
	if file == nil || ftype == nil || ftype.Results == nil || dotImports(file) {
		return nil
	}
	loop := countedLoop(pass, s)
	if loop == nil {
		return nil
	}
	ret := giveUpReturn(s)
	if ret == nil {
		return nil
	}
	shape, ok := plainBody(pass, s, loop.body, ctxVar)
	if !ok {
		return nil
	}
	results, tText, ok := doResults(pass, s, ftype, len(shape.lhs))
	if !ok || !givesUp(pass, ret, results) {
		return nil
	}
	start, end := s.Node.Pos(), ret.End()
	op := s.Ops[0]
	// Only what is declared in the removed code, the context (still
	// passed to Do) and parameters may be referred to by the removed code
	// outside the call: any other local would be left declared and unused.
	if !removedRefsOK(pass, s.Func, ftype, ctxVar, start, end, op) || !ctxNamedAt(pass, ctxVar, start) {
		return nil
	}
	opText, ok := fixes.Text(pass, op)
	if !ok {
		return nil
	}
	edits, bname, cname, ok := doImports(pass, file, start, end, op)
	if !ok {
		return nil
	}
	indent := fixes.Indent(pass, start)
	fn, sig := "Do", "error"
	if results == 2 {
		fn, sig = "DoValue", "("+tText+", error)"
	}
	text := "return " + bname + "." + fn + "(" + ctxVar.Name() + ", func(" + ctxVar.Name() + " " + cname + ".Context) " + sig + " {\n" +
		indent + "\treturn " + opText + "\n" +
		indent + "}, " + bname + ".WithAttempts(" + loop.nText + "))"
	edits = append(edits, analysis.TextEdit{Pos: start, End: end, NewText: []byte(text)})
	return &analysis.SuggestedFix{
		Message: "Replace the loop with budget." + fn + " (" + strconv.FormatInt(loop.n, 10) +
			" attempts, full-jitter backoff, shared budget; the last error comes back wrapped)",
		TextEdits: edits,
	}
}

// dotImports reports whether the file has a dot import, whose uses
// cannot be counted.
func dotImports(file *ast.File) bool {
	for _, imp := range file.Imports {
		if imp.Name != nil && imp.Name.Name == "." {
			return true
		}
	}
	return false
}

// doResults reports whether the enclosing function returns (T, error) or
// error, with T what the call returns, so that "return OP" fits the
// closure as it is; it returns how many results and T's text.
func doResults(pass *analysis.Pass, s *retryloop.Site, ftype *ast.FuncType, lhs int) (n int, tText string, ok bool) {
	res, ok := fixes.Results(pass, s.Func)
	if !ok || res.Len() != lhs || !isError(res.At(res.Len()-1).Type()) {
		return 0, "", false
	}
	opType := pass.TypesInfo.TypeOf(s.Ops[0])
	switch res.Len() {
	case 1:
		if opType == nil || !isError(opType) {
			return 0, "", false
		}
	case 2:
		tup, isTuple := opType.(*types.Tuple)
		if !isTuple || tup.Len() != 2 || !types.Identical(tup.At(0).Type(), res.At(0).Type()) || !isError(tup.At(1).Type()) {
			return 0, "", false
		}
		if tText, ok = resultTypeText(pass, ftype, s.Node.Pos()); !ok {
			return 0, "", false
		}
	default:
		return 0, "", false
	}
	return res.Len(), tText, true
}

// ctxNamedAt reports whether the context's name means that context at
// pos: the closure's parameter shadows it under its own name.
func ctxNamedAt(pass *analysis.Pass, ctxVar *types.Var, pos token.Pos) bool {
	sc := pass.Pkg.Scope().Innermost(pos)
	if sc == nil {
		return false
	}
	_, obj := sc.LookupParent(ctxVar.Name(), pos)
	return obj == ctxVar
}

// doImports returns the import edits of the rewrite (imports only the
// removed code used go; budget and context come in) and the names budget
// and context go by; ok is false where an import cannot be dropped or a
// name is shadowed at the loop.
func doImports(pass *analysis.Pass, file *ast.File, start, end token.Pos, op ast.Expr) (edits []analysis.TextEdit, bname, cname string, ok bool) {
	dropped, ok := unusedImports(pass, file, start, end, op)
	if !ok {
		return nil, "", "", false
	}
	edits = append(edits, dropped...)
	bname, bimp := fixes.Import(pass, file, fixes.BudgetPath, "budget", start)
	cname, cimp := fixes.Import(pass, file, "context", "context", start)
	// An import reused under its name must not be shadowed at the loop.
	if shadowed(pass, bname, start) || shadowed(pass, cname, start) {
		return nil, "", "", false
	}
	edits = append(edits, bimp...)
	edits = append(edits, cimp...)
	return edits, bname, cname, true
}

// shadowed reports whether name means something other than a package at pos.
func shadowed(pass *analysis.Pass, name string, pos token.Pos) bool {
	sc := pass.Pkg.Scope().Innermost(pos)
	if sc == nil {
		return true
	}
	_, obj := sc.LookupParent(name, pos)
	if obj == nil {
		return false
	}
	_, isPkg := obj.(*types.PkgName)
	return !isPkg
}

func funcType(fn ast.Node) *ast.FuncType {
	switch fn := fn.(type) {
	case *ast.FuncDecl:
		return fn.Type
	case *ast.FuncLit:
		return fn.Type
	}
	return nil
}

// isError reports whether t is the predeclared error type.
func isError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

type counted struct {
	body  *ast.BlockStmt
	n     int64  // the attempts
	nText string // how to write them as an int
}

// countedLoop is the site's counter when the model found it plain (for
// i := 0; i < N; i++, for range N or for i := range N, the variable
// unused in the body) with N an integer constant from 1 to
// fixes.MaxAttempts.
func countedLoop(pass *analysis.Pass, s *retryloop.Site) *counted {
	c := s.Counter
	if c == nil || !c.Plain || c.N < 1 || c.N > fixes.MaxAttempts {
		return nil
	}
	var body *ast.BlockStmt
	switch n := s.Node.(type) {
	case *ast.ForStmt:
		body = n.Body
	case *ast.RangeStmt:
		body = n.Body
	default:
		return nil
	}
	return &counted{body: body, n: c.N, nText: boundText(pass, c.Limit, pass.TypesInfo.Types[c.Limit], c.N)}
}

// boundText is how to write the attempts as an int: the bound's own text
// keeps a named constant, where its type lets it be an int argument.
func boundText(pass *analysis.Pass, bound ast.Expr, tv types.TypeAndValue, v int64) string {
	if b, ok := types.Unalias(tv.Type).(*types.Basic); ok && (b.Kind() == types.Int || b.Kind() == types.UntypedInt) {
		if t, ok := fixes.Text(pass, bound); ok && !strings.Contains(t, "\n") && pureExpr(pass, bound) {
			return t
		}
	}
	return strconv.FormatInt(v, 10)
}

type plain struct {
	lhs []*ast.Ident // v, err or err
}

// plainBody matches the loop body
//
//	v, err := OP        (or err := OP)
//	if err == nil {
//		return v, nil   (or return v, err; return nil; return err)
//	}
//	WAIT                (optional: time.Sleep, <-time.After, or a select on ctx.Done and time.After)
//
// and nothing else.
func plainBody(pass *analysis.Pass, s *retryloop.Site, body *ast.BlockStmt, ctxVar *types.Var) (plain, bool) {
	var p plain
	if n := len(body.List); n < 2 || n > 3 {
		return p, false
	}
	as, ok := body.List[0].(*ast.AssignStmt)
	if !ok || as.Tok != token.DEFINE || len(as.Rhs) != 1 || ast.Unparen(as.Rhs[0]) != s.Ops[0] || len(as.Lhs) > 2 {
		return p, false
	}
	var objs []types.Object
	for _, l := range as.Lhs {
		id, ok := l.(*ast.Ident)
		if !ok || id.Name == "_" || pass.TypesInfo.Defs[id] == nil {
			return p, false
		}
		p.lhs = append(p.lhs, id)
		objs = append(objs, pass.TypesInfo.Defs[id])
	}
	errObj := objs[len(objs)-1]
	if !isError(errObj.Type()) {
		return p, false
	}

	ifs, ok := body.List[1].(*ast.IfStmt)
	if !ok || ifs.Init != nil || ifs.Else != nil || len(ifs.Body.List) != 1 || !astq.NilCheck(pass.TypesInfo, ifs.Cond, errObj) {
		return p, false
	}
	r, ok := ifs.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(r.Results) != len(objs) {
		return p, false
	}
	if len(objs) == 2 && !astq.IsVar(pass.TypesInfo, r.Results[0], objs[0]) {
		return p, false
	}
	// err is nil in the branch, so returning it is returning nil.
	if last := r.Results[len(r.Results)-1]; !astq.IsNil(pass.TypesInfo, last) && !astq.IsVar(pass.TypesInfo, last, errObj) {
		return p, false
	}

	if len(body.List) == 3 {
		w := body.List[2]
		if len(s.Waits) != 1 || !(w.Pos() <= s.Waits[0].Node.Pos() && s.Waits[0].Node.End() <= w.End()) ||
			!droppableWait(pass, w, ctxVar) {
			return p, false
		}
	} else if len(s.Waits) != 0 {
		return p, false
	}
	return p, true
}

// droppableWait reports whether st only waits: time.Sleep(d), <-time.After(d),
// or a select between ctx.Done (giving up with zero values and ctx.Err())
// and time.After(d), d computed without effects. Do waits in its place and
// watches the same context.
func droppableWait(pass *analysis.Pass, st ast.Stmt, ctxVar *types.Var) bool {
	switch st := st.(type) {
	case *ast.ExprStmt:
		x := ast.Unparen(st.X)
		if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.ARROW {
			return isTimeCall(pass, u.X, "After")
		}
		return isTimeCall(pass, x, "Sleep")
	case *ast.SelectStmt:
		if len(st.Body.List) != 2 {
			return false
		}
		var done, timer bool
		for _, c := range st.Body.List {
			cc := c.(*ast.CommClause)
			es, ok := cc.Comm.(*ast.ExprStmt)
			if !ok {
				return false
			}
			u, ok := ast.Unparen(es.X).(*ast.UnaryExpr)
			if !ok || u.Op != token.ARROW {
				return false
			}
			switch {
			case isTimeCall(pass, u.X, "After") && len(cc.Body) == 0:
				timer = true
			case isCtxMethod(pass, u.X, ctxVar, "Done") && len(cc.Body) == 1:
				r, ok := cc.Body[0].(*ast.ReturnStmt)
				if !ok || len(r.Results) == 0 || !isCtxMethod(pass, r.Results[len(r.Results)-1], ctxVar, "Err") {
					return false
				}
				for _, z := range r.Results[:len(r.Results)-1] {
					if !isZeroExpr(pass, z) {
						return false
					}
				}
				done = true
			default:
				return false
			}
		}
		return done && timer
	}
	return false
}

// isTimeCall reports whether e calls time.<name> with effect-free arguments.
func isTimeCall(pass *analysis.Pass, e ast.Expr, name string) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	if !astq.IsFunc(astq.Callee(pass.TypesInfo, call), "time."+name) {
		return false
	}
	for _, a := range call.Args {
		if !pureExpr(pass, a) {
			return false
		}
	}
	return true
}

// isCtxMethod reports whether e is ctx.<name>() on the context variable.
func isCtxMethod(pass *analysis.Pass, e ast.Expr, ctxVar *types.Var, name string) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	return ok && sel.Sel.Name == name && astq.IsVar(pass.TypesInfo, sel.X, ctxVar)
}

// pureExpr reports whether evaluating e has no effect worth keeping: it
// calls nothing but conversions and functions of time, math and the
// random packages, and receives from no channel.
func pureExpr(pass *analysis.Pass, e ast.Expr) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			ok = false
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				ok = false
			}
		case *ast.CallExpr:
			if tv, isT := pass.TypesInfo.Types[n.Fun]; isT && tv.IsType() {
				break
			}
			f := astq.Callee(pass.TypesInfo, n)
			if f == nil || f.Pkg() == nil {
				ok = false
				break
			}
			switch f.Pkg().Path() {
			case "time", "math", "math/rand", "math/rand/v2", fixes.BudgetPath:
				if sig, _ := f.Type().(*types.Signature); sig != nil && sig.Recv() != nil {
					ok = false // a method may change its receiver (a rand.Rand, a time.Timer)
				}
			default:
				ok = false
			}
		}
		return ok
	})
	return ok
}

// isZeroExpr reports whether e is written as a zero value: nil, 0, "",
// false, or an empty composite literal.
func isZeroExpr(pass *analysis.Pass, e ast.Expr) bool {
	e = ast.Unparen(e)
	if astq.IsNil(pass.TypesInfo, e) {
		return true
	}
	if cl, ok := e.(*ast.CompositeLit); ok {
		return len(cl.Elts) == 0
	}
	tv, ok := pass.TypesInfo.Types[e]
	if !ok || tv.Value == nil {
		return false
	}
	switch tv.Value.Kind() {
	case constant.Bool:
		return !constant.BoolVal(tv.Value)
	case constant.String:
		return constant.StringVal(tv.Value) == ""
	case constant.Int, constant.Float, constant.Complex:
		return constant.Sign(tv.Value) == 0
	}
	return false
}

// givesUp reports whether ret gives up: zero values, then an error that is
// not nil and is made without effects (errors.New, fmt.Errorf, a
// package-level error, a constant).
func givesUp(pass *analysis.Pass, ret *ast.ReturnStmt, n int) bool {
	if len(ret.Results) != n {
		return false
	}
	for _, z := range ret.Results[:n-1] {
		if !isZeroExpr(pass, z) {
			return false
		}
	}
	last := ret.Results[n-1]
	if astq.IsNil(pass.TypesInfo, last) {
		return false
	}
	ok := true
	ast.Inspect(last, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.UnaryExpr:
			ok = false
		case *ast.CallExpr:
			if tv, isT := pass.TypesInfo.Types[n.Fun]; isT && tv.IsType() {
				break
			}
			if !astq.IsFunc(astq.Callee(pass.TypesInfo, n), "errors.New", "fmt.Errorf") {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// resultTypeText returns the source text of the function's first result
// type, provided every name in it means the same at pos.
func resultTypeText(pass *analysis.Pass, ft *ast.FuncType, pos token.Pos) (string, bool) {
	if len(ft.Results.List) == 0 {
		return "", false
	}
	t := ft.Results.List[0].Type
	sc := pass.Pkg.Scope().Innermost(pos)
	if sc == nil {
		return "", false
	}
	ok := true
	ast.Inspect(t, func(n ast.Node) bool {
		if sel, isSel := n.(*ast.SelectorExpr); isSel {
			n = sel.X // the selected name is not looked up in scope
			if id, isID := n.(*ast.Ident); isID {
				if _, obj := sc.LookupParent(id.Name, pos); obj != pass.TypesInfo.Uses[id] {
					ok = false
				}
			}
			return false
		}
		if id, isID := n.(*ast.Ident); isID {
			if _, obj := sc.LookupParent(id.Name, pos); obj != pass.TypesInfo.Uses[id] {
				ok = false
			}
		}
		return ok
	})
	if !ok {
		return "", false
	}
	return fixes.Text(pass, t)
}

// removedRefsOK reports whether the code in [start, end) outside op
// refers to no local variable declared outside that range except the
// context and the function's parameters and results (which may go
// unused).
func removedRefsOK(pass *analysis.Pass, fn ast.Node, ft *ast.FuncType, ctxVar *types.Var, start, end token.Pos, op ast.Node) bool {
	ok := true
	ast.Inspect(fn, func(n ast.Node) bool {
		if n == nil || !ok {
			return false
		}
		if n == op || n.End() <= start || n.Pos() >= end {
			return false
		}
		id, isID := n.(*ast.Ident)
		if !isID {
			return true
		}
		v, isVar := pass.TypesInfo.Uses[id].(*types.Var)
		if !isVar || v.IsField() || v == ctxVar || v.Parent() == nil || v.Parent() == pass.Pkg.Scope() || v.Pkg() != pass.Pkg {
			return true
		}
		if start <= v.Pos() && v.Pos() < end {
			return true
		}
		if inSignature(fn, ft, v.Pos()) {
			return true
		}
		ok = false
		return false
	})
	return ok
}

// inSignature reports whether pos lies in the receiver, parameters or
// results of fn: those may go unused without a compile error.
func inSignature(fn ast.Node, ft *ast.FuncType, pos token.Pos) bool {
	if fd, isDecl := fn.(*ast.FuncDecl); isDecl && fd.Recv != nil && fd.Recv.Pos() <= pos && pos < fd.Recv.End() {
		return true
	}
	return ft.Pos() <= pos && pos < ft.End()
}

// unusedImports returns edits deleting the imports whose every use lies
// in [start, end) outside op. ok is false when such an import cannot be
// deleted cleanly (not on a line of its own in a parenthesized block, or
// carrying a comment).
func unusedImports(pass *analysis.Pass, file *ast.File, start, end token.Pos, op ast.Node) ([]analysis.TextEdit, bool) {
	total := map[*types.PkgName]int{}
	removed := map[*types.PkgName]int{}
	ast.Inspect(file, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		pn, ok := pass.TypesInfo.Uses[id].(*types.PkgName)
		if !ok {
			return true
		}
		total[pn]++
		if start <= id.Pos() && id.End() <= end && !(op.Pos() <= id.Pos() && id.End() <= op.End()) {
			removed[pn]++
		}
		return true
	})
	var edits []analysis.TextEdit
	for _, d := range file.Decls {
		gd, isGen := d.(*ast.GenDecl)
		if !isGen || gd.Tok != token.IMPORT {
			continue
		}
		for _, sp := range gd.Specs {
			spec := sp.(*ast.ImportSpec)
			obj := pass.TypesInfo.Defs[spec.Name]
			if spec.Name == nil {
				obj = pass.TypesInfo.Implicits[spec]
			}
			pn, _ := obj.(*types.PkgName)
			if pn == nil || removed[pn] == 0 || removed[pn] != total[pn] {
				continue
			}
			if p := pn.Imported().Path(); p == "context" || p == fixes.BudgetPath {
				continue // the replacement uses them
			}
			if !gd.Lparen.IsValid() || spec.Doc != nil || spec.Comment != nil || !aloneOnLine(pass, spec) {
				return nil, false
			}
			// From the end of the previous line to the end of the spec:
			// an import added after the spec still has a place to go.
			from := fixes.LineStart(pass, spec.Pos()) - 1
			edits = append(edits, analysis.TextEdit{Pos: from, End: spec.End()})
		}
	}
	return edits, true
}

// aloneOnLine reports whether only white space surrounds n on its line.
func aloneOnLine(pass *analysis.Pass, n ast.Node) bool {
	tf := pass.Fset.File(n.Pos())
	src, err := fixes.Source(pass, tf.Name())
	if err != nil {
		return false
	}
	ls := tf.Offset(fixes.LineStart(pass, n.Pos()))
	if len(bytes.TrimSpace(src[ls:tf.Offset(n.Pos())])) != 0 {
		return false
	}
	rest := src[tf.Offset(n.End()):]
	if i := bytes.IndexByte(rest, '\n'); i >= 0 {
		rest = rest[:i]
	}
	return len(bytes.TrimSpace(rest)) == 0
}
