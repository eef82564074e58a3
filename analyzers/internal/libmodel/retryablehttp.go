package libmodel

import (
	"go/ast"
	"go/types"
	"strconv"
)

const retryablehttp = "github.com/hashicorp/go-retryablehttp"

// rhClient is what is known of a retryablehttp client.
type rhClient struct {
	known     bool     // built by NewClient (or the package default) in view
	newCall   ast.Node // the NewClient call
	backoff   ast.Expr // the Backoff assigned, nil for the default
	backoffAt *ast.AssignStmt
	retryMax  ast.Expr
	// custom reports a CheckRetry that may inspect the request method (or
	// one we cannot read).
	custom  bool
	budget  bool // a hook consults a budget
	timeout bool // the inner HTTP client may have a timeout
}

func (s *scope) rhClient(recv ast.Expr, at ast.Node) *rhClient {
	cl := &rhClient{}
	c := s.collect(recv, at.Pos())
	if c.opaque || len(c.lits) > 0 {
		return cl
	}
	var news []*ast.CallExpr
	for _, call := range c.calls {
		if is(s.callee(call), retryablehttp, "", "NewClient") {
			news = append(news, call)
		}
	}
	if len(news) != 1 {
		return cl
	}
	cl.known, cl.newCall = true, news[0]
	for _, as := range c.fields {
		for i, l := range as.Lhs {
			sel, ok := ast.Unparen(l).(*ast.SelectorExpr)
			if !ok || len(as.Rhs) != len(as.Lhs) {
				cl.known = false
				continue
			}
			rhs := as.Rhs[i]
			switch sel.Sel.Name {
			case "Backoff":
				cl.backoff, cl.backoffAt = rhs, as
			case "RetryMax":
				cl.retryMax = rhs
			case "CheckRetry", "PrepareRetry", "RequestLogHook":
				if s.objIs(rhs, retryablehttp, "DefaultRetryPolicy") || s.objIs(rhs, retryablehttp, "ErrorPropagatedRetryPolicy") {
					continue
				}
				body := s.funcBody(rhs)
				switch {
				case body == nil:
					// A hook we cannot read may check the method or a budget.
					cl.budget = true
					cl.custom = cl.custom || sel.Sel.Name == "CheckRetry"
				case s.budgeted(body):
					cl.budget = true
				}
				if body != nil && sel.Sel.Name == "CheckRetry" && mentionsMethod(body) {
					cl.custom = true
				}
			case "HTTPClient", "Timeout", "Transport":
				cl.timeout = true
			}
		}
	}
	return cl
}

func retryablehttpSite(s *scope, call *ast.CallExpr, fn *types.Func) *Site {
	if fn.Pkg().Path() != retryablehttp {
		return nil
	}
	sig := fn.Type().(*types.Signature)
	name := fn.Name()
	// StandardClient hides the retrying client in a *http.Client: every
	// send through it retries (LIBRARIES), judged here once.
	if !oneOf(name, []string{"Do", "Get", "Head", "Post", "PostForm", "StandardClient"}) {
		return nil
	}
	var cl *rhClient
	if sig.Recv() == nil {
		if name == "Do" {
			return nil
		}
		cl = &rhClient{known: true} // the package default client
	} else {
		if recvName(sig.Recv().Type()) != "Client" {
			return nil
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		cl = s.rhClient(sel.X, call)
	}
	if cl.retryMax != nil {
		if n, ok := s.intConst(cl.retryMax); ok && n <= 0 {
			return nil // RetryMax 0: no retries, not a retry site
		}
	}
	b := newSite(call)
	if !cl.known {
		return b.site
	}
	q := s.qualifier(retryablehttp)

	// Jitter: DefaultBackoff doubles RetryWaitMin with no randomness.
	if cl.backoff == nil || s.objIs(cl.backoff, retryablehttp, "DefaultBackoff") {
		at := ast.Node(call)
		if cl.backoffAt != nil {
			at = cl.backoffAt
		} else if cl.newCall != nil {
			at = cl.newCall
		}
		i := issue(Jitter, CatNoJitter, at, "retryablehttp's default backoff has no jitter: "+consNoJitter)
		if q != "" {
			if cl.backoffAt != nil {
				i = i.fix("Use retryablehttp.RateLimitLinearJitterBackoff", replace(cl.backoff, q+".RateLimitLinearJitterBackoff"))
			} else if v, stmt := s.definingStmt(cl.newCall); v != "" {
				if pos, ok := s.nextLine(stmt); ok {
					i = i.fix("Use retryablehttp.RateLimitLinearJitterBackoff", insert(pos, s.indent(stmt)+v+".Backoff = "+q+".RateLimitLinearJitterBackoff\n"))
				}
			}
		}
		b.add(i)
	}
	if cl.retryMax != nil {
		if n, ok := s.intConst(cl.retryMax); ok && n >= 1<<20 {
			b.add(issue(Budget, CatUnbounded, cl.retryMax, "retryablehttp RetryMax this large is no limit: "+consUnbounded))
		}
	}
	if name == "StandardClient" {
		if !cl.budget {
			b.add(issue(Budget, CatNoBudget, call, "retryablehttp client retries with no retry budget: "+consNoBudget))
		}
		return b.site
	}

	// The request: its method, key header and context.
	method := ""
	var build *ast.CallExpr
	var reqVars []*types.Var
	switch name {
	case "Post", "PostForm":
		method = "POST"
	case "Do":
		if len(call.Args) != 1 {
			break
		}
		r, ok := s.resolve(call.Args[0])
		rc, isCall := r.(*ast.CallExpr)
		if !ok || !isCall {
			break
		}
		reqVars = s.vars(call.Args[0])
		rfn := s.callee(rc)
		switch {
		case is(rfn, retryablehttp, "", "NewRequest") && len(rc.Args) == 3:
			method, build = s.method(rc.Args[0]), rc
		case is(rfn, retryablehttp, "", "NewRequestWithContext") && len(rc.Args) == 4:
			method, build = s.method(rc.Args[1]), rc
		case is(rfn, retryablehttp, "", "FromRequest") && len(rc.Args) == 1:
			hr, ok := s.resolve(rc.Args[0])
			hc, isCall := hr.(*ast.CallExpr)
			if !ok || !isCall {
				break
			}
			hfn := s.callee(hc)
			switch {
			case is(hfn, "net/http", "", "NewRequest") && len(hc.Args) == 3:
				method = s.method(hc.Args[0])
			case is(hfn, "net/http", "", "NewRequestWithContext") && len(hc.Args) == 4:
				method = s.method(hc.Args[1])
			}
			build = rc
			reqVars = append(reqVars, s.vars(rc.Args[0])...)
		}
	}
	if nonIdempotent(method) && !cl.custom {
		keyed := headersNoKey
		if name == "Do" {
			keyed = s.httpHeaders(reqVars, call.Pos())
		}
		if keyed == headersNoKey {
			at := ast.Node(call)
			if build != nil {
				at = build
			}
			i := issue(Idempotency, CatNoKey, at, method+" request re-sent by retryablehttp without an idempotency key header: "+consNoKey)
			if id, ok := ast.Unparen(call.Args[0]).(*ast.Ident); ok && name == "Do" && s.env.Fset != nil && !s.inLoop(call) {
				if stmt := s.stmtOf(call); stmt != nil {
					if key, edits, ok := s.keyValue(); ok {
						set := id.Name + ".Header.Set(" + strconv.Quote(s.keyHeaders()[0]) + ", " + key + ")\n" + s.indent(stmt)
						i = i.fix("Set an "+s.keyHeaders()[0]+" header, created once for all attempts", append(edits, insert(stmt.Pos(), set))...)
					}
				}
			}
			b.add(i)
		}
	}
	if build != nil && is(s.callee(build), retryablehttp, "", "NewRequest") && !cl.timeout {
		i := issue(Deadline, CatNoContext, build, "retryablehttp.NewRequest builds a request with no context: "+consNoCtx)
		if ctx := s.ctxParam(); ctx != "" && q != "" {
			i = i.fix("Use retryablehttp.NewRequestWithContext", replace(build.Fun, q+".NewRequestWithContext"), insert(build.Lparen+1, ctx+", "))
		}
		b.add(i)
	}
	if !cl.budget {
		b.add(issue(Budget, CatNoBudget, call, "retryablehttp client retries with no retry budget: "+consNoBudget))
	}
	return b.site
}

// funcBody returns the body of a function literal or of a function declared
// in the file that e denotes, or nil.
func (s *scope) funcBody(e ast.Expr) ast.Node {
	r, ok := s.resolve(e)
	if !ok {
		return nil
	}
	switch x := r.(type) {
	case *ast.FuncLit:
		return x.Body
	case *ast.Ident:
		if fn, ok := s.obj(x).(*types.Func); ok {
			if b := s.declBody(fn); b != nil {
				return b
			}
		}
	}
	return nil
}

// mentionsMethod reports whether the code reads a Method field (req.Method,
// resp.Request.Method): a retry policy that looks at the method.
func mentionsMethod(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "Method" {
			found = true
		}
		return !found
	})
	return found
}
