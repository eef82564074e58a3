// Package astq answers the questions every retrylint package asks of
// typed syntax, in one vocabulary: which function a call invokes, whether
// it is one of a few named functions ("pkg/path.Name" or
// "pkg/path.Type.Name", by type identity, never by spelling), whether an
// expression names a given variable or the predeclared nil, and whether
// a condition tests a variable against nil.
package astq

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// BudgetPath is the import path of the bundled retry-budget library, the
// package the suggested fixes rewrite code onto (known by path: the
// analyzers never import it).
const BudgetPath = "github.com/retrylint/retrylint/budget"

// Callee returns the function or method a call statically invokes, or
// nil (a call through a function value, a conversion, a builtin).
func Callee(info *types.Info, call *ast.CallExpr) *types.Func {
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	return fn
}

// FuncPath returns "pkg/path.Name" for a function, "pkg/path.Type.Name"
// for a method of a named type (generic or not) and
// "pkg/path.(interface).Name" for a method of an unnamed interface; ""
// for a function of no package.
func FuncPath(fn *types.Func) string {
	if fn == nil || fn.Pkg() == nil {
		return ""
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig != nil && sig.Recv() != nil {
		t := sig.Recv().Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := types.Unalias(t).(*types.Named); ok {
			return fn.Pkg().Path() + "." + n.Obj().Name() + "." + fn.Name()
		}
		if _, ok := t.Underlying().(*types.Interface); ok {
			return fn.Pkg().Path() + ".(interface)." + fn.Name()
		}
	}
	return fn.Pkg().Path() + "." + fn.Name()
}

// IsFunc reports whether fn is one of the named functions, each named as
// FuncPath names it ("time.Sleep", "net/http.Client.Do").
func IsFunc(fn *types.Func, names ...string) bool {
	if fn == nil {
		return false
	}
	// Compare the short name first: building the path costs more.
	name := fn.Name()
	match := false
	for _, n := range names {
		if strings.HasSuffix(n, name) && len(n) > len(name) && n[len(n)-len(name)-1] == '.' {
			match = true
			break
		}
	}
	if !match {
		return false
	}
	p := FuncPath(fn)
	if p == "" {
		return false
	}
	for _, n := range names {
		if p == n {
			return true
		}
	}
	return false
}

// IsNamed reports whether t, or what it points to, is the named type
// pkgPath.name (aliases resolved): type identity by package path and
// name, never by spelling in the source.
func IsNamed(t types.Type, pkgPath, name string) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == pkgPath && n.Obj().Name() == name
}

// IsTimeChan reports whether t is a channel one can receive time.Time
// values from (a timer's or a clock's).
func IsTimeChan(t types.Type) bool {
	if t == nil {
		return false
	}
	ch, ok := t.Underlying().(*types.Chan)
	return ok && ch.Dir() != types.SendOnly && IsNamed(ch.Elem(), "time", "Time")
}

// IsVar reports whether e (parentheses aside) is an identifier that uses
// or defines obj.
func IsVar(info *types.Info, e ast.Expr, obj types.Object) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && obj != nil && (info.Uses[id] == obj || info.Defs[id] == obj)
}

// IsNil reports whether e (parentheses aside) is the predeclared nil.
func IsNil(info *types.Info, e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	_, isNil := info.Uses[id].(*types.Nil)
	return isNil
}

// NilCheck reports whether cond is `v == nil` or `nil == v` for the
// variable obj.
func NilCheck(info *types.Info, cond ast.Expr, obj types.Object) bool {
	b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || b.Op != token.EQL {
		return false
	}
	return IsVar(info, b.X, obj) && IsNil(info, b.Y) || IsNil(info, b.X) && IsVar(info, b.Y, obj)
}

// RefersTo reports whether n uses obj anywhere.
func RefersTo(info *types.Info, n ast.Node, obj types.Object) bool {
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		if id, ok := m.(*ast.Ident); ok && info.Uses[id] == obj {
			found = true
		}
		return !found
	})
	return found
}

// LoopBody returns the body of a for or range statement, or nil for any
// other node.
func LoopBody(n ast.Node) *ast.BlockStmt {
	switch n := n.(type) {
	case *ast.ForStmt:
		return n.Body
	case *ast.RangeStmt:
		return n.Body
	}
	return nil
}

// StmtList returns the statement list n holds: a block's, or a switch or
// select clause's body; nil for any other node.
func StmtList(n ast.Node) []ast.Stmt {
	switch n := n.(type) {
	case *ast.BlockStmt:
		return n.List
	case *ast.CaseClause:
		return n.Body
	case *ast.CommClause:
		return n.Body
	}
	return nil
}

// reader is io.Reader's method set, built here so that a type is matched
// by its methods, as the io package matches it.
var reader = func() *types.Interface {
	bytes := types.NewSlice(types.Typ[types.Byte])
	params := types.NewTuple(types.NewVar(token.NoPos, nil, "p", bytes))
	results := types.NewTuple(
		types.NewVar(token.NoPos, nil, "n", types.Typ[types.Int]),
		types.NewVar(token.NoPos, nil, "err", types.Universe.Lookup("error").Type()),
	)
	read := types.NewFunc(token.NoPos, nil, "Read", types.NewSignatureType(nil, nil, nil, params, results, false))
	return types.NewInterfaceType([]*types.Func{read}, nil).Complete()
}()

// ReadsStream reports whether m is a read of a stream: a method of a type
// that is an io.Reader (a connection, a body, a decoder's source), which
// is its Read or takes no arguments (ReadMsg, ReadFrame). Each call hands
// back the next item the stream holds, so calling it again reads on: it
// is not the same operation again.
func ReadsStream(m *types.Func) bool {
	if m == nil {
		return false
	}
	sig, ok := m.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return false
	}
	t := sig.Recv().Type()
	if !types.Implements(t, reader) {
		if _, isPtr := t.(*types.Pointer); isPtr || !types.Implements(types.NewPointer(t), reader) {
			return false
		}
	}
	if sig.Params().Len() == 0 {
		return true
	}
	return m.Name() == "Read" && types.Identical(sig, reader.Method(0).Type().(*types.Signature))
}
