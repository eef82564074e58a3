package retryidempotency

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/internal/fixes"
	"github.com/retrylint/retrylint/analyzers/retryloop"

	"github.com/retrylint/retrylint/analyzers/internal/astq"
)

// shortcutFix spells out an http.Post or PostForm shortcut re-sent by a
// retry loop, so the request can carry a key minted once before the loop:
//
//	idempotencyKey := budget.NewIdempotencyKey()
//	for ... {
//		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, body)
//		if err != nil {
//			return err
//		}
//		req.Header.Set("Content-Type", "application/json")
//		req.Header.Set("Idempotency-Key", idempotencyKey)
//		resp, err := http.DefaultClient.Do(req)
//
// This is what the shortcut does, with the key added. It is offered only
// for `resp, err := SHORTCUT(...)` in the loop body, where the client,
// the content type and the form are plain names or constants (evaluated
// in another order after the rewrite), in a function that can return the
// request's error. The request takes the function's own context when one
// is in scope (context.Background otherwise, as the shortcut does).
func shortcutFix(pass *analysis.Pass, s *retryloop.Site, req *retryloop.Request) []analysis.SuggestedFix {
	switch s.Node.(type) {
	case *ast.ForStmt, *ast.RangeStmt:
	default:
		return nil
	}
	call := req.Send
	fn, form, ok := shortcutCallee(pass, call)
	if !ok {
		return nil
	}
	stmt, respID, errID, ok := shortcutStmt(pass, s, call)
	if !ok {
		return nil
	}
	file := fixes.FileOf(pass, stmt.Pos())
	if fixes.CommentIn(file, stmt.Pos(), stmt.End()) {
		return nil
	}
	ret, ok := fixes.ReturnErr(pass, file, s.Func, errID.Name)
	if !ok || ret == "return" {
		return nil
	}
	sc := &shortcut{pass: pass, file: file, stmt: stmt}
	httpName := sc.importName("net/http", "http", stmt.Pos())
	client, ok := sc.client(call, fn, httpName)
	if !ok {
		return nil
	}
	url, ok := fixes.Text(pass, call.Args[0])
	if !ok {
		return nil
	}
	ctype, body, ok := sc.content(call, form)
	if !ok {
		return nil
	}
	ctx := sc.context(s)
	at, ok := fixes.InsertionPoint(pass, s.Func, s.Node)
	if !ok {
		return nil
	}
	budgetName := sc.importName(fixes.BudgetPath, "budget", at)
	key := fixes.FreeName(pass, file, "idempotencyKey", at)
	reqName := fixes.FreeName(pass, file, "req", stmt.Pos())
	in := fixes.Indent(pass, stmt.Pos())
	text := reqName + ", " + errID.Name + " := " + httpName + ".NewRequestWithContext(" + ctx + ", " + httpName + ".MethodPost, " + url + ", " + body + ")\n" +
		in + "if " + errID.Name + " != nil {\n" +
		in + "\t" + ret + "\n" +
		in + "}\n" +
		in + reqName + `.Header.Set("Content-Type", ` + ctype + ")\n" +
		in + reqName + `.Header.Set("Idempotency-Key", ` + key + ")\n" +
		in + respID.Name + ", " + errID.Name + " := " + client + ".Do(" + reqName + ")"
	eol := fixes.LineStart(pass, at) - 1
	sc.edits = append(sc.edits,
		analysis.TextEdit{Pos: eol, End: eol, NewText: []byte("\n" + fixes.Indent(pass, at) + key + " := " + budgetName + ".NewIdempotencyKey() // one key for all attempts of this operation")},
		analysis.TextEdit{Pos: stmt.Pos(), End: stmt.End(), NewText: []byte(text)})
	return []analysis.SuggestedFix{{
		Message:   "Build the POST with NewRequestWithContext and send it with Do, with an idempotency key minted once before the loop",
		TextEdits: sc.edits,
	}}
}

// shortcutCallee returns net/http's Post or PostForm (the function or the
// Client method) that call calls with all its arguments; form reports
// PostForm.
func shortcutCallee(pass *analysis.Pass, call *ast.CallExpr) (fn *types.Func, form, ok bool) {
	fn = astq.Callee(pass.TypesInfo, call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "net/http" || !fixes.Editable(pass, call.Pos()) {
		return nil, false, false
	}
	form = fn.Name() == "PostForm"
	if fn.Name() != "Post" && !form || len(call.Args) != map[bool]int{false: 3, true: 2}[form] {
		return nil, false, false
	}
	return fn, form, true
}

// shortcutStmt returns `resp, err := SHORTCUT(...)` in the loop, with
// both names used and resp new here: after `req, err :=` the send's :=
// needs it.
func shortcutStmt(pass *analysis.Pass, s *retryloop.Site, call *ast.CallExpr) (stmt *ast.AssignStmt, respID, errID *ast.Ident, ok bool) {
	stmt, ok = fixes.StmtInList(s.Func, call).(*ast.AssignStmt)
	if !ok || stmt.Tok != token.DEFINE || len(stmt.Lhs) != 2 || len(stmt.Rhs) != 1 || ast.Unparen(stmt.Rhs[0]) != call ||
		stmt.Pos() < s.Node.Pos() || stmt.End() > s.Node.End() {
		return nil, nil, nil, false
	}
	respID, ok1 := stmt.Lhs[0].(*ast.Ident)
	errID, ok2 := stmt.Lhs[1].(*ast.Ident)
	if !ok1 || !ok2 || respID.Name == "_" || errID.Name == "_" || pass.TypesInfo.Defs[respID] == nil {
		return nil, nil, nil, false
	}
	return stmt, respID, errID, true
}

// shortcut gathers the edits of shortcutFix.
type shortcut struct {
	pass  *analysis.Pass
	file  *ast.File
	stmt  *ast.AssignStmt
	edits []analysis.TextEdit
}

// importName returns the name path goes by at pos, adding its import
// where the file lacks it.
func (sc *shortcut) importName(path, name string, pos token.Pos) string {
	n, imp := fixes.Import(sc.pass, sc.file, path, name, pos)
	sc.edits = append(sc.edits, imp...)
	return n
}

// client is the client that sends: http.DefaultClient for the package's
// shortcut, or the method's receiver when it is a plain name.
func (sc *shortcut) client(call *ast.CallExpr, fn *types.Func, httpName string) (string, bool) {
	if fn.Type().(*types.Signature).Recv() == nil {
		return httpName + ".DefaultClient", true
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || !plain(sel.X) {
		return "", false
	}
	return fixes.Text(sc.pass, sel.X)
}

// content returns the request's content type and body: PostForm's encoded
// form, or Post's own, where they are plain names or constants.
func (sc *shortcut) content(call *ast.CallExpr, form bool) (ctype, body string, ok bool) {
	pass := sc.pass
	if form {
		if !plain(call.Args[1]) {
			return "", "", false
		}
		data, _ := fixes.Text(pass, call.Args[1])
		strs := sc.importName("strings", "strings", sc.stmt.Pos())
		return `"application/x-www-form-urlencoded"`, strs + ".NewReader(" + data + ".Encode())", true
	}
	if !plain(call.Args[1]) && pass.TypesInfo.Types[call.Args[1]].Value == nil {
		return "", "", false
	}
	ctype, _ = fixes.Text(pass, call.Args[1])
	body, ok = fixes.Text(pass, call.Args[2])
	return ctype, body, ok
}

// context is the request's context: the function's own when one is in
// scope, context.Background otherwise, as the shortcut does.
func (sc *shortcut) context(s *retryloop.Site) string {
	if v := s.Ctx.InScope; v != nil && ownContext(s.Func, v) {
		return v.Name()
	}
	return sc.importName("context", "context", sc.stmt.Pos()) + ".Background()"
}

// plain reports whether e is a name or a selection of names: evaluating it
// later, or again, changes nothing.
func plain(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return true
	case *ast.SelectorExpr:
		return plain(e.X)
	}
	return false
}

// ownContext reports whether the context v belongs to fn: declared in it,
// or a parameter of it, and not captured from outside a function literal
// (a goroutine's retries must not die with the request that started them).
func ownContext(fn ast.Node, v *types.Var) bool {
	return fn.Pos() <= v.Pos() && v.Pos() < fn.End()
}
