package libmodel

import (
	"go/ast"
	"go/types"
	"net/textproto"
	"strings"

	"github.com/retrylint/retrylint/analyzers/internal/astq"
)

// A resty client held in a struct field (an SDK's c.resty) is switched to
// retrying where the package configures the field, often in a function of
// its own (configureRetries: c.resty.SetRetryCount(1000)), and requests
// come from a wrapper (func (c *Client) R(ctx) *resty.Request { return
// c.resty.R().SetContext(ctx)… }). A write sent through such a request is
// re-sent by the client unless a retry condition of the package tells
// writes apart.
//
// resty v2 retries when one of its conditions says so (or, with none, on
// an error); conditions added from outside the package can only add
// retries, never take one away. So the package's own conditions decide,
// and a condition can spare a POST only by reading the request's method:
// when no function of the package that is handed a response reads a
// method, writes are re-sent like any other request.

// restyHeldSend judges a send whose request comes from a wrapper of this
// package over a held resty v2 client. It returns nil when the send is
// not of that shape, or when anything it needs is out of view.
func restyHeldSend(s *scope, call *ast.CallExpr, method string, c *cfg) *Site {
	wrap, chain := s.restyWrapper(c.calls)
	if wrap == nil || !nonIdempotent(method) {
		return nil
	}
	field := s.heldField(chainRoot(chain))
	if field == nil || !astq.IsNamed(field.Type(), restyV2, "Client") || !s.restyFieldRetries(field) || s.readsRequestMethod() {
		return nil
	}
	// The request's own headers: the wrapper's chain, the caller's, and
	// what functions the request is handed to set on it.
	state := headersNoKey
	calls := append(append([]*ast.CallExpr(nil), chain...), c.calls...)
	if len(c.lits) > 0 || len(c.fields) > 0 {
		return nil
	}
	for _, cc := range calls {
		state = restyHeaderCall(s, cc, state)
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if v := s.localVar(sel.X); v != nil {
			state = max(state, s.requestHandedOn(v, call))
		}
	}
	if state != headersNoKey {
		return nil
	}
	b := newSite(call)
	b.add(finding(CatNoKey, call, method+" request re-sent by the resty client held in "+field.Name()+
		" (retries switched on where the package configures it) without an idempotency key header").
		related(wrap, "request made here"))
	return b.site
}

// restyWrapper finds, among the calls building a request, a call of a
// function of this package that returns a resty v2 request made from a
// field: its single return is a chain c.F.R()…. It returns the call and
// the chain's calls (the innermost first).
func (s *scope) restyWrapper(calls []*ast.CallExpr) (*ast.CallExpr, []*ast.CallExpr) {
	for _, cc := range calls {
		fn := s.callee(cc)
		if fn == nil || fn.Pkg() == nil || fn.Pkg() != s.env.Pkg {
			continue
		}
		sig := fn.Type().(*types.Signature)
		if sig.Results().Len() != 1 || !astq.IsNamed(sig.Results().At(0).Type(), restyV2, "Request") {
			continue
		}
		body, _ := s.declBody(fn).(*ast.BlockStmt)
		if body == nil || len(body.List) != 1 {
			continue
		}
		ret, ok := body.List[0].(*ast.ReturnStmt)
		if !ok || len(ret.Results) != 1 {
			continue
		}
		chain := callChain(ret.Results[0])
		if len(chain) == 0 {
			continue
		}
		if first := s.callee(chain[0]); !astq.IsFunc(first, restyV2+".Client.R") && !astq.IsFunc(first, restyV2+".Client.NewRequest") {
			continue
		}
		return cc, chain
	}
	return nil, nil
}

// callChain returns the calls of a method chain x.A().B().C(), the
// innermost first, or nil when e is not one.
func callChain(e ast.Expr) []*ast.CallExpr {
	var out []*ast.CallExpr
	for {
		c, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok {
			break
		}
		sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		out = append([]*ast.CallExpr{c}, out...)
		e = sel.X
	}
	return out
}

// chainRoot returns the receiver of the innermost call of a chain.
func chainRoot(chain []*ast.CallExpr) ast.Expr {
	if len(chain) == 0 {
		return nil
	}
	return ast.Unparen(chain[0].Fun).(*ast.SelectorExpr).X
}

// restyFieldRetries reports whether the package switches on the retries
// of the client field f: a constant positive SetRetryCount on it, and no
// other count but a setter's forwarded parameter (the caller's choice,
// judged where it is made).
func (s *scope) restyFieldRetries(f *types.Var) bool {
	on := false
	for _, fc := range s.fieldChains(f) {
		for _, cc := range fc.calls {
			if !astq.IsFunc(s.callee(cc), restyV2+".Client.SetRetryCount") || len(cc.Args) != 1 {
				continue
			}
			if n, ok := s.intConst(cc.Args[0]); ok {
				on = on || n > 0
				continue
			}
			if !isParamOf(s.env.Info, cc.Args[0], fc.fn) {
				return false // a count from configuration: unknown
			}
		}
	}
	return on
}

// fieldChain is one chain of calls on a field (c.resty.A().B()) and the
// function it is in.
type fieldChain struct {
	calls []*ast.CallExpr
	fn    *ast.FuncDecl
}

// fieldChains returns the call chains of the package's non-test files
// whose receiver is the field f.
func (s *scope) fieldChains(f *types.Var) []fieldChain {
	var out []fieldChain
	for _, file := range s.files() {
		if s.env.Fset != nil && strings.HasSuffix(s.env.Fset.File(file.Pos()).Name(), "_test.go") {
			continue
		}
		for _, d := range file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			seen := map[*ast.CallExpr]bool{}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				c, ok := n.(*ast.CallExpr)
				if !ok || seen[c] {
					return true
				}
				chain := callChain(c)
				for _, cc := range chain {
					seen[cc] = true
				}
				if s.heldField(chainRoot(chain)) == f {
					out = append(out, fieldChain{calls: chain, fn: fd})
				}
				return true
			})
		}
	}
	return out
}

// isParamOf reports whether e names a parameter of fn.
func isParamOf(info *types.Info, e ast.Expr, fn *ast.FuncDecl) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok || fn == nil || fn.Type.Params == nil {
		return false
	}
	for _, fl := range fn.Type.Params.List {
		for _, n := range fl.Names {
			if info.Defs[n] != nil && info.Defs[n] == info.Uses[id] {
				return true
			}
		}
	}
	return false
}

// readsRequestMethod reports whether a function of the package that is
// handed a resty response or request reads a request's method: a retry
// condition, or a helper it asks (isWrite(r.Request)), that may spare
// writes. Hooks that read it for logging silence the check too: unknown.
func (s *scope) readsRequestMethod() bool {
	if s.env.readsMethod != nil {
		return *s.env.readsMethod
	}
	found := false
	for _, file := range s.files() {
		ast.Inspect(file, func(n ast.Node) bool {
			ft, body := funcParts(n)
			if body != nil && s.takesResty(ft) && readsMethod(s.env.Info, body) {
				found = true
			}
			return !found
		})
	}
	s.env.readsMethod = &found
	return found
}

func (s *scope) takesResty(ft *ast.FuncType) bool {
	if ft.Params == nil {
		return false
	}
	for _, fl := range ft.Params.List {
		if t := s.env.Info.TypeOf(fl.Type); astq.IsNamed(t, restyV2, "Response") || astq.IsNamed(t, restyV2, "Request") {
			return true
		}
	}
	return false
}

// readsMethod reports whether body reads the Method field of a resty or
// net/http request.
func readsMethod(info *types.Info, body ast.Node) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "Method" {
			if v, ok := info.Uses[sel.Sel].(*types.Var); ok && v.IsField() && v.Pkg() != nil &&
				(v.Pkg().Path() == restyV2 || v.Pkg().Path() == "net/http") {
				found = true
			}
		}
		return !found
	})
	return found
}

// restyHeaderCall folds one call of a request chain into the header
// state: a key header set, or a header whose name cannot be read.
func restyHeaderCall(s *scope, cc *ast.CallExpr, state headerState) headerState {
	fn := s.callee(cc)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != restyV2 {
		return state
	}
	switch fn.Name() {
	case "SetHeader", "SetHeaderVerbatim":
		if len(cc.Args) != 2 {
			return headersUnknown
		}
		k, ok := s.stringConst(cc.Args[0])
		if !ok {
			return headersUnknown
		}
		if oneOf(textproto.CanonicalMIMEHeaderKey(k), s.keyHeaders()) {
			return max(state, headersKey)
		}
	case "SetHeaders", "SetHeaderMultiValues":
		return headersUnknown
	}
	return state
}

// requestHandedOn judges what the functions a request variable is handed
// to (other than resty's own methods) set on it before the send: a
// function of the package that sets only constant, non-key headers on
// its parameter leaves no key; anything else may set one.
func (s *scope) requestHandedOn(v *types.Var, send *ast.CallExpr) headerState {
	state := headersNoKey
	ast.Inspect(s.body, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok || c.Pos() >= send.Pos() {
			return true
		}
		for i, a := range c.Args {
			if s.localVar(a) != v {
				continue
			}
			state = max(state, s.paramHeaders(s.callee(c), i))
		}
		return true
	})
	return state
}

// paramHeaders is the header state a function of the package leaves on
// its parameter i, a resty request.
func (s *scope) paramHeaders(fn *types.Func, i int) headerState {
	decl := s.declOf(fn)
	if decl == nil || decl.Body == nil {
		return headersUnknown
	}
	var param types.Object
	k := 0
	for _, fl := range decl.Type.Params.List {
		for _, n := range fl.Names {
			if k == i {
				param = s.env.Info.Defs[n]
			}
			k++
		}
	}
	if param == nil {
		return headersUnknown
	}
	state := headersNoKey
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		for _, a := range c.Args {
			if id, ok := ast.Unparen(a).(*ast.Ident); ok && s.env.Info.Uses[id] == param {
				state = headersUnknown // handed on again
			}
		}
		if sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok {
			if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok && s.env.Info.Uses[id] == param {
				state = restyHeaderCall(s, c, state)
			}
		}
		return true
	})
	return state
}
