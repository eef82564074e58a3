package libmodel

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/retrylint/retrylint/analyzers/internal/follow"
)

// A client held in a struct field is configured where the field is set,
// often in another function (NewClient) than the one that sends through
// it. An unexported field of a struct of this package is set only by this
// package's files, so every value it can hold is in view: each write is
// followed in the function that makes it, and the client is known when
// every write gives the same client.

// fieldWrite is one value the package gives a field.
type fieldWrite struct {
	val  ast.Expr
	at   ast.Node // the assignment or composite literal
	file *ast.File
	fn   ast.Node // the function making it (*ast.FuncDecl or *ast.FuncLit), nil at package level
}

// heldField returns the field e selects (c.http) when it is an unexported
// field of a struct declared in this package, or nil.
func (s *scope) heldField(e ast.Expr) *types.Var {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	selection, ok := s.env.Info.Selections[sel]
	if !ok || selection.Kind() != types.FieldVal {
		return nil
	}
	f, ok := selection.Obj().(*types.Var)
	if !ok || !f.IsField() || f.Exported() || f.Pkg() == nil || f.Pkg() != s.env.Pkg || f.Embedded() {
		return nil
	}
	return f
}

// fieldWrites returns every value the package's non-test files give the
// field f; ok is false when one of them cannot be read (a positional
// literal, a tuple assignment, the field's address taken).
func (s *scope) fieldWrites(f *types.Var) (writes []fieldWrite, ok bool) {
	if s.env.fieldWrites == nil {
		s.env.fieldWrites = map[*types.Var][]fieldWrite{}
		s.env.fieldUnread = map[*types.Var]bool{}
	}
	if w, done := s.env.fieldWrites[f]; done {
		return w, !s.env.fieldUnread[f]
	}
	ok = true
	for _, file := range s.files() {
		if s.env.Fset != nil && strings.HasSuffix(s.env.Fset.File(file.Pos()).Name(), "_test.go") {
			continue
		}
		var fns []ast.Node
		ast.Inspect(file, func(n ast.Node) bool {
			if n == nil {
				return true
			}
			switch n := n.(type) {
			case *ast.FuncDecl, *ast.FuncLit:
				fns = append(fns, n)
			}
			var fn ast.Node
			for i := len(fns) - 1; i >= 0; i-- {
				if fns[i].Pos() <= n.Pos() && n.End() <= fns[i].End() {
					fn = fns[i]
					break
				}
			}
			found, read := s.writesIn(n, f)
			for _, v := range found {
				writes = append(writes, fieldWrite{val: v, at: n, file: file, fn: fn})
			}
			ok = ok && read
			return true
		})
	}
	s.env.fieldWrites[f], s.env.fieldUnread[f] = writes, !ok
	return writes, ok
}

// writesIn returns the values node n gives field f; read is false when n
// sets it in a way that cannot be followed.
func (s *scope) writesIn(n ast.Node, f *types.Var) (vals []ast.Expr, read bool) {
	switch n := n.(type) {
	case *ast.CompositeLit:
		st, isStruct := typeOf(s.env.Info, n).Underlying().(*types.Struct)
		if !isStruct || !hasField(st, f) {
			return nil, true
		}
		for _, e := range n.Elts {
			kv, isKV := e.(*ast.KeyValueExpr)
			if !isKV {
				return nil, false // positional: every field is set
			}
			if id, isID := kv.Key.(*ast.Ident); isID && s.obj(id) == f {
				vals = append(vals, kv.Value)
			}
		}
	case *ast.AssignStmt:
		for i, l := range n.Lhs {
			sel, isSel := ast.Unparen(l).(*ast.SelectorExpr)
			if !isSel {
				continue
			}
			if inner, isInner := ast.Unparen(sel.X).(*ast.SelectorExpr); isInner && s.env.Info.Uses[inner.Sel] == f {
				return nil, false // c.http.CheckRetry = p: configured in place
			}
			if s.env.Info.Uses[sel.Sel] != f {
				continue
			}
			if len(n.Lhs) != len(n.Rhs) || n.Tok != token.ASSIGN {
				return nil, false
			}
			vals = append(vals, n.Rhs[i])
		}
	case *ast.UnaryExpr:
		if sel, isSel := ast.Unparen(n.X).(*ast.SelectorExpr); isSel && n.Op == token.AND && s.env.Info.Uses[sel.Sel] == f {
			return nil, false
		}
	}
	return vals, true
}

func typeOf(info *types.Info, e ast.Expr) types.Type {
	if t := info.TypeOf(e); t != nil {
		return t
	}
	return types.Typ[types.Invalid]
}

func hasField(st *types.Struct, f *types.Var) bool {
	for i := 0; i < st.NumFields(); i++ {
		if st.Field(i) == f {
			return true
		}
	}
	return false
}

// scopeOf returns a scope for the function making a write, or nil at
// package level.
func (s *scope) scopeOf(w fieldWrite) *scope {
	switch fn := w.fn.(type) {
	case *ast.FuncDecl:
		if fn.Body != nil {
			return newScope(s.env, w.file, fn, fn.Type, fn.Body)
		}
	case *ast.FuncLit:
		return newScope(s.env, w.file, fn, fn.Type, fn.Body)
	}
	return nil
}

// rhFieldClient is the retryablehttp client an unexported field holds:
// known when every write of the field, followed where it is made (and
// through copies from other such fields, http: c.http), gives one and the
// same known client. Its fixes would edit another function: none.
func (s *scope) rhFieldClient(f *types.Var) *rhClient {
	unknown := &rhClient{}
	k := follow.Key{What: "rhFieldClient", At: f}
	if !s.env.path.Enter(k) {
		return unknown
	}
	defer s.env.path.Leave(k)
	writes, ok := s.fieldWrites(f)
	if !ok || len(writes) == 0 {
		return unknown
	}
	var out *rhClient
	for _, w := range writes {
		var cl *rhClient
		if g := s.heldField(w.val); g != nil {
			cl = s.rhFieldClient(g)
		} else if ws := s.scopeOf(w); ws != nil {
			cl = ws.rhClient(w.val, w.at)
		}
		if cl == nil || !cl.known || cl.newCall == nil || out != nil && out.newCall != cl.newCall {
			return unknown // two clients, or one not in view
		}
		out = cl
	}
	out.held = true
	return out
}
