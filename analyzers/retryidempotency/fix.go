package retryidempotency

import (
	"go/ast"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/internal/fixes"
	"github.com/retrylint/retrylint/analyzers/retryloop"
)

// keyFix mints a key once before the loop and sets it on the request at
// every attempt, just before it is sent:
//
//	key := budget.NewIdempotencyKey()
//	for ... {
//		...
//		req.Header.Set("Idempotency-Key", key)
//		resp, err := client.Do(req)
func keyFix(pass *analysis.Pass, s *retryloop.Site, req *retryloop.Request) []analysis.SuggestedFix {
	switch s.Node.(type) {
	case *ast.ForStmt, *ast.RangeStmt:
	default:
		return nil
	}
	if req.Shortcut || req.Via != nil || req.Build == nil || len(req.Send.Args) != 1 || !fixes.Editable(pass, req.Send.Pos()) {
		return nil
	}
	reqID, ok := ast.Unparen(req.Send.Args[0]).(*ast.Ident)
	if !ok {
		return nil
	}
	if _, ok := pass.TypesInfo.Uses[reqID].(*types.Var); !ok {
		return nil
	}
	send := fixes.StmtInList(s.Func, req.Send)
	if send == nil || send.Pos() < req.Build.End() {
		return nil
	}
	at, ok := fixes.InsertionPoint(pass, s.Func, s.Node)
	if !ok {
		return nil
	}
	file := fixes.FileOf(pass, at)
	name, imp := fixes.Import(pass, file, fixes.BudgetPath, "budget", at)
	key := fixes.FreeName(pass, file, "idempotencyKey", at)
	loopIndent := fixes.Indent(pass, at)
	sendIndent := fixes.Indent(pass, send.Pos())
	// Insert at the end of the line before the loop: other fixes insert
	// at the start of the loop's line and at its keyword.
	eol := fixes.LineStart(pass, at) - 1
	edits := append([]analysis.TextEdit{
		{Pos: eol, End: eol, NewText: []byte("\n" + loopIndent + key + " := " + name + ".NewIdempotencyKey() // one key for all attempts of this operation")},
		{Pos: send.Pos(), End: send.Pos(), NewText: []byte(reqID.Name + ".Header.Set(" + strconv.Quote("Idempotency-Key") + ", " + key + ")\n" + sendIndent)},
	}, imp...)
	return []analysis.SuggestedFix{{
		Message:   "Mint an idempotency key once before the loop and set it on every attempt",
		TextEdits: edits,
	}}
}

// moveKeyFix moves a key minted on every attempt out of the loop: the
// same expression, evaluated once before the loop, names the key of every
// attempt.
func moveKeyFix(pass *analysis.Pass, s *retryloop.Site, req *retryloop.Request) []analysis.SuggestedFix {
	val := req.KeyVal
	switch s.Node.(type) {
	case *ast.ForStmt, *ast.RangeStmt:
	default:
		return nil
	}
	if val == nil || !fixes.Editable(pass, val.Pos()) {
		return nil
	}
	if _, ok := ast.Unparen(val).(*ast.CallExpr); !ok {
		return nil // a variable minted in the loop: its definition would have to move too
	}
	at, ok := fixes.InsertionPoint(pass, s.Func, s.Node)
	if !ok || !fixes.DeclaredBefore(pass, val, at) || modifiedIn(pass, val, s.Node) {
		return nil
	}
	text, ok := fixes.Text(pass, val)
	if !ok || strings.Contains(text, "\n") {
		return nil
	}
	file := fixes.FileOf(pass, at)
	key := fixes.FreeName(pass, file, "idempotencyKey", at)
	eol := fixes.LineStart(pass, at) - 1
	indent := fixes.Indent(pass, at)
	return []analysis.SuggestedFix{{
		Message: "Mint the idempotency key once, before the loop",
		TextEdits: []analysis.TextEdit{
			{Pos: eol, End: eol, NewText: []byte("\n" + indent + key + " := " + text + " // one key for all attempts of this operation")},
			{Pos: val.Pos(), End: val.End(), NewText: []byte(key)},
		},
	}}
}

// modifiedIn reports whether a variable e refers to is assigned inside n.
func modifiedIn(pass *analysis.Pass, e ast.Expr, n ast.Node) bool {
	vars := map[types.Object]bool{}
	ast.Inspect(e, func(m ast.Node) bool {
		if id, ok := m.(*ast.Ident); ok {
			if v, ok := pass.TypesInfo.Uses[id].(*types.Var); ok {
				vars[v] = true
			}
		}
		return true
	})
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		switch m := m.(type) {
		case *ast.AssignStmt:
			for _, l := range m.Lhs {
				if id, ok := l.(*ast.Ident); ok && vars[pass.TypesInfo.Uses[id]] {
					found = true
				}
			}
		case *ast.IncDecStmt:
			if id, ok := m.X.(*ast.Ident); ok && vars[pass.TypesInfo.Uses[id]] {
				found = true
			}
		}
		return !found
	})
	return found
}
