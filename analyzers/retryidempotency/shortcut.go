package retryidempotency

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/retrylint/retrylint/analyzers/internal/fixes"
	"github.com/retrylint/retrylint/analyzers/retryloop"
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
	fn, _ := typeutil.Callee(pass.TypesInfo, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "net/http" || !fixes.Editable(pass, call.Pos()) {
		return nil
	}
	form := fn.Name() == "PostForm"
	if fn.Name() != "Post" && !form || len(call.Args) != map[bool]int{false: 3, true: 2}[form] {
		return nil
	}
	method := fn.Type().(*types.Signature).Recv() != nil
	stmt, ok := fixes.StmtInList(s.Func, call).(*ast.AssignStmt)
	if !ok || stmt.Tok != token.DEFINE || len(stmt.Lhs) != 2 || len(stmt.Rhs) != 1 || ast.Unparen(stmt.Rhs[0]) != call ||
		stmt.Pos() < s.Node.Pos() || stmt.End() > s.Node.End() {
		return nil
	}
	respID, ok1 := stmt.Lhs[0].(*ast.Ident)
	errID, ok2 := stmt.Lhs[1].(*ast.Ident)
	// resp must be new here: after `req, err :=` the send's := needs it.
	if !ok1 || !ok2 || respID.Name == "_" || errID.Name == "_" || pass.TypesInfo.Defs[respID] == nil {
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
	httpName, edits := fixes.Import(pass, file, "net/http", "http", stmt.Pos())
	client := httpName + ".DefaultClient"
	if method {
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || !plain(sel.X) {
			return nil
		}
		if client, ok = fixes.Text(pass, sel.X); !ok {
			return nil
		}
	}
	url, ok := fixes.Text(pass, call.Args[0])
	if !ok {
		return nil
	}
	var ctype, body string
	if form {
		if !plain(call.Args[1]) {
			return nil
		}
		data, _ := fixes.Text(pass, call.Args[1])
		strs, imp := fixes.Import(pass, file, "strings", "strings", stmt.Pos())
		edits = append(edits, imp...)
		ctype, body = `"application/x-www-form-urlencoded"`, strs+".NewReader("+data+".Encode())"
	} else {
		if !plain(call.Args[1]) && pass.TypesInfo.Types[call.Args[1]].Value == nil {
			return nil
		}
		ctype, _ = fixes.Text(pass, call.Args[1])
		body, ok = fixes.Text(pass, call.Args[2])
		if !ok {
			return nil
		}
	}
	ctx := ""
	if v := s.Ctx.InScope; v != nil && ownContext(s.Func, v) {
		ctx = v.Name()
	} else {
		name, imp := fixes.Import(pass, file, "context", "context", stmt.Pos())
		edits = append(edits, imp...)
		ctx = name + ".Background()"
	}
	at, ok := fixes.InsertionPoint(pass, s.Func, s.Node)
	if !ok {
		return nil
	}
	budgetName, imp := fixes.Import(pass, file, fixes.BudgetPath, "budget", at)
	edits = append(edits, imp...)
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
	edits = append(edits,
		analysis.TextEdit{Pos: eol, End: eol, NewText: []byte("\n" + fixes.Indent(pass, at) + key + " := " + budgetName + ".NewIdempotencyKey() // one key for all attempts of this operation")},
		analysis.TextEdit{Pos: stmt.Pos(), End: stmt.End(), NewText: []byte(text)})
	return []analysis.SuggestedFix{{
		Message:   "Build the POST with NewRequestWithContext and send it with Do, with an idempotency key minted once before the loop",
		TextEdits: edits,
	}}
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
