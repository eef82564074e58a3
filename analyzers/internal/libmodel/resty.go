package libmodel

import (
	"go/ast"
	"go/types"
	"net/textproto"
	"strconv"

	"golang.org/x/tools/go/ast/astutil"
)

const (
	restyV2 = "github.com/go-resty/resty/v2"
	restyV3 = "resty.dev/v3"
)

var restySends = map[string]string{
	"Get": "GET", "Head": "HEAD", "Options": "OPTIONS", "Put": "PUT", "Delete": "DELETE",
	"Post": "POST", "Patch": "PATCH", "Execute": "", "Send": "",
}

func restyV2Site(s *scope, call *ast.CallExpr, fn *types.Func) *Site {
	if site := restyConfigSite(s, call, fn, restyV2); site != nil {
		return site
	}
	return restySite(s, call, fn, restyV2)
}

func restyV3Site(s *scope, call *ast.CallExpr, fn *types.Func) *Site {
	if site := restyConfigSite(s, call, fn, restyV3); site != nil {
		return site
	}
	return restySite(s, call, fn, restyV3)
}

// restySite judges a request sent through a resty client with retries on.
func restySite(s *scope, call *ast.CallExpr, fn *types.Func, pkg string) *Site {
	if fn.Pkg().Path() != pkg {
		return nil
	}
	sig := fn.Type().(*types.Signature)
	method, isSend := restySends[fn.Name()]
	if !isSend || sig.Recv() == nil || recvName(sig.Recv().Type()) != "Request" {
		return nil
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	if fn.Name() == "Execute" && len(call.Args) == 2 {
		method = s.method(call.Args[0])
	}
	c := s.collect(sel.X, call.Pos())

	var (
		clientCalls, reqCalls []*ast.CallExpr
		news                  int
		rCall                 *ast.CallExpr
	)
	for _, cc := range c.calls {
		cfn := s.callee(cc)
		if cfn == nil || cfn.Pkg() == nil || cfn.Pkg().Path() != pkg {
			continue
		}
		csig := cfn.Type().(*types.Signature)
		switch {
		case csig.Recv() == nil && (cfn.Name() == "New" || len(cfn.Name()) > 7 && cfn.Name()[:7] == "NewWith"):
			news++
		case csig.Recv() != nil && recvName(csig.Recv().Type()) == "Client":
			clientCalls = append(clientCalls, cc)
			if cfn.Name() == "R" || cfn.Name() == "NewRequest" {
				rCall = cc
			}
		case csig.Recv() != nil && recvName(csig.Recv().Type()) == "Request":
			reqCalls = append(reqCalls, cc)
		}
	}
	// The retry count: the request's own setting wins in v3.
	count, countKnown := int64(0), true
	all := append(append([]*ast.CallExpr(nil), clientCalls...), reqCalls...)
	for _, cc := range append(clientCalls, reqCalls...) {
		if s.callee(cc).Name() == "SetRetryCount" && len(cc.Args) == 1 {
			count, countKnown = s.intConst(cc.Args[0])
			if pkg == restyV2 && isRequestCall(s, cc) {
				count, countKnown = 0, false // no such method in v2; be safe
			}
		}
	}
	if countKnown && count <= 0 {
		return nil // retries off: not a retry site
	}
	b := newSite(call)
	if c.opaque || news != 1 || rCall == nil || !countKnown {
		return b.site
	}
	name := "resty"
	if pkg == restyV3 {
		name = "resty v3"
	}

	// Delay: a constant strategy, or a wait time not below the max.
	var waitMin, waitMax ast.Expr
	custom, timeout, ctxSet, allowNonIdem := false, false, false, false
	budget := false
	headers := headersNoKey
	for _, cc := range all {
		cfn := s.callee(cc)
		switch cfn.Name() {
		case "SetRetryWaitTime":
			if len(cc.Args) == 1 {
				waitMin = cc.Args[0]
			}
		case "SetRetryMaxWaitTime":
			if len(cc.Args) == 1 {
				waitMax = cc.Args[0]
			}
		case "SetRetryDelayStrategy", "SetRetryAfter":
			if len(cc.Args) == 1 {
				if r, ok := s.resolve(cc.Args[0]); ok {
					if rc, ok := r.(*ast.CallExpr); ok && is(s.callee(rc), pkg, "", "RetryConstantDelayStrategy") {
						b.add(issue(Sleep, CatFixedDelay, rc, name+" RetryConstantDelayStrategy waits the same delay between attempts: "+consFixed))
					}
				}
			}
			custom = true
		case "AddRetryCondition", "SetRetryConditions", "AddRetryConditions":
			custom = true // it may look at the method
		case "SetTimeout":
			timeout = true
		case "SetContext":
			ctxSet = true
		case "SetRetryAllowNonIdempotent":
			if len(cc.Args) == 1 {
				if v := s.constValue(cc.Args[0]); v != nil && v.String() == "true" {
					allowNonIdem = true
				} else {
					allowNonIdem = false
				}
			}
		case "SetHeader", "SetHeaderVerbatim":
			if len(cc.Args) == 2 {
				if k, ok := s.stringConst(cc.Args[0]); !ok {
					headers = headersUnknown
				} else if oneOf(textproto.CanonicalMIMEHeaderKey(k), s.keyHeaders()) && headers != headersUnknown {
					headers = headersKey
				}
			}
		case "SetHeaders", "SetHeaderMultiValues":
			headers = headersUnknown
		}
		if s.hookBudget(cc) {
			budget = true
		}
	}
	if waitMin != nil && waitMax == nil && pkg == restyV2 {
		if n, ok := s.intConst(waitMin); ok && n >= 2e9 { // the default max is 2s
			waitMax = waitMin
		}
	}
	if waitMin != nil && waitMax != nil && !custom {
		lo, ok1 := s.intConst(waitMin)
		hi, ok2 := s.intConst(waitMax)
		if ok1 && ok2 && lo >= hi && pkg == restyV2 {
			b.add(issue(Sleep, CatFixedDelay, waitMin, name+" retry wait time not below the max wait time waits the same delay between attempts: "+consFixed))
		}
	}

	keyFixed := false
	// Idempotency: v2 retries every method; v3 only idempotent ones
	// unless SetRetryAllowNonIdempotent(true).
	if nonIdempotent(method) && (pkg == restyV2 || allowNonIdem) && !custom && headers == headersNoKey {
		i := issue(Idempotency, CatNoKey, call, method+" request re-sent by "+name+" without an idempotency key header: "+consNoKey)
		if !s.inLoop(call) {
			if key, edits, ok := s.keyValue(); ok {
				keyFixed = true
				i = i.fix("Set an "+s.keyHeaders()[0]+" header, created once for all attempts",
					append(edits, insert(rCall.End(), ".SetHeader("+strconv.Quote(s.keyHeaders()[0])+", "+key+")"))...)
			}
		}
		b.add(i)
	}
	if !ctxSet && !timeout {
		if ctx := s.ctxParam(); ctx != "" {
			i := issue(Deadline, CatNoContext, call, name+" request without SetContext("+ctx+") retries under no deadline: "+consNoCtx)
			if !keyFixed { // both fixes would insert after R()
				i = i.fix("Set the request context", insert(rCall.End(), ".SetContext("+ctx+")"))
			}
			b.add(i)
		}
	}
	// A budget is not presumed behind a retry condition or hook (SPEC):
	// it must be visible in it or reachable through facts.
	if !budget {
		b.add(issue(Budget, CatNoBudget, call, name+" client retries with no retry budget: "+consNoBudget))
	}
	return b.site
}

// hookBudget reports whether a configuration call hands resty a function
// that consults a budget: a literal that does, or a call (a hook
// constructor) that does through facts.
func (s *scope) hookBudget(cc *ast.CallExpr) bool {
	for _, a := range cc.Args {
		if _, isFunc := s.env.Info.TypeOf(a).Underlying().(*types.Signature); !isFunc {
			continue
		}
		r, ok := s.resolve(a)
		if !ok {
			continue
		}
		switch r := r.(type) {
		case *ast.FuncLit:
			if s.budgeted(r) {
				return true
			}
		case *ast.CallExpr:
			if s.budgeted(r) {
				return true
			}
		case *ast.Ident:
			if fn, ok := s.obj(r).(*types.Func); ok {
				if body := s.declBody(fn); body != nil && s.budgeted(body) {
					return true
				}
			}
		}
	}
	return false
}

// restyConfigSite judges retries switched on for a client the function
// does not own (a field, c.resty.SetRetryCount(n), or a parameter): every
// request through that client elsewhere retries, so the budget is judged
// here, over this configuration chain.
func restyConfigSite(s *scope, call *ast.CallExpr, fn *types.Func, pkg string) *Site {
	if !is(fn, pkg, "Client", "SetRetryCount") || len(call.Args) != 1 {
		return nil
	}
	if n, ok := s.intConst(call.Args[0]); !ok || n <= 0 {
		return nil // off, or a count from configuration: nothing to judge
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	// A client of this function (resty.New() here) is judged at its sends.
	root := ast.Unparen(sel.X)
	for {
		c, ok := root.(*ast.CallExpr)
		if !ok {
			break
		}
		cs, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		root = ast.Unparen(cs.X)
	}
	if v := s.localVar(root); v != nil && !s.isParam(v) {
		return nil
	}
	if id, ok := root.(*ast.Ident); ok {
		if _, isPkg := s.obj(id).(*types.PkgName); isPkg {
			return nil // resty.New().SetRetryCount(n): a client made here
		}
	}
	b := newSite(call)
	// The chain around the call: c.resty.SetRetryCount(n).AddRetryCondition(f)...
	path, _ := astutil.PathEnclosingInterval(s.file, call.Pos(), call.End())
	for i := 1; i+1 < len(path); i++ {
		ps, ok := path[i].(*ast.SelectorExpr)
		if !ok {
			break
		}
		pc, ok := path[i+1].(*ast.CallExpr)
		if !ok || pc.Fun != ps {
			break
		}
		if s.hookBudget(pc) {
			return b.site
		}
		i++
	}
	b.add(issue(Budget, CatNoBudget, call, "resty client retries with no retry budget: "+consNoBudget))
	return b.site
}

func isRequestCall(s *scope, cc *ast.CallExpr) bool {
	fn := s.callee(cc)
	sig := fn.Type().(*types.Signature)
	return sig.Recv() != nil && recvName(sig.Recv().Type()) == "Request"
}

func pkgOf(s *scope, e ast.Expr) string {
	var id *ast.Ident
	switch x := e.(type) {
	case *ast.Ident:
		id = x
	case *ast.SelectorExpr:
		id = x.Sel
	default:
		return ""
	}
	if o := s.obj(id); o != nil && o.Pkg() != nil {
		return o.Pkg().Path()
	}
	return ""
}
