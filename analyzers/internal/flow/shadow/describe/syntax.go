package main

import (
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// describeSyntax reports, for the fail-mode counts of the rows where
// neither model found a site, what the code of the span is made of:
// each loop and goto with the kinds of statement its body holds
// ("ast loop=bare sleep errtest select"), each self-call ("ast
// recursion"), and each call outside a loop to a function of this module
// that takes a function ("ast call=helper") or through a function value
// ("ast call=value"). Kinds only: no name of the code is reported.
func describeSyntax(pass *analysis.Pass) {
	for _, f := range pass.Files {
		if strings.HasSuffix(pass.Fset.Position(f.Pos()).Filename, "_test.go") {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			self, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
			describeBody(pass, self, fd.Body)
		}
	}
}

func describeBody(pass *analysis.Pass, self *types.Func, body *ast.BlockStmt) {
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ForStmt:
			report(pass, n.Pos(), n.End(), "ast loop="+forKind(n)+bodyKinds(pass, n.Body))
		case *ast.RangeStmt:
			report(pass, n.Pos(), n.End(), "ast loop="+rangeKind(pass, n)+bodyKinds(pass, n.Body))
		case *ast.BranchStmt:
			if n.Tok == token.GOTO {
				pass.Reportf(n.Pos(), "ast loop=goto")
			}
		case *ast.CallExpr:
			if k := callKind(pass, self, n); k != "" {
				pass.Reportf(n.Pos(), "ast call=%s", k)
			}
			for _, a := range n.Args {
				if self != nil && usesObj(pass, a, self) {
					// the function hands itself on (time.AfterFunc(d, c.connect))
					pass.Reportf(n.Pos(), "ast call=selfref")
				}
			}
		case *ast.GoStmt:
			pass.Reportf(n.Pos(), "ast go")
		}
		return true
	})
}

func forKind(n *ast.ForStmt) string {
	switch {
	case n.Cond == nil:
		return "bare"
	case n.Init != nil || n.Post != nil:
		return "counted"
	}
	return "cond"
}

func rangeKind(pass *analysis.Pass, n *ast.RangeStmt) string {
	t := pass.TypesInfo.TypeOf(n.X)
	if t == nil {
		return "range"
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		if u.Info()&types.IsInteger != 0 {
			return "range-int"
		}
	case *types.Chan:
		return "range-chan"
	case *types.Signature:
		return "range-func"
	}
	return "range"
}

// bodyKinds names the kinds of statement a loop body holds, outside
// nested function literals.
func bodyKinds(pass *analysis.Pass, body *ast.BlockStmt) string {
	kinds := map[string]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			kinds["funclit"] = true
			return false
		case *ast.SelectStmt:
			kinds["select"] = true
		case *ast.BranchStmt:
			kinds[strings.ToLower(n.Tok.String())] = true
		case *ast.ReturnStmt:
			kinds["return"] = true
		case *ast.BinaryExpr:
			if (n.Op == token.NEQ || n.Op == token.EQL) && (isErr(pass, n.X) || isErr(pass, n.Y)) {
				kinds["errtest"] = true
			}
		case *ast.SelectorExpr:
			if n.Sel.Name == "StatusCode" {
				kinds["status"] = true
			}
		case *ast.CallExpr:
			if fn, ok := typeutil.Callee(pass.TypesInfo, n).(*types.Func); ok && fn.Pkg() != nil && fn.Pkg().Path() == "time" &&
				slices.Contains([]string{"Sleep", "After", "NewTimer", "NewTicker", "Tick", "AfterFunc"}, fn.Name()) {
				kinds["sleep"] = true
			}
			if typeutil.StaticCallee(pass.TypesInfo, n) == nil {
				if _, ok := typeutil.Callee(pass.TypesInfo, n).(*types.Var); ok {
					kinds["callvalue"] = true
				}
			}
		}
		return true
	})
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(kinds)) {
		b.WriteString(" " + k)
	}
	return b.String()
}

func isErr(pass *analysis.Pass, e ast.Expr) bool {
	t := pass.TypesInfo.TypeOf(e)
	return t != nil && types.Identical(t, types.Universe.Lookup("error").Type())
}

// callKind: "recursion" for a self-call, "helper" for a call to a
// function of this package that takes a function, "value" for a call
// through a function value that is handed a function.
func callKind(pass *analysis.Pass, self *types.Func, c *ast.CallExpr) string {
	switch fn := typeutil.Callee(pass.TypesInfo, c).(type) {
	case *types.Func:
		if fn == self {
			return "recursion"
		}
		if fn.Pkg() == pass.Pkg && takesFunc(fn) {
			return "helper"
		}
	case *types.Var:
		for _, a := range c.Args {
			if t := pass.TypesInfo.TypeOf(a); t != nil {
				if _, ok := t.Underlying().(*types.Signature); ok {
					return "value"
				}
			}
		}
	}
	return ""
}

func usesObj(pass *analysis.Pass, e ast.Expr, obj types.Object) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return pass.TypesInfo.Uses[e] == obj
	case *ast.SelectorExpr:
		return pass.TypesInfo.Uses[e.Sel] == obj
	}
	return false
}
