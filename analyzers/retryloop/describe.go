package retryloop

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"net/textproto"
	"slices"
	"strings"
)

// describe fills in what a site touches: remote calls, budgets, the
// context and the HTTP requests it sends.
func (w *walker) describe(site *Site, fs *fnScope, node ast.Node, body *ast.BlockStmt) {
	ast.Inspect(node, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if site.Remote == nil && w.isRemoteCall(n) && w.retriedCall(site, n) {
				site.Remote = n
			}
			if w.isBudgetCall(n) {
				site.Budget = append(site.Budget, n.Pos())
			}
			if w.consults(n) {
				site.Ctx.Consulted = true
			}
		case *ast.UnaryExpr:
			if n.Op == token.ARROW && w.isConsultRecv(n.X) {
				site.Ctx.Consulted = true
			}
		}
		return true
	})
	ast.Inspect(fs.body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && w.isBudgetCall(c) {
			site.FuncBudget = true
		}
		return !site.FuncBudget
	})
	w.describeContext(site, fs, node)
	w.describeRequests(site, fs, node)
	if site.Bound == BoundNone && site.Ctx.Consulted && site.Ctx.InScope != nil {
		if d := w.varDeadline(site.Ctx.InScope, fs, 0); d == DeadlineSet || d == DeadlineCaller {
			site.Bound = BoundDeadline
		}
	}
}

// describeContext finds the context and stop channel in scope and the
// deadline the attempts run under.
func (w *walker) describeContext(site *Site, fs *fnScope, node ast.Node) {
	best, stop := w.contextInScope(fs, node.Pos())
	// A closure sees its enclosing function's context too.
	if best == nil {
		if outer := w.enclosingOf(fs.node); outer != nil {
			best = w.outerContext(outer)
		}
	}
	if stop == nil {
		stop = w.stopField(fs, node)
	}
	site.Ctx.InScope, site.Ctx.StopChan = best, stop
	site.Ctx.Attempts = w.attemptsDeadline(site, fs)
	if w.perAttemptTimeout(node) {
		site.Ctx.AttemptTimeout = true
	}
}

// contextInScope returns the context and the stop channel declared last
// before pos, as parameters or in the body, and in scope at pos.
func (w *walker) contextInScope(fs *fnScope, pos token.Pos) (best, stop *types.Var) {
	consider := func(v *types.Var) {
		if v == nil || v.Pos() > pos || (v.Parent() != nil && !v.Parent().Contains(pos)) {
			return
		}
		if isContextType(v.Type()) && (best == nil || v.Pos() > best.Pos()) {
			best = v
		}
		if isStopChan(v.Type()) && (stop == nil || v.Pos() > stop.Pos()) {
			stop = v
		}
	}
	if fs.typ.Params != nil {
		for _, f := range fs.typ.Params.List {
			for _, n := range f.Names {
				v, _ := w.info.Defs[n].(*types.Var)
				consider(v)
			}
		}
	}
	ast.Inspect(fs.body, func(n ast.Node) bool {
		if n == nil || n.Pos() > pos {
			return false
		}
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := w.info.Defs[id].(*types.Var); ok {
				consider(v)
			}
		}
		return true
	})
	return best, stop
}

// attemptsDeadline is the deadline the attempts run under: the first
// operation's, raised by any later one with a firmer deadline, though no
// deadline never replaces one.
func (w *walker) attemptsDeadline(site *Site, fs *fnScope) Deadline {
	dl := DeadlineUnknown
	first := true
	for _, op := range site.Ops {
		d, ok := w.opDeadline(site, op, fs)
		if !ok {
			continue
		}
		if first {
			dl, first = d, false
			continue
		}
		if (d > dl || dl == DeadlineNone) && !(d == DeadlineNone && dl != DeadlineNone) {
			dl = d
		}
	}
	return dl
}

// perAttemptTimeout reports whether the site sets a timeout or deadline
// of its own (a per-attempt WithTimeout inside it).
func (w *walker) perAttemptTimeout(node ast.Node) bool {
	found := false
	ast.Inspect(node, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && isFunc(callee(w.info, c), "context.WithTimeout", "context.WithDeadline", "context.WithTimeoutCause", "context.WithDeadlineCause") {
			found = true
		}
		return true
	})
	return found
}

// outerContext returns a context parameter of the function enclosing a
// closure, or nil.
func (w *walker) outerContext(outer *fnScope) *types.Var {
	if outer.typ.Params == nil {
		return nil
	}
	for _, f := range outer.typ.Params.List {
		for _, n := range f.Names {
			if v, ok := w.info.Defs[n].(*types.Var); ok && isContextType(v.Type()) {
				return v
			}
		}
	}
	return nil
}

// enclosingOf finds the function scope enclosing a function literal.
func (w *walker) enclosingOf(n ast.Node) *fnScope {
	lit, ok := n.(*ast.FuncLit)
	if !ok {
		return nil
	}
	for _, d := range w.decls {
		if d.Body != nil && d.Pos() <= lit.Pos() && lit.End() <= d.End() {
			return &fnScope{node: d, body: d.Body, typ: d.Type}
		}
	}
	return nil
}

// opDeadline classifies the deadline one operation runs under; ok is false
// when the operation says nothing about it.
func (w *walker) opDeadline(site *Site, op *ast.CallExpr, fs *fnScope) (Deadline, bool) {
	fn := callee(w.info, op)
	// A context argument.
	for _, a := range op.Args {
		if w.isContextExpr(a) {
			d := w.ctxDeadline(site, a, fs, 0)
			return d, true
		}
	}
	switch {
	case isFunc(fn, "net/http.Get", "net/http.Head", "net/http.Post", "net/http.PostForm"):
		return DeadlineNone, true
	case isFunc(fn, "net/http.Client.Do", "net/http.Client.Get", "net/http.Client.Head", "net/http.Client.Post", "net/http.Client.PostForm"):
		timeout := w.clientTimeout(op, fs)
		if timeout == Yes {
			site.Ctx.AttemptTimeout = true
			return DeadlineSet, true
		}
		if isFunc(fn, "net/http.Client.Do") && len(op.Args) == 1 {
			if b := w.requestBuild(op.Args[0], fs); b != nil {
				if isFunc(callee(w.info, b), "net/http.NewRequestWithContext") && len(b.Args) > 0 {
					return w.ctxDeadline(site, b.Args[0], fs, 0), true
				}
				if timeout == No {
					return DeadlineNone, true
				}
			}
			return DeadlineUnknown, true
		}
		if timeout == No {
			return DeadlineNone, true
		}
		return DeadlineUnknown, true
	case isFunc(fn, "net.Dial", "net.DialTCP", "net.DialUDP", "net.DialUnix", "crypto/tls.Dial",
		"net/smtp.Dial", "net/smtp.SendMail", "net/rpc.Dial", "net/rpc.DialHTTP"): // no timeout, no context
		return DeadlineNone, true
	case isFunc(fn, "net.DialTimeout"):
		site.Ctx.AttemptTimeout = true
		return DeadlineSet, true
	}
	return DeadlineUnknown, false
}

// ctxDeadline classifies a context expression.
func (w *walker) ctxDeadline(site *Site, e ast.Expr, fs *fnScope, depth int) Deadline {
	e = ast.Unparen(e)
	if depth > 6 {
		return DeadlineUnknown
	}
	switch e := e.(type) {
	case *ast.CallExpr:
		fn := callee(w.info, e)
		switch {
		case isFunc(fn, "context.Background", "context.TODO"):
			if site != nil && site.Ctx.BackgroundCall == nil {
				site.Ctx.BackgroundCall = e
			}
			return DeadlineNone
		case isFunc(fn, "context.WithTimeout", "context.WithDeadline", "context.WithTimeoutCause", "context.WithDeadlineCause"):
			return DeadlineSet
		case isFunc(fn, "context.WithCancel", "context.WithValue", "context.WithCancelCause", "context.WithoutCancel"):
			if len(e.Args) > 0 {
				if isFunc(fn, "context.WithoutCancel") {
					return DeadlineNone
				}
				return w.ctxDeadline(site, e.Args[0], fs, depth+1)
			}
		case isFunc(fn, "net/http.Request.Context"):
			return DeadlineCaller
		}
		return DeadlineUnknown
	case *ast.Ident:
		v, ok := w.info.Uses[e].(*types.Var)
		if !ok {
			return DeadlineUnknown
		}
		return w.varDeadlineSite(site, v, fs, depth)
	}
	return DeadlineUnknown
}

func (w *walker) varDeadline(v *types.Var, fs *fnScope, depth int) Deadline {
	return w.varDeadlineSite(nil, v, fs, depth)
}

func (w *walker) varDeadlineSite(site *Site, v *types.Var, fs *fnScope, depth int) Deadline {
	if w.isParam(v, fs.typ) {
		return DeadlineCaller
	}
	res := DeadlineUnknown
	n := 0
	ast.Inspect(fs.body, func(nd ast.Node) bool {
		as, ok := nd.(*ast.AssignStmt)
		if !ok {
			return true
		}
		for i, l := range as.Lhs {
			if !w.isVar(l, v) {
				continue
			}
			n++
			var r ast.Expr
			if len(as.Rhs) == len(as.Lhs) {
				r = as.Rhs[i]
			} else if len(as.Rhs) == 1 && i == 0 {
				r = as.Rhs[0]
			}
			if r == nil {
				res = DeadlineUnknown
				continue
			}
			d := w.ctxDeadline(site, r, fs, depth+1)
			if n == 1 {
				res = d
			} else if d != res {
				res = DeadlineUnknown
			}
		}
		return true
	})
	if n == 0 {
		// A closure's captured context: judge it in the enclosing function.
		if outer := w.enclosingOf(fs.node); outer != nil {
			return w.varDeadlineSite(site, v, outer, depth+1)
		}
	}
	return res
}

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
	if lit == nil || !isNamed(w.info.TypeOf(lit), "net/http", "Client") {
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
	count := 0
	ast.Inspect(fs.body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok {
			return true
		}
		for i, l := range as.Lhs {
			if !w.isVar(l, v) {
				continue
			}
			count++
			var r ast.Expr
			if len(as.Rhs) == 1 {
				r = as.Rhs[0]
			} else if i < len(as.Rhs) {
				r = as.Rhs[i]
			}
			if c, ok := ast.Unparen(r).(*ast.CallExpr); ok {
				fn := callee(w.info, c)
				if isFunc(fn, "net/http.NewRequest", "net/http.NewRequestWithContext") {
					build = c
				} else if f := w.factOf(fn); f != nil && f.Build != nil {
					build = c
				}
			}
		}
		return true
	})
	if count != 1 {
		return nil
	}
	return build
}

// describeRequests records the HTTP requests the site sends.
func (w *walker) describeRequests(site *Site, fs *fnScope, node ast.Node) {
	ast.Inspect(node, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fn := callee(w.info, call)
		switch {
		case isFunc(fn, "net/http.Post", "net/http.PostForm", "net/http.Client.Post", "net/http.Client.PostForm"):
			r := &Request{Pos: call.Pos(), Send: call, Method: "POST", Shortcut: true}
			site.Requests = append(site.Requests, r)
		case isFunc(fn, "net/http.Client.Do", "net/http.Transport.RoundTrip", "net/http.RoundTripper.RoundTrip") && len(call.Args) == 1:
			r := &Request{Pos: call.Pos(), Send: call}
			w.resolveRequest(r, call.Args[0], fs, node)
			site.Requests = append(site.Requests, r)
		case fn != nil && len(call.Args) == 1 && isNamed(w.info.TypeOf(call.Args[0]), "net/http", "Request") &&
			w.returnsResponse(call) && w.isRemoteCall(call) && !w.writes(fn):
			// A sender of the code base or a library handed the request
			// (transport.Do(req)): it sends what it is given.
			r := &Request{Pos: call.Pos(), Send: call, Via: fn}
			w.resolveRequest(r, call.Args[0], fs, node)
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

// writes reports whether fn is known to send non-idempotent requests of
// its own.
func (w *walker) writes(fn *types.Func) bool {
	f := w.factOf(fn)
	return f != nil && len(f.Writes) > 0
}

// resolveRequest finds a request's method and headers.
func (w *walker) resolveRequest(r *Request, e ast.Expr, fs *fnScope, loop ast.Node) {
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
		b := w.factOf(callee(w.info, r.Build))
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
			if !isFunc(callee(w.info, n), "net/http.Header.Set", "net/http.Header.Add") {
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
	tv := w.info.Types[key]
	if tv.Value == nil || tv.Value.Kind() != constant.String {
		return
	}
	name := textproto.CanonicalMIMEHeaderKey(constant.StringVal(tv.Value))
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
					fn := callee(w.info, c)
					if fn == nil || !isFunc(fn, "strconv.Itoa", "fmt.Sprint", "fmt.Sprintf") || containsRandCall(w.info, c) {
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
		if c, ok := n.(*ast.CallExpr); ok && isRandFunc(callee(info, c)) {
			found = true
		}
		return !found
	})
	return found
}

// defaultKeyHeaders are the idempotency key headers always recognised; not
// exported, so that the only way to add one is the -headers option.
var defaultKeyHeaders = []string{"Idempotency-Key", "X-Idempotency-Key"}

// HasKey reports whether the request sets one of the key headers
// (defaults plus extra, canonicalised).
func (r *Request) HasKey(extra []string) bool { return r.hasKey(extra) }

func (r *Request) hasKey(extra []string) bool {
	for _, h := range r.Headers {
		if isKeyHeader(h, extra) {
			return true
		}
	}
	return false
}

func isKeyHeader(h string, extra []string) bool {
	if slices.Contains(defaultKeyHeaders, h) {
		return true
	}
	for _, x := range extra {
		if textproto.CanonicalMIMEHeaderKey(x) == h {
			return true
		}
	}
	return false
}

// NonIdempotent reports whether the request's method needs a key (POST, PATCH).
func (r *Request) NonIdempotent() bool { return r.Method == "POST" || r.Method == "PATCH" }

// retriedCall reports whether call is, or is inside, one of the site's
// retried operations: a remote call that runs on every pass but whose
// failure leaves (a read before a parse that is retried) does not make
// the site a remote retry.
func (w *walker) retriedCall(site *Site, call *ast.CallExpr) bool {
	for _, op := range site.Ops {
		if op.Pos() <= call.Pos() && call.End() <= op.End() {
			return true
		}
		// A function literal called as the op (func() error { ... }()).
		if lit, ok := ast.Unparen(op.Fun).(*ast.FuncLit); ok && lit.Pos() <= call.Pos() && call.End() <= lit.End() {
			return true
		}
	}
	return false
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

// backgroundArg returns the context.Background or TODO call a context
// argument comes from when it has no deadline (made in the current
// function, or derived from one made there without a timeout), or nil.
func (w *walker) backgroundArg(e ast.Expr) *ast.CallExpr {
	if w.cur == nil {
		return nil
	}
	probe := &Site{}
	if w.ctxDeadline(probe, e, w.cur, 0) != DeadlineNone {
		return nil
	}
	return probe.Ctx.BackgroundCall
}

// stopField returns a stop channel held in a field that the site itself
// mentions (passes it on, receives from it): an input the loop could be
// told to stop by. One the function closes or sends on is its output.
func (w *walker) stopField(fs *fnScope, node ast.Node) *types.Var {
	var field *types.Var
	ast.Inspect(node, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok && field == nil {
			if v, ok := w.info.Uses[sel.Sel].(*types.Var); ok && v.IsField() && isStopChan(v.Type()) {
				field = v
			}
		}
		return field == nil
	})
	if field == nil {
		return nil
	}
	output := false
	ast.Inspect(fs.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SendStmt:
			if sel, ok := ast.Unparen(n.Chan).(*ast.SelectorExpr); ok && w.info.Uses[sel.Sel] == field {
				output = true
			}
		case *ast.CallExpr:
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && id.Name == "close" && len(n.Args) == 1 {
				if _, isBuiltin := w.info.Uses[id].(*types.Builtin); isBuiltin {
					if sel, ok := ast.Unparen(n.Args[0]).(*ast.SelectorExpr); ok && w.info.Uses[sel.Sel] == field {
						output = true
					}
				}
			}
		}
		return !output
	})
	if output {
		return nil
	}
	return field
}
