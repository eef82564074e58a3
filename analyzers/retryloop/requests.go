package retryloop

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"net/textproto"
	"slices"
	"strings"

	"github.com/retrylint/retrylint/analyzers/internal/astq"
)

// clientTimeout reports whether the http.Client of a method call has a timeout.
func (w *walker) clientTimeout(call *ast.CallExpr, fs *fnScope) Tri {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return Unknown
	}
	recv := ast.Unparen(sel.X)
	if rs, ok := recv.(*ast.SelectorExpr); ok {
		if v, ok := w.info.Uses[rs.Sel].(*types.Var); ok && v.Pkg() != nil && v.Pkg().Path() == "net/http" && v.Name() == "DefaultClient" {
			return No
		}
		return Unknown
	}
	id, ok := recv.(*ast.Ident)
	if !ok {
		return Unknown
	}
	v, ok := w.info.Uses[id].(*types.Var)
	if !ok {
		return Unknown
	}
	lit := w.soleComposite(v, fs)
	if lit == nil || !astq.IsNamed(w.info.TypeOf(lit), "net/http", "Client") {
		return Unknown
	}
	for _, el := range lit.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Timeout" {
				return Yes
			}
			if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Transport" {
				return Unknown // a transport may bound its dials and headers
			}
		}
	}
	return No
}

// soleComposite returns the composite literal a variable is given by its
// only assignment (in the package's files for a package-level variable,
// in the function otherwise), or nil: assigned more than once, from
// something else, or with its address taken, it cannot be followed.
func (w *walker) soleComposite(v *types.Var, fs *fnScope) *ast.CompositeLit {
	var lit *ast.CompositeLit
	count := 0
	find := func(root ast.Node) {
		ast.Inspect(root, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for i, l := range n.Lhs {
					if w.isVar(l, v) && len(n.Rhs) == len(n.Lhs) {
						count++
						lit = compositeOf(n.Rhs[i])
					}
				}
			case *ast.ValueSpec:
				for i, name := range n.Names {
					if w.info.Defs[name] == v && i < len(n.Values) {
						count++
						lit = compositeOf(n.Values[i])
					}
				}
			case *ast.UnaryExpr:
				if n.Op == token.AND && w.isVar(n.X, v) {
					count += 2 // address taken: cannot follow
				}
			}
			return true
		})
	}
	if v.Parent() == w.pass.Pkg.Scope() {
		for _, f := range w.pass.Files {
			find(f)
		}
	} else {
		find(fs.body)
	}
	if count != 1 {
		return nil
	}
	return lit
}

func compositeOf(e ast.Expr) *ast.CompositeLit {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	lit, _ := e.(*ast.CompositeLit)
	return lit
}

// requestBuild finds the http.NewRequest* call that built a request variable.
func (w *walker) requestBuild(e ast.Expr, fs *fnScope) *ast.CallExpr {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := w.info.Uses[id].(*types.Var)
	if !ok {
		return nil
	}
	var build *ast.CallExpr
	same := true
	ast.Inspect(fs.body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok {
			return true
		}
		for i, l := range as.Lhs {
			if !w.isVar(l, v) {
				continue
			}
			var r ast.Expr
			if len(as.Rhs) == 1 {
				r = as.Rhs[0]
			} else if i < len(as.Rhs) {
				r = as.Rhs[i]
			}
			c, isCall := ast.Unparen(r).(*ast.CallExpr)
			if !isCall {
				same = false // req = other: not built here
				continue
			}
			fn := astq.Callee(w.info, c)
			isBuild := astq.IsFunc(fn, "net/http.NewRequest", "net/http.NewRequestWithContext")
			if f := w.factOf(fn); f != nil && f.Build != nil {
				isBuild = true
			}
			switch {
			case !isBuild:
				same = false
			case build == nil:
				build = c
			case astq.Callee(w.info, build) != fn || !w.sameMethodArg(build, c):
				same = false
			}
		}
		return true
	})
	// Built once, or again the same way (a second attempt rebuilds it
	// with the same builder: req, err = c.newRequest(url, body)).
	if build == nil || !same {
		return nil
	}
	return build
}

// requestCopyOf unwraps req.WithContext(ctx) and req.Clone(ctx): a copy
// with the same method and headers.
func (w *walker) requestCopyOf(e ast.Expr) ast.Expr {
	for {
		c, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok || !astq.IsFunc(astq.Callee(w.info, c), "net/http.Request.WithContext", "net/http.Request.Clone") {
			return e
		}
		sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
		if !ok {
			return e
		}
		e = sel.X
	}
}

// sameMethodArg reports whether two request builds name the same method
// (both by the same constant, or both through a builder without one).
func (w *walker) sameMethodArg(a, b *ast.CallExpr) bool {
	ma, mb := w.methodArg(a), w.methodArg(b)
	if ma == nil || mb == nil {
		return ma == nil && mb == nil
	}
	va, vb := w.info.Types[ma], w.info.Types[mb]
	return va.Value != nil && vb.Value != nil && constant.Compare(va.Value, token.EQL, vb.Value)
}

// describeRequests records the HTTP requests the site sends.
func (w *walker) describeRequests(site *Site, fs *fnScope, node ast.Node) {
	ast.Inspect(node, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fn := astq.Callee(w.info, call)
		switch {
		case astq.IsFunc(fn, "net/http.Post", "net/http.PostForm", "net/http.Client.Post", "net/http.Client.PostForm"):
			r := &Request{Pos: call.Pos(), Send: call, Method: "POST", Shortcut: true}
			site.Requests = append(site.Requests, r)
		case astq.IsFunc(fn, "net/http.Client.Do", "net/http.Transport.RoundTrip", "net/http.RoundTripper.RoundTrip") && len(call.Args) == 1:
			r := &Request{Pos: call.Pos(), Send: call}
			w.resolveRequest(r, call.Args[0], fs, node)
			site.Requests = append(site.Requests, r)
		case fn != nil && w.requestArg(call) != nil && w.returnsResponse(call) && w.isRemoteCall(call) && !w.writes(fn):
			// A sender of the code base or a library handed the request
			// (transport.Do(req), c.doNoRetry(ctx, req)): it sends what
			// it is given, with the headers it sets itself.
			r := &Request{Pos: call.Pos(), Send: call, Via: fn}
			w.resolveRequest(r, w.requestArg(call), fs, node)
			for _, h := range w.senderHeaders(fn) {
				if !slices.Contains(r.Headers, h) {
					r.Headers = append(r.Headers, h)
				}
			}
			site.Requests = append(site.Requests, r)
		default:
			if f := w.factOf(fn); f != nil {
				for _, wr := range f.Writes {
					site.Requests = append(site.Requests, &Request{
						Pos: call.Pos(), Send: call, Method: wr.Method, Headers: wr.Headers,
						KeyInLoop: wr.KeyMinted, Via: fn, KeyPos: call.Pos(),
					})
				}
			}
		}
		return true
	})
}

// requestArg returns the one *http.Request argument of a call, or nil
// when it has none or several.
func (w *walker) requestArg(call *ast.CallExpr) ast.Expr {
	var req ast.Expr
	for _, a := range call.Args {
		if astq.IsNamed(w.info.TypeOf(a), "net/http", "Request") {
			if req != nil {
				return nil
			}
			req = a
		}
	}
	return req
}

// senderHeaders returns the constant header names a sender of this
// package sets on a request it is handed (req.Header.Set("User-Agent",
// …)): a sender that sets the key keys every request it sends.
func (w *walker) senderHeaders(fn *types.Func) []string {
	decl := w.decls[fn]
	if decl == nil || decl.Body == nil {
		return nil
	}
	var hs []string
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		var key ast.Expr
		switch n := n.(type) {
		case *ast.CallExpr:
			if astq.IsFunc(astq.Callee(w.info, n), "net/http.Header.Set", "net/http.Header.Add") && len(n.Args) == 2 {
				key = n.Args[0]
			}
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if ix, ok := l.(*ast.IndexExpr); ok && astq.IsNamed(w.info.TypeOf(ix.X), "net/http", "Header") {
					key = ix.Index
				}
			}
		}
		if h, ok := w.headerName(key); ok && !slices.Contains(hs, h) {
			hs = append(hs, h)
		}
		return true
	})
	return hs
}

// headerName is the canonical header name a constant key names.
func (w *walker) headerName(key ast.Expr) (string, bool) {
	if key == nil {
		return "", false
	}
	tv := w.info.Types[key]
	if tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	return textproto.CanonicalMIMEHeaderKey(constant.StringVal(tv.Value)), true
}

// writes reports whether fn is known to send non-idempotent requests of
// its own.
func (w *walker) writes(fn *types.Func) bool {
	f := w.factOf(fn)
	return f != nil && len(f.Writes) > 0
}

// resolveRequest finds a request's method and headers.
func (w *walker) resolveRequest(r *Request, e ast.Expr, fs *fnScope, loop ast.Node) {
	e = w.requestCopyOf(e)
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return
	}
	v, ok := w.info.Uses[id].(*types.Var)
	if !ok {
		return
	}
	r.Build = w.requestBuild(e, fs)
	if r.Build != nil {
		b := w.factOf(astq.Callee(w.info, r.Build))
		if m := w.methodArg(r.Build); m != nil {
			r.Method = w.constString(m, fs)
		} else if b != nil && b.Build != nil {
			r.Method = b.Build.Method
		}
		// A request builder of the code base: what it sets is set.
		if b != nil && b.Build != nil {
			for _, h := range b.Build.Headers {
				if !slices.Contains(r.Headers, h) {
					r.Headers = append(r.Headers, h)
				}
			}
			if b.Build.KeyMinted && loop.Pos() <= r.Build.Pos() && r.Build.End() <= loop.End() {
				r.KeyInLoop, r.KeyPos = true, r.Build.Pos()
			}
		}
	}
	// Headers set on the request anywhere in the function.
	ast.Inspect(fs.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			sel, ok := n.Fun.(*ast.SelectorExpr)
			if !ok || (sel.Sel.Name != "Set" && sel.Sel.Name != "Add") || len(n.Args) != 2 {
				return true
			}
			if !astq.IsFunc(astq.Callee(w.info, n), "net/http.Header.Set", "net/http.Header.Add") {
				return true
			}
			if !w.headerOf(sel.X, v) {
				return true
			}
			w.addHeader(r, n.Args[0], n.Args[1], fs, loop)
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				ix, ok := l.(*ast.IndexExpr)
				if !ok || !w.headerOf(ix.X, v) || i >= len(n.Rhs) {
					continue
				}
				w.addHeader(r, ix.Index, n.Rhs[i], fs, loop)
			}
		}
		return true
	})
}

// headerOf reports whether e is req.Header for the request variable v.
func (w *walker) headerOf(e ast.Expr, v *types.Var) bool {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Header" {
		return false
	}
	return w.isVar(sel.X, v)
}

func (w *walker) addHeader(r *Request, key, val ast.Expr, fs *fnScope, loop ast.Node) {
	name, ok := w.headerName(key)
	if !ok {
		return
	}
	if !slices.Contains(r.Headers, name) {
		r.Headers = append(r.Headers, name)
	}
	if !isKeyHeader(name, w.opts.KeyHeaders) {
		return
	}
	r.KeyVal = val
	r.KeyPos = val.Pos()
	if w.mintedIn(val, fs, loop) {
		r.KeyInLoop = true
	}
}

// mintedIn reports whether a header value is computed afresh inside the
// loop by a call (a new UUID or random value on every attempt).
func (w *walker) mintedIn(val ast.Expr, fs *fnScope, loop ast.Node) bool {
	inLoop := func(n ast.Node) bool { return loop.Pos() <= n.Pos() && n.End() <= loop.End() }
	hasCall := func(e ast.Expr) bool {
		found := false
		ast.Inspect(e, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				if tv, ok := w.info.Types[c.Fun]; !(ok && tv.IsType()) {
					fn := astq.Callee(w.info, c)
					if fn == nil || !astq.IsFunc(fn, "strconv.Itoa", "fmt.Sprint", "fmt.Sprintf") || containsRandCall(w.info, c) {
						found = true
					}
				}
			}
			return !found
		})
		return found
	}
	val = ast.Unparen(val)
	if inLoop(val) && hasCall(val) {
		// A call on a value made outside the loop (key.String()) is not a mint.
		if c, ok := val.(*ast.CallExpr); ok {
			if sel, ok := c.Fun.(*ast.SelectorExpr); ok && len(c.Args) == 0 {
				if id, ok := sel.X.(*ast.Ident); ok {
					if o, ok := w.info.Uses[id].(*types.Var); ok && !inLoop(&ast.Ident{NamePos: o.Pos()}) {
						return false
					}
				}
			}
		}
		return true
	}
	if id, ok := val.(*ast.Ident); ok {
		v, ok := w.info.Uses[id].(*types.Var)
		if !ok || !inLoop(&ast.Ident{NamePos: v.Pos()}) {
			return false
		}
		minted := false
		ast.Inspect(fs.body, func(n ast.Node) bool {
			if as, ok := n.(*ast.AssignStmt); ok {
				for i, l := range as.Lhs {
					if w.isVar(l, v) && inLoop(as) {
						r := as.Rhs[0]
						if i < len(as.Rhs) {
							r = as.Rhs[i]
						}
						if hasCall(r) {
							minted = true
						}
					}
				}
			}
			return true
		})
		return minted
	}
	return false
}

func containsRandCall(info *types.Info, e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && isRandFunc(astq.Callee(info, c)) {
			found = true
		}
		return !found
	})
	return found
}

// constString resolves a string expression to its constant value: a
// constant, or a local variable assigned a constant once (method :=
// http.MethodPost). It returns "" when it cannot tell.
func (w *walker) constString(e ast.Expr, fs *fnScope) string {
	if tv := w.info.Types[e]; tv.Value != nil && tv.Value.Kind() == constant.String {
		return strings.ToUpper(constant.StringVal(tv.Value))
	}
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return ""
	}
	v, ok := w.info.Uses[id].(*types.Var)
	if !ok || w.isParam(v, fs.typ) {
		return ""
	}
	if r := w.soleValue(v, fs.body); r != nil {
		if tv := w.info.Types[r]; tv.Value != nil && tv.Value.Kind() == constant.String {
			return strings.ToUpper(constant.StringVal(tv.Value))
		}
	}
	return ""
}
