package libmodel

import (
	"go/ast"
	"go/token"
	"go/types"
	"net/textproto"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
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
	h := &headerScan{s: s, vs: vs, keys: s.keyHeaders(), state: headersNoKey}
	ast.Inspect(s.body, func(n ast.Node) bool {
		if n == nil || n.Pos() >= at {
			return n == nil || n.Pos() < at
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			h.call(n)
		case *ast.AssignStmt:
			h.assign(n)
		}
		return true
	})
	return h.state
}

// headerScan reads the headers set on the request variables vs.
type headerScan struct {
	s     *scope
	vs    []*types.Var
	keys  []string
	state headerState
}

// in reports whether e is rooted at one of the request variables.
func (h *headerScan) in(e ast.Expr) bool {
	v := h.s.rootVar(e)
	for _, w := range h.vs {
		if v == w {
			return true
		}
	}
	return false
}

// name reads a header name set: a key header decides, and a name we
// cannot read makes the state unknown unless a key is already set.
func (h *headerScan) name(e ast.Expr) {
	k, ok := h.s.stringConst(e)
	if !ok {
		if h.state != headersKey {
			h.state = headersUnknown
		}
		return
	}
	if oneOf(textproto.CanonicalMIMEHeaderKey(k), h.keys) {
		h.state = headersKey
	}
}

// call reads req.Header.Set/Add(k, v), and a request handed to a function
// we do not model, which may set the key there.
func (h *headerScan) call(n *ast.CallExpr) {
	s := h.s
	sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr)
	if ok && isHTTPHeader(s.env.Info.TypeOf(sel.X)) && h.in(sel.X) {
		switch sel.Sel.Name {
		case "Set", "Add":
			if len(n.Args) == 2 {
				h.name(n.Args[0])
			}
		}
		return
	}
	fn := s.callee(n)
	for _, a := range n.Args {
		if v := s.localVar(stripAddr(a)); v != nil && h.in(a) {
			if fn == nil || fn.Pkg() == nil || !isLibraryPath(fn.Pkg().Path()) && fn.Pkg().Path() != "net/http" {
				h.state = headersUnknown
			}
		}
	}
}

// assign reads req.Header[k] = v and req.Header = m.
func (h *headerScan) assign(n *ast.AssignStmt) {
	for _, l := range n.Lhs {
		if ix, ok := ast.Unparen(l).(*ast.IndexExpr); ok && isHTTPHeader(h.s.env.Info.TypeOf(ix.X)) && h.in(ix.X) {
			h.name(ix.Index)
		}
		if sel, ok := ast.Unparen(l).(*ast.SelectorExpr); ok && sel.Sel.Name == "Header" && h.in(sel.X) {
			h.state = headersUnknown // a whole header map assigned
		}
	}
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

// keyValue returns the edits that make a fresh key available as an
// expression: crypto/rand.Text (Go 1.24), importing crypto/rand when the
// file does not yet and the name rand is free. ok is false when the file's
// Go version is older or unknown, or the import cannot be added cleanly.
func (s *scope) keyValue() (expr string, edits []analysis.TextEdit, ok bool) {
	v := s.env.Info.FileVersions[s.file]
	if v == "" || !goVersionAtLeast(v, 24) {
		return "", nil, false
	}
	if q := s.qualifier("crypto/rand"); q != "" {
		return q + ".Text()", nil, true
	}
	// The name rand must be free: no other import named rand, no
	// package-level object rand.
	for _, imp := range s.file.Imports {
		name := ""
		if imp.Name != nil {
			name = imp.Name.Name
		} else if pn, ok := s.env.Info.Implicits[imp].(*types.PkgName); ok {
			name = pn.Name()
		}
		if name == "rand" {
			return "", nil, false
		}
	}
	if s.env.Pkg != nil && s.env.Pkg.Scope().Lookup("rand") != nil {
		return "", nil, false
	}
	for _, d := range s.file.Decls {
		gd, ok := d.(*ast.GenDecl)
		if ok && gd.Tok == token.IMPORT && gd.Lparen.IsValid() {
			return "rand.Text()", []analysis.TextEdit{insert(gd.Lparen+1, "\n\t\"crypto/rand\"")}, true
		}
	}
	return "", nil, false
}

// goVersionAtLeast reports whether a "go1.N[.P]" version is at least go1.minor.
func goVersionAtLeast(v string, minor int) bool {
	v, ok := strings.CutPrefix(v, "go1.")
	if !ok {
		return false
	}
	if i := strings.IndexAny(v, ".rcbeta"); i >= 0 {
		v = v[:i]
	}
	n, err := strconv.Atoi(v)
	return err == nil && n >= minor
}

// inLoop reports whether n lies inside a for or range statement of the
// function: a key minted there would change on every iteration.
func (s *scope) inLoop(n ast.Node) bool {
	found := false
	ast.Inspect(s.body, func(m ast.Node) bool {
		switch m := m.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			if m.Pos() <= n.Pos() && n.End() <= m.End() {
				found = true
			}
		case *ast.FuncLit:
			return false
		}
		return !found
	})
	return found
}

// stmtOf returns the statement of a block that holds n directly, or nil.
func (s *scope) stmtOf(n ast.Node) ast.Stmt {
	var stmt ast.Stmt
	ast.Inspect(s.body, func(m ast.Node) bool {
		if b, ok := m.(*ast.BlockStmt); ok {
			for _, st := range b.List {
				if st.Pos() <= n.Pos() && n.End() <= st.End() {
					stmt = st
				}
			}
		}
		if _, ok := m.(*ast.FuncLit); ok {
			return false
		}
		return true
	})
	return stmt
}
