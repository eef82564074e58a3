package libmodel

import (
	"go/ast"
	"go/types"
	"net/textproto"
	"strconv"

	"golang.org/x/tools/go/ast/astutil"

	"github.com/retrylint/retrylint/analyzers/internal/astq"
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
	sel, method, ok := restySend(s, call, fn, pkg)
	if !ok {
		return nil
	}
	c := s.collect(sel.X, call.Pos())
	chain := restyChainOf(s, c.calls, pkg)
	if pkg == restyV2 && chain.news == 0 {
		// A request from a wrapper over a client held in a field.
		if held := restyHeldSend(s, call, method, c); held != nil {
			return held
		}
	}
	count, countKnown := chain.retryCount(s, pkg)
	if countKnown && count <= 0 {
		return nil // retries off: not a retry site
	}
	b := newSite(call)
	if c.opaque || chain.news != 1 || chain.rCall == nil || !countKnown {
		return b.site
	}
	o := &restyOptions{s: s, b: b, pkg: pkg, name: restyName(pkg), headers: headersNoKey}
	for _, cc := range chain.all {
		if set := restyOptionSetters[s.callee(cc).Name()]; set != nil {
			set(o, cc)
		}
		if s.hookBudget(cc) {
			o.budget = true
		}
	}
	o.judgeWaitTimes()
	keyFixed := o.judgeIdempotency(call, chain.rCall, method)
	o.judgeDeadline(call, chain.rCall, keyFixed)
	// A budget is not presumed behind a retry condition or hook (SPEC):
	// it must be visible in it or reachable through facts.
	if !o.budget {
		b.add(finding(CatNoBudget, call, o.name+" client retries with no retry budget"))
	}
	return b.site
}

// restySend reports whether call sends a resty request of pkg, and returns
// the selector it is called through and the HTTP method it sends ("" when
// not known).
func restySend(s *scope, call *ast.CallExpr, fn *types.Func, pkg string) (*ast.SelectorExpr, string, bool) {
	if fn.Pkg().Path() != pkg {
		return nil, "", false
	}
	sig := fn.Type().(*types.Signature)
	method, isSend := restySends[fn.Name()]
	if !isSend || sig.Recv() == nil || recvName(sig.Recv().Type()) != "Request" {
		return nil, "", false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, "", false
	}
	if fn.Name() == "Execute" && len(call.Args) == 2 {
		method = s.method(call.Args[0])
	}
	return sel, method, true
}

func restyName(pkg string) string {
	if pkg == restyV3 {
		return "resty v3"
	}
	return "resty"
}

// restyChain is the configuration of one resty request, sorted by what
// each call configures.
type restyChain struct {
	news  int             // resty.New and resty.NewWith… calls: exactly one makes the client known
	rCall *ast.CallExpr   // the last client.R() or client.NewRequest(): fixes insert after it
	all   []*ast.CallExpr // the client's calls, then the request's
}

func restyChainOf(s *scope, calls []*ast.CallExpr, pkg string) restyChain {
	var ch restyChain
	var clientCalls, reqCalls []*ast.CallExpr
	for _, cc := range calls {
		cfn := s.callee(cc)
		if cfn == nil || cfn.Pkg() == nil || cfn.Pkg().Path() != pkg {
			continue
		}
		csig := cfn.Type().(*types.Signature)
		switch {
		case csig.Recv() == nil && (cfn.Name() == "New" || len(cfn.Name()) > 7 && cfn.Name()[:7] == "NewWith"):
			ch.news++
		case csig.Recv() != nil && recvName(csig.Recv().Type()) == "Client":
			clientCalls = append(clientCalls, cc)
			if cfn.Name() == "R" || cfn.Name() == "NewRequest" {
				ch.rCall = cc
			}
		case csig.Recv() != nil && recvName(csig.Recv().Type()) == "Request":
			reqCalls = append(reqCalls, cc)
		}
	}
	ch.all = append(clientCalls, reqCalls...)
	return ch
}

// retryCount is the retry count the chain sets last; the request's own
// setting wins in v3, being set after the client's.
func (ch restyChain) retryCount(s *scope, pkg string) (count int64, known bool) {
	count, known = 0, true
	for _, cc := range ch.all {
		if s.callee(cc).Name() == "SetRetryCount" && len(cc.Args) == 1 {
			count, known = s.intConst(cc.Args[0])
			if pkg == restyV2 && isRequestCall(s, cc) {
				count, known = 0, false // no such method in v2; be safe
			}
		}
	}
	return count, known
}

// restyOptions is what a resty chain configures, read call by call in
// order, so that a later call overrides an earlier one as in resty.
type restyOptions struct {
	s         *scope
	b         *siteBuilder
	pkg, name string

	waitMin, waitMax ast.Expr
	custom           bool // a retry condition or delay strategy of the caller's: it may look at the method
	timeout, ctxSet  bool
	allowNonIdem     bool
	budget           bool
	headers          headerState
}

// restyOptionSetters read one configuration call each, by method name
// (the callee is already known to be resty's).
var restyOptionSetters = map[string]func(*restyOptions, *ast.CallExpr){
	"SetRetryWaitTime":           (*restyOptions).waitTime,
	"SetRetryMaxWaitTime":        (*restyOptions).maxWaitTime,
	"SetRetryDelayStrategy":      (*restyOptions).delayStrategy,
	"SetRetryAfter":              (*restyOptions).delayStrategy,
	"AddRetryCondition":          (*restyOptions).condition,
	"SetRetryConditions":         (*restyOptions).condition,
	"AddRetryConditions":         (*restyOptions).condition,
	"SetTimeout":                 func(o *restyOptions, _ *ast.CallExpr) { o.timeout = true },
	"SetContext":                 func(o *restyOptions, _ *ast.CallExpr) { o.ctxSet = true },
	"SetRetryAllowNonIdempotent": (*restyOptions).allowNonIdempotent,
	"SetHeader":                  (*restyOptions).header,
	"SetHeaderVerbatim":          (*restyOptions).header,
	"SetHeaders":                 func(o *restyOptions, _ *ast.CallExpr) { o.headers = headersUnknown },
	"SetHeaderMultiValues":       func(o *restyOptions, _ *ast.CallExpr) { o.headers = headersUnknown },
}

func (o *restyOptions) waitTime(cc *ast.CallExpr) {
	if len(cc.Args) == 1 {
		o.waitMin = cc.Args[0]
	}
}

func (o *restyOptions) maxWaitTime(cc *ast.CallExpr) {
	if len(cc.Args) == 1 {
		o.waitMax = cc.Args[0]
	}
}

// delayStrategy flags the constant strategy at once; any strategy is the
// caller's, so the wait times no longer decide the delay.
func (o *restyOptions) delayStrategy(cc *ast.CallExpr) {
	if len(cc.Args) == 1 {
		if r, ok := o.s.resolve(cc.Args[0]); ok {
			if rc, ok := r.(*ast.CallExpr); ok && astq.IsFunc(o.s.callee(rc), o.pkg+".RetryConstantDelayStrategy") {
				o.b.add(finding(CatFixedDelay, rc, o.name+" RetryConstantDelayStrategy waits the same delay between attempts"))
			}
		}
	}
	o.custom = true
}

func (o *restyOptions) condition(*ast.CallExpr) {
	o.custom = true // it may look at the method
}

func (o *restyOptions) allowNonIdempotent(cc *ast.CallExpr) {
	if len(cc.Args) == 1 {
		v := o.s.constValue(cc.Args[0])
		o.allowNonIdem = v != nil && v.String() == "true"
	}
}

func (o *restyOptions) header(cc *ast.CallExpr) {
	if len(cc.Args) != 2 {
		return
	}
	if k, ok := o.s.stringConst(cc.Args[0]); !ok {
		o.headers = headersUnknown
	} else if oneOf(textproto.CanonicalMIMEHeaderKey(k), o.s.keyHeaders()) && o.headers != headersUnknown {
		o.headers = headersKey
	}
}

// judgeWaitTimes flags a v2 wait time not below the max wait time: resty
// then waits the same delay between attempts.
func (o *restyOptions) judgeWaitTimes() {
	waitMax := o.waitMax
	if o.waitMin != nil && waitMax == nil && o.pkg == restyV2 {
		if n, ok := o.s.intConst(o.waitMin); ok && n >= 2e9 { // the default max is 2s
			waitMax = o.waitMin
		}
	}
	if o.waitMin == nil || waitMax == nil || o.custom {
		return
	}
	lo, ok1 := o.s.intConst(o.waitMin)
	hi, ok2 := o.s.intConst(waitMax)
	if ok1 && ok2 && lo >= hi && o.pkg == restyV2 {
		o.b.add(finding(CatFixedDelay, o.waitMin, o.name+" retry wait time not below the max wait time waits the same delay between attempts"))
	}
}

// judgeIdempotency flags a write re-sent without a key header (v2 retries
// every method; v3 only idempotent ones unless SetRetryAllowNonIdempotent
// (true)), and reports whether its fix inserts after rCall.
func (o *restyOptions) judgeIdempotency(call, rCall *ast.CallExpr, method string) (keyFixed bool) {
	if !nonIdempotent(method) || !(o.pkg == restyV2 || o.allowNonIdem) || o.custom || o.headers != headersNoKey {
		return false
	}
	s := o.s
	i := finding(CatNoKey, call, method+" request re-sent by "+o.name+" without an idempotency key header")
	if !s.inLoop(call) {
		if key, edits, ok := s.keyValue(); ok {
			keyFixed = true
			i = i.fix("Set an "+s.keyHeaders()[0]+" header, created once for all attempts",
				append(edits, insert(rCall.End(), ".SetHeader("+strconv.Quote(s.keyHeaders()[0])+", "+key+")"))...)
		}
	}
	o.b.add(i)
	return keyFixed
}

// judgeDeadline flags a request with neither a context nor a timeout; its
// fix is left out when the key fix already inserts after rCall, since two
// insertions at one place would conflict.
func (o *restyOptions) judgeDeadline(call, rCall *ast.CallExpr, keyFixed bool) {
	if o.ctxSet || o.timeout {
		return
	}
	ctx := o.s.ctxParam()
	if ctx == "" {
		return
	}
	i := finding(CatNoContext, call, o.name+" request without SetContext("+ctx+") retries under no deadline")
	if !keyFixed {
		i = i.fix("Set the request context", insert(rCall.End(), ".SetContext("+ctx+")"))
	}
	o.b.add(i)
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
	if !astq.IsFunc(fn, pkg+".Client.SetRetryCount") || len(call.Args) != 1 {
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
	b.add(finding(CatNoBudget, call, "resty client retries with no retry budget"))
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
