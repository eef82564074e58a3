package retryloop

import (
	"go/ast"
	"go/constant"
	"go/types"
	"net/textproto"
	"slices"

	"github.com/retrylint/retrylint/analyzers/internal/astq"
)

// Requests built by one function and re-sent by a retrying client in
// another (SPEC: "a request built by one function and re-sent by
// another"). API clients write it in three parts:
//
//	req, err := s.client.NewRequest("POST", "runs", &opts) // builds a wrapper
//	err = req.Do(ctx, &run)                                // sends its field
//
//	func (r *ClientRequest) Do(ctx context.Context, v any) error {
//		resp, err := r.http.Do(r.req.WithContext(ctx)) // a retrying client
//
// The builder's fact (BuildFact.Field) says which field of its result
// holds the request and where the method comes from; the sender's fact
// (ResendFact) says that it sends that field of its receiver through a
// client that retries whatever the method. The write is judged at the
// call that builds it, where the key would be set.

const retryablehttpPath = "github.com/hashicorp/go-retryablehttp"

// ResendFact describes a method that sends the request held in a field of
// its receiver through a client that re-sends it whatever its method.
type ResendFact struct {
	Field string // the receiver's field holding the request
}

// resendFact reads a sender from the library sites of the function: a
// retryablehttp send that re-sends any method, of the request its
// receiver holds (r.req, r.req.WithContext(ctx), through a variable
// assigned once).
func (w *walker) resendFact(fs *fnScope, libSites []*Site) *ResendFact {
	fd, ok := fs.node.(*ast.FuncDecl)
	if !ok || fd.Recv == nil || len(fd.Recv.List) != 1 || len(fd.Recv.List[0].Names) != 1 {
		return nil
	}
	recv, _ := w.info.Defs[fd.Recv.List[0].Names[0]].(*types.Var)
	if recv == nil {
		return nil
	}
	for _, s := range libSites {
		call, ok := s.Node.(*ast.CallExpr)
		if !ok || !s.LibAnyMethod || len(call.Args) != 1 || !astq.IsFunc(astq.Callee(w.info, call), retryablehttpPath+".Client.Do") {
			continue
		}
		if f := w.recvField(call.Args[0], recv, fs, 0); f != "" {
			return &ResendFact{Field: f}
		}
	}
	return nil
}

// recvField returns the name of the receiver's field e is the request of,
// or "".
func (w *walker) recvField(e ast.Expr, recv *types.Var, fs *fnScope, depth int) string {
	if depth > 4 || !w.follows("recvField", e) {
		return ""
	}
	defer w.unfollows("recvField", e)
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		v, ok := w.info.Uses[x].(*types.Var)
		if !ok || v == recv {
			return ""
		}
		if r := w.soleValue(v, fs.body); r != nil {
			return w.recvField(r, recv, fs, depth+1)
		}
	case *ast.CallExpr:
		// r.req.WithContext(ctx): the same request.
		if sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok && astq.IsFunc(astq.Callee(w.info, x), retryablehttpPath+".Request.WithContext") {
			return w.recvField(sel.X, recv, fs, depth+1)
		}
	case *ast.SelectorExpr:
		if w.usedObj(x.X) == recv {
			if f, ok := w.usedObj(x).(*types.Var); ok && f.IsField() {
				return f.Name()
			}
		}
	}
	return ""
}

// wrapperBuild recognises a builder of a request wrapper: a function whose
// one pointer-to-struct result is, in every return that gives one, a
// literal of the struct whose field holds a retryablehttp request built
// there (or the result of another such builder). nil when the headers it
// sets come from somewhere it cannot see (a header parameter).
func (w *walker) wrapperBuild(fs *fnScope) *BuildFact {
	sig, ok := fs.obj.Type().(*types.Signature)
	if !ok {
		return nil
	}
	at := -1
	for i := 0; i < sig.Results().Len(); i++ {
		if p, isPtr := sig.Results().At(i).Type().(*types.Pointer); isPtr {
			if _, isStruct := p.Elem().Underlying().(*types.Struct); isStruct {
				if at >= 0 {
					return nil
				}
				at = i
			}
		}
	}
	if at < 0 || w.takesHeaders(sig) {
		return nil
	}
	var b *BuildFact
	rets, ok := w.returned(fs, sig.Results().Len(), at, true)
	for _, e := range rets {
		got := w.wrapped(e, fs)
		if got == nil || b != nil && (b.Field != got.Field || b.MethodParam != got.MethodParam || b.Method != got.Method) {
			return nil
		}
		b = got
	}
	if !ok || b == nil {
		return nil
	}
	names, known := w.headersSet(fs)
	if !known {
		return nil
	}
	b.Headers = names
	return b
}

// takesHeaders reports whether a parameter is a set of headers the
// builder may copy onto the request.
func (w *walker) takesHeaders(sig *types.Signature) bool {
	for i := 0; i < sig.Params().Len(); i++ {
		if astq.IsNamed(sig.Params().At(i).Type(), "net/http", "Header") {
			return true
		}
	}
	return false
}

// wrapped reads one returned wrapper: &T{F: req} with req built by
// retryablehttp.NewRequest[WithContext] in the function, or a call of
// another wrapper builder.
func (w *walker) wrapped(e ast.Expr, fs *fnScope) *BuildFact {
	if !w.follows("wrapped", e) {
		return nil // req = req
	}
	defer w.unfollows("wrapped", e)
	if id, ok := e.(*ast.Ident); ok {
		v, isVar := w.info.Uses[id].(*types.Var)
		if !isVar {
			return nil
		}
		if r := w.soleValue(v, fs.body); r != nil {
			return w.wrapped(ast.Unparen(r), fs)
		}
		return nil
	}
	if c, ok := e.(*ast.CallExpr); ok {
		f := w.factOf(astq.Callee(w.info, c))
		if f == nil || f.Build == nil || f.Build.Field == "" {
			return nil
		}
		return w.methodFrom(&BuildFact{Field: f.Build.Field, MethodParam: -1, Method: f.Build.Method}, c, f.Build.MethodParam, fs)
	}
	if u, ok := e.(*ast.UnaryExpr); ok {
		e = ast.Unparen(u.X)
	}
	lit, ok := e.(*ast.CompositeLit)
	if !ok {
		return nil
	}
	for _, el := range lit.Elts {
		kv, isKV := el.(*ast.KeyValueExpr)
		if !isKV {
			continue
		}
		key, isID := kv.Key.(*ast.Ident)
		if !isID {
			continue
		}
		if build := w.rhBuild(kv.Value, fs); build != nil {
			idx := 0
			if astq.IsFunc(astq.Callee(w.info, build), retryablehttpPath+".NewRequestWithContext") {
				idx = 1
			}
			return w.methodFrom(&BuildFact{Field: key.Name, MethodParam: -1}, build, idx, fs)
		}
	}
	return nil
}

// methodFrom sets where the method of b comes from: argument idx of call,
// a parameter of the builder or a constant.
func (w *walker) methodFrom(b *BuildFact, call *ast.CallExpr, idx int, fs *fnScope) *BuildFact {
	m := argAt(call, idx)
	if m == nil {
		return b
	}
	if id, isID := ast.Unparen(m).(*ast.Ident); isID {
		if p, isVar := w.info.Uses[id].(*types.Var); isVar {
			if b.MethodParam = w.paramIndex(p, fs.typ); b.MethodParam >= 0 {
				return b
			}
		}
	}
	b.Method = w.constString(m, fs)
	return b
}

// rhBuild returns the retryablehttp.NewRequest[WithContext] call that e
// is, directly or through a variable assigned once, or nil.
func (w *walker) rhBuild(e ast.Expr, fs *fnScope) *ast.CallExpr {
	for range 4 {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			v, ok := w.info.Uses[x].(*types.Var)
			if !ok {
				return nil
			}
			if e = w.soleValue(v, fs.body); e == nil {
				return w.tupleBuild(v, fs)
			}
			continue
		case *ast.CallExpr:
			if astq.IsFunc(astq.Callee(w.info, x), retryablehttpPath+".NewRequest", retryablehttpPath+".NewRequestWithContext") {
				return x
			}
		}
		return nil
	}
	return nil
}

// tupleBuild returns the build call of req, err := retryablehttp.NewRequest(...)
// when that is v's only assignment.
func (w *walker) tupleBuild(v *types.Var, fs *fnScope) *ast.CallExpr {
	var found *ast.CallExpr
	n := 0
	ast.Inspect(fs.body, func(nd ast.Node) bool {
		as, ok := nd.(*ast.AssignStmt)
		if !ok {
			return true
		}
		for _, l := range as.Lhs {
			if id, isID := ast.Unparen(l).(*ast.Ident); isID && w.info.ObjectOf(id) == v {
				n++
				if len(as.Rhs) == 1 {
					found, _ = ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
				}
			}
		}
		return true
	})
	if n != 1 || found == nil || !astq.IsFunc(astq.Callee(w.info, found), retryablehttpPath+".NewRequest", retryablehttpPath+".NewRequestWithContext") {
		return nil
	}
	return found
}

// headersSet returns the constant header names the function sets on
// http.Header values (h.Set("Accept", ...), h["Accept"] = ...). Headers
// copied by name from a map (for k, v := range m { h[k] = v }) are known
// when the map is a field (client-wide headers, the same on every request:
// no per-operation key) or a local header map whose own names are read
// here; from anywhere else they are unknown (known is false).
func (w *walker) headersSet(fs *fnScope) (names []string, known bool) {
	known = true
	ast.Inspect(fs.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr)
			if ok && (sel.Sel.Name == "Set" || sel.Sel.Name == "Add") && len(n.Args) == 2 && astq.IsNamed(w.info.TypeOf(sel.X), "net/http", "Header") {
				if name := w.constHeader(n.Args[0]); name != "" {
					names = append(names, name)
				} else {
					known = false
				}
			}
		case *ast.RangeStmt:
			if !w.headerCopy(n) {
				known = false
			}
		}
		return known
	})
	slices.Sort(names)
	return slices.Compact(names), known
}

// headerCopy reports whether a range loop copies no headers onto a
// request from a source the builder cannot see.
func (w *walker) headerCopy(r *ast.RangeStmt) bool {
	key, ok := r.Key.(*ast.Ident)
	if !ok {
		return true
	}
	copies := false
	ast.Inspect(r.Body, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok {
			for _, l := range as.Lhs {
				if ix, isIx := ast.Unparen(l).(*ast.IndexExpr); isIx && w.isVar(ix.Index, w.info.ObjectOf(key)) && astq.IsNamed(w.info.TypeOf(ix.X), "net/http", "Header") {
					copies = true
				}
			}
		}
		return !copies
	})
	if !copies {
		return true
	}
	switch x := ast.Unparen(r.X).(type) {
	case *ast.SelectorExpr:
		v, ok := w.usedObj(x).(*types.Var)
		return ok && v.IsField()
	case *ast.Ident:
		v, ok := w.info.Uses[x].(*types.Var)
		return ok && v.Parent() != nil && v.Parent() != v.Pkg().Scope() && astq.IsNamed(v.Type(), "net/http", "Header") && !w.isParamVar(v)
	}
	return false
}

// constHeader returns the canonical header name e is, or "".
func (w *walker) constHeader(e ast.Expr) string {
	tv := w.info.Types[e]
	if tv.Value == nil || tv.Value.Kind() != constant.String {
		return ""
	}
	return textproto.CanonicalMIMEHeaderKey(constant.StringVal(tv.Value))
}

// resentRequests returns the writes the function builds with a wrapper
// builder and hands to a sender that re-sends them (Result.Resent).
func (w *walker) resentRequests(fs *fnScope) []*Request {
	var out []*Request
	ast.Inspect(fs.body, func(n ast.Node) bool {
		if _, lit := n.(*ast.FuncLit); lit {
			return false
		}
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Rhs) != 1 || len(as.Lhs) == 0 {
			return true
		}
		call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
		if !ok {
			return true
		}
		if r := w.resent(fs, as, call); r != nil {
			out = append(out, r)
		}
		return true
	})
	return out
}

// resent judges one v, err := builder(...) call.
func (w *walker) resent(fs *fnScope, as *ast.AssignStmt, call *ast.CallExpr) *Request {
	f := w.factOf(astq.Callee(w.info, call))
	if f == nil || f.Build == nil || f.Build.Field == "" {
		return nil
	}
	method := f.Build.Method
	if arg := argAt(call, f.Build.MethodParam); arg != nil {
		method = w.constString(arg, fs)
	}
	if method != "POST" && method != "PATCH" {
		return nil
	}
	id, ok := ast.Unparen(as.Lhs[0]).(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := w.info.ObjectOf(id).(*types.Var)
	if v == nil {
		return nil
	}
	send, via := w.resender(fs, v, f.Build.Field)
	if send == nil {
		return nil
	}
	headers, known := w.callerHeaders(fs, v)
	if !known {
		return nil
	}
	r := &Request{Pos: call.Pos(), Send: send, Build: call, Method: method, Via: via}
	r.Headers = append(append(r.Headers, f.Build.Headers...), headers...)
	return r
}

// resender returns a call v.M(...) of a method that re-sends v's field.
func (w *walker) resender(fs *fnScope, v *types.Var, field string) (*ast.CallExpr, *types.Func) {
	var send *ast.CallExpr
	var via *types.Func
	ast.Inspect(fs.body, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok || send != nil {
			return send == nil
		}
		sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
		if !ok || w.usedObj(sel.X) != v {
			return true
		}
		fn := astq.Callee(w.info, c)
		if g := w.factOf(fn); g != nil && g.Resends != nil && g.Resends.Field == field {
			send, via = c, fn
		}
		return true
	})
	return send, via
}

// callerHeaders returns the header names the caller sets on the wrapper
// (v.Header.Set("Idempotency-Key", k)); known is false when v's headers
// are touched any other way.
func (w *walker) callerHeaders(fs *fnScope, v *types.Var) (names []string, known bool) {
	known = true
	var parents []ast.Node
	ast.Inspect(fs.body, func(n ast.Node) bool {
		if n == nil {
			parents = parents[:len(parents)-1]
			return true
		}
		defer func() { parents = append(parents, n) }()
		if c, ok := n.(*ast.CallExpr); ok {
			if sel, isSel := ast.Unparen(c.Fun).(*ast.SelectorExpr); isSel && w.usedObj(sel.X) == v {
				if f := w.factOf(astq.Callee(w.info, c)); f == nil || f.Resends == nil {
					known = false // req.SetKey(k): a method of its own may set it
				}
			}
			for _, a := range c.Args {
				if w.usedObj(a) == v {
					known = false // handed on: a helper may set the key
				}
			}
		}
		sel, ok := n.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Header" || w.usedObj(sel.X) != v || len(parents) < 2 {
			return true
		}
		set, isSel := parents[len(parents)-1].(*ast.SelectorExpr)
		c, isCall := parents[len(parents)-2].(*ast.CallExpr)
		if !isSel || !isCall || c.Fun != set || set.Sel.Name != "Set" && set.Sel.Name != "Add" || len(c.Args) != 2 {
			known = false
			return true
		}
		if name := w.constHeader(c.Args[0]); name != "" {
			names = append(names, name)
		} else {
			known = false
		}
		return true
	})
	return names, known
}
