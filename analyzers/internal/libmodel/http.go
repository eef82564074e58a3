package libmodel

import (
	"go/ast"
	"go/token"
	"go/types"
	"net/textproto"
	"strings"
)

// keyHeaders returns the canonical idempotency key header names.
func (s *scope) keyHeaders() []string {
	if len(s.env.KeyHeaders) > 0 {
		out := make([]string, len(s.env.KeyHeaders))
		for i, h := range s.env.KeyHeaders {
			out[i] = textproto.CanonicalMIMEHeaderKey(h)
		}
		return out
	}
	return DefaultKeyHeaders
}

// headerState says what is known of the headers set on a request.
type headerState int

const (
	headersNoKey   headerState = iota // every header set is seen, none is a key
	headersKey                        // a key header is set
	headersUnknown                    // a header with a name we cannot read, or the request escapes
)

// httpHeaders judges the headers set on the variables vs of an http.Request
// (or a type embedding one) before position at: req.Header.Set/Add(k, v),
// req.Header[k] = v. A request passed to a function we do not model may get
// its key there: unknown.
func (s *scope) httpHeaders(vs []*types.Var, at token.Pos) headerState {
	if len(vs) == 0 {
		return headersUnknown
	}
	in := func(e ast.Expr) bool {
		v := s.rootVar(e)
		for _, w := range vs {
			if v == w {
				return true
			}
		}
		return false
	}
	keys := s.keyHeaders()
	state := headersNoKey
	name := func(e ast.Expr) {
		k, ok := s.stringConst(e)
		if !ok {
			if state != headersKey {
				state = headersUnknown
			}
			return
		}
		if oneOf(textproto.CanonicalMIMEHeaderKey(k), keys) {
			state = headersKey
		}
	}
	ast.Inspect(s.body, func(n ast.Node) bool {
		if n == nil || n.Pos() >= at {
			return n == nil || n.Pos() < at
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr)
			if ok && isHTTPHeader(s.env.Info.TypeOf(sel.X)) && in(sel.X) {
				switch sel.Sel.Name {
				case "Set", "Add":
					if len(n.Args) == 2 {
						name(n.Args[0])
					}
				}
				return true
			}
			// The request passed to a function: the key may be set there.
			fn := s.callee(n)
			for _, a := range n.Args {
				if v := s.localVar(stripAddr(a)); v != nil && in(a) {
					if fn == nil || fn.Pkg() == nil || !isLibraryPath(fn.Pkg().Path()) && fn.Pkg().Path() != "net/http" {
						state = headersUnknown
					}
				}
			}
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if ix, ok := ast.Unparen(l).(*ast.IndexExpr); ok && isHTTPHeader(s.env.Info.TypeOf(ix.X)) && in(ix.X) {
					name(ix.Index)
				}
				if sel, ok := ast.Unparen(l).(*ast.SelectorExpr); ok && sel.Sel.Name == "Header" && in(sel.X) {
					state = headersUnknown // a whole header map assigned
				}
			}
		}
		return true
	})
	return state
}

func isHTTPHeader(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "net/http" && n.Obj().Name() == "Header"
}

// method returns the upper-case HTTP method of a constant expression.
func (s *scope) method(e ast.Expr) string {
	m, ok := s.stringConst(e)
	if !ok {
		return ""
	}
	return strings.ToUpper(m)
}

func nonIdempotent(method string) bool {
	return method == "POST" || method == "PATCH"
}
