package inventory

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/retrylint/retrylint/analyzers/retryloop"
)

// operation writes the retried operation: the library's operation
// argument, else the call reaching the network, else the first retried
// call.
func operation(s *retryloop.Site) string {
	switch {
	case s.LibOp != nil:
		if _, lit := ast.Unparen(s.LibOp).(*ast.FuncLit); !lit {
			return short(s.LibOp)
		}
	case s.Remote != nil:
		return short(s.Remote)
	}
	if len(s.Ops) > 0 {
		return short(s.Ops[0])
	}
	if c, ok := s.Node.(*ast.CallExpr); ok {
		return short(c)
	}
	return ""
}

// short writes an expression on one line, eliding function literals.
func short(e ast.Expr) string {
	s := types.ExprString(e)
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return s
}

// remote describes what the site's operation reaches: an HTTP request
// (method, host), a SQL statement, a gRPC method, or another network
// call. Matching is by the callee's package and type, never its name.
func remote(info *types.Info, s *retryloop.Site) *Remote {
	if len(s.Requests) > 0 {
		req := s.Requests[0]
		r := &Remote{Kind: "http", Method: req.Method, Call: short(req.Send)}
		if req.Send == nil && s.Remote != nil {
			r.Call = short(s.Remote)
		}
		if u := requestURL(info, req); u != nil {
			r.Host = host(info, u)
		}
		if req.Via != nil {
			r.Via = objName(req.Via)
		}
		return r
	}
	if s.Remote == nil {
		return nil
	}
	r := &Remote{Kind: "network", Call: short(s.Remote)}
	fn := funcOf(info, s.Remote.Fun)
	if fn == nil {
		return r
	}
	sig := fn.Type().(*types.Signature)
	switch {
	case pkgPath(fn) == "net/http":
		// http.Get(url), (*http.Client).Post(url, ...): the method is
		// the function's; Do(req) with a request the model did not see
		// built has none.
		r.Kind = "http"
		if recv := sig.Recv(); recv == nil || isNamed(recv.Type(), "net/http", "Client") {
			r.Method = shortcutMethods[fn.Name()]
		}
		if r.Method != "" && len(s.Remote.Args) > 0 && isString(info, s.Remote.Args[0]) {
			r.Host = host(info, s.Remote.Args[0])
		}
		return r
	case pkgPath(fn) == "database/sql":
		r.Kind = "sql"
		for _, a := range s.Remote.Args {
			if t := info.TypeOf(a); t != nil && types.Identical(t.Underlying(), types.Typ[types.String]) {
				r.Query = stringOrExpr(info, a)
				break
			}
		}
	case pkgPath(fn) == "google.golang.org/grpc" && fn.Name() == "Invoke" && len(s.Remote.Args) > 1:
		r.Kind, r.Method = "grpc", stringOrExpr(info, s.Remote.Args[1])
	case grpcStub(sig):
		r.Kind = "grpc"
		r.Method = fn.Name()
		if recv := sig.Recv(); recv != nil {
			if n, ok := types.Unalias(derefType(recv.Type())).(*types.Named); ok {
				r.Method = strings.TrimSuffix(n.Obj().Name(), "Client") + "/" + fn.Name()
			}
		}
	}
	if via := objName(fn); r.Kind == "network" {
		r.Via = via
	}
	return r
}

// shortcutMethods are the methods of net/http's send shortcuts.
var shortcutMethods = map[string]string{"Get": "GET", "Head": "HEAD", "Post": "POST", "PostForm": "POST"}

// grpcStub reports whether sig is a generated gRPC client method: its last
// parameter is ...grpc.CallOption.
func grpcStub(sig *types.Signature) bool {
	if !sig.Variadic() {
		return false
	}
	last := sig.Params().At(sig.Params().Len() - 1).Type().(*types.Slice).Elem()
	return isNamed(last, "google.golang.org/grpc", "CallOption")
}

// requestURL returns the URL argument of the request's construction or
// of a shortcut send (http.Get(url), client.Post(url, ...)).
func requestURL(info *types.Info, req *retryloop.Request) ast.Expr {
	if c := req.Build; c != nil {
		for i, a := range c.Args { // NewRequest(method, url, body), NewRequestWithContext(ctx, method, url, body)
			if i > 0 && isString(info, c.Args[i-1]) && isString(info, a) {
				return a
			}
		}
	}
	if c := req.Send; c != nil && len(c.Args) > 0 && isString(info, c.Args[0]) {
		return c.Args[0]
	}
	return nil
}

func isString(info *types.Info, e ast.Expr) bool {
	t := info.TypeOf(e)
	return t != nil && types.Identical(t.Underlying(), types.Typ[types.String])
}

// host returns the host of a literal URL, or the URL expression.
func host(info *types.Info, e ast.Expr) string {
	if tv := info.Types[e]; tv.Value != nil && tv.Value.Kind() == constant.String {
		if u, err := url.Parse(constant.StringVal(tv.Value)); err == nil && u.Host != "" {
			return u.Host
		}
	}
	return short(e)
}

func stringOrExpr(info *types.Info, e ast.Expr) string {
	if tv := info.Types[e]; tv.Value != nil && tv.Value.Kind() == constant.String {
		return constant.StringVal(tv.Value)
	}
	return short(e)
}

// delay describes the waits between attempts: the kinds seen, the first
// wait's expression, its first value and cap when constants show them.
func delay(info *types.Info, s *retryloop.Site) Delay {
	d := Delay{Growth: s.Delay().String()}
	var kinds []string
	for _, w := range s.Waits {
		if k := w.Kind.String(); !slices.Contains(kinds, k) {
			kinds = append(kinds, k)
		}
		d.Cancellable = d.Cancellable || w.Cancellable
	}
	d.Kind = strings.Join(kinds, "+")
	if len(s.Waits) == 0 && s.Shape == retryloop.ShapeLibrary {
		// The library waits, as its settings say; the model reads the
		// attempts from them, not the delay.
		d.Kind, d.Growth = "library", retryloop.GrowthUnknown.String()
	}
	if len(s.Waits) == 0 || s.Waits[0].Delay == nil {
		return d
	}
	e := s.Waits[0].Delay
	d.Expr = short(e)
	d.Base = duration(info, e)
	if v := varOf(info, e); v != nil && d.Base == "" {
		d.Base = duration(info, initOf(info, s.File, v))
	}
	d.Cap = capOf(info, s, e)
	return d
}

// duration formats a constant time.Duration expression ("100ms"), or "".
func duration(info *types.Info, e ast.Expr) string {
	if e == nil {
		return ""
	}
	tv := info.Types[e]
	if tv.Value == nil {
		return ""
	}
	n, ok := constant.Int64Val(constant.ToInt(tv.Value))
	if !ok {
		return ""
	}
	if isDuration(tv.Type) {
		return time.Duration(n).String()
	}
	return strconv.FormatInt(n, 10)
}

func isDuration(t types.Type) bool { return isNamed(t, "time", "Duration") }

// isNamed reports whether t (or what it points to) is the named type
// path.name.
func isNamed(t types.Type, path, name string) bool {
	n, ok := types.Unalias(derefType(t)).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == path && n.Obj().Name() == name
}

// varOf returns the local variable an expression names, or nil.
func varOf(info *types.Info, e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := info.Uses[id].(*types.Var)
	if v == nil || v.IsField() || v.Parent() == nil || v.Parent() == v.Pkg().Scope() {
		return nil
	}
	return v
}

// initOf returns the expression a local variable is declared with.
func initOf(info *types.Info, f *ast.File, v *types.Var) ast.Expr {
	var init ast.Expr
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE && len(n.Lhs) == len(n.Rhs) {
				for i, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok && info.Defs[id] == v {
						init = n.Rhs[i]
					}
				}
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if info.Defs[id] == v && i < len(n.Values) {
					init = n.Values[i]
				}
			}
		}
		return init == nil
	})
	return init
}

// capOf returns the constant that caps a delay: min(d, C) as the delay,
// or, for a delay variable, "if d > C { d = C }" or d = min(d, C) in the
// site.
func capOf(info *types.Info, s *retryloop.Site, e ast.Expr) string {
	if c := minCap(info, e); c != "" {
		return c
	}
	v := varOf(info, e)
	if v == nil {
		return ""
	}
	var found string
	ast.Inspect(s.Node, func(n ast.Node) bool {
		if found != "" {
			return false
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) == 1 && len(n.Rhs) == 1 && refersTo(info, n.Lhs[0], v) {
				found = minCap(info, n.Rhs[0])
			}
		case *ast.IfStmt:
			cond, ok := n.Cond.(*ast.BinaryExpr)
			if ok && (cond.Op == token.GTR || cond.Op == token.GEQ) && refersTo(info, cond.X, v) && len(n.Body.List) == 1 {
				if as, ok := n.Body.List[0].(*ast.AssignStmt); ok && len(as.Lhs) == 1 && refersTo(info, as.Lhs[0], v) {
					found = duration(info, cond.Y)
				}
			}
		}
		return found == ""
	})
	return found
}

// minCap returns the constant argument of a min call in e (min(d, C),
// rand.N(min(C, base<<n))), or "".
func minCap(info *types.Info, e ast.Expr) string {
	var found string
	ast.Inspect(e, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if _, lit := n.(*ast.FuncLit); lit || found != "" {
			return false
		}
		if !ok {
			return true
		}
		if b, isMin := info.Uses[calleeIdent(c.Fun)].(*types.Builtin); isMin && b.Name() == "min" {
			for _, a := range c.Args {
				if d := duration(info, a); d != "" {
					found = d
				}
			}
		}
		return true
	})
	return found
}

func calleeIdent(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}

func refersTo(info *types.Info, e ast.Expr, v *types.Var) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && info.Uses[id] == v
}

// idempotencyKey grades the key of the site's POST and PATCH requests:
// missing if any has none, per-attempt if one is minted on every
// attempt, else present; "" when the site sends none.
func idempotencyKey(s *retryloop.Site) string {
	grade := ""
	for _, r := range s.Requests {
		switch {
		case !r.NonIdempotent():
		case !r.HasKey(s.KeyHeaders()):
			return "missing"
		case r.KeyInLoop:
			grade = "per-attempt"
		case grade == "":
			grade = "present"
		}
	}
	return grade
}

// callAt returns the call of f starting at pos.
func callAt(f *ast.File, pos token.Pos) *ast.CallExpr {
	if f == nil {
		return nil
	}
	var found *ast.CallExpr
	ast.Inspect(f, func(n ast.Node) bool {
		if found != nil || n == nil || n.Pos() > pos || n.End() <= pos {
			return false
		}
		if c, ok := n.(*ast.CallExpr); ok && c.Pos() == pos {
			found = c
		}
		return found == nil
	})
	return found
}

// funcOf returns the function an expression names (a function, a method
// value or selector), or nil.
func funcOf(info *types.Info, e ast.Expr) *types.Func {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		fn, _ := info.Uses[e].(*types.Func)
		return fn
	case *ast.SelectorExpr:
		fn, _ := info.Uses[e.Sel].(*types.Func)
		return fn
	case *ast.IndexExpr: // an instantiation, f[T]
		return funcOf(info, e.X)
	case *ast.IndexListExpr:
		return funcOf(info, e.X)
	}
	return nil
}

// funcDecl returns the declaration of fn in p, or nil.
func funcDecl(p *packages.Package, fn *types.Func) *ast.FuncDecl {
	if p == nil || p.TypesInfo == nil {
		return nil
	}
	for _, f := range p.Syntax {
		if f.Pos() > fn.Pos() || fn.Pos() >= f.End() {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Pos() == fn.Pos() {
				return fd
			}
		}
	}
	return nil
}

func pkgPath(obj types.Object) string {
	if obj.Pkg() == nil {
		return ""
	}
	return obj.Pkg().Path()
}

func objName(obj types.Object) string {
	if fn, ok := obj.(*types.Func); ok {
		return retryloop.FuncName(fn)
	}
	if obj.Pkg() != nil {
		return obj.Pkg().Name() + "." + obj.Name()
	}
	return obj.Name()
}

func derefType(t types.Type) types.Type {
	if p, ok := t.(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

func posString(rel func(string) string, p token.Position) string {
	return fmt.Sprintf("%s:%d:%d", rel(p.Filename), p.Line, p.Column)
}

func itoa(n int) string { return strconv.Itoa(n) }
