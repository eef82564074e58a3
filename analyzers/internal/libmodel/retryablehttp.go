package libmodel

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"github.com/retrylint/retrylint/analyzers/internal/astq"
	"github.com/retrylint/retrylint/analyzers/internal/follow"
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
	// lit: made by a composite literal, whose unset fields are zero (no
	// RetryMax: no retries; no Backoff: none of the default's).
	lit bool
	// held: the client is an unexported field's, configured in another
	// function: no fix edits it from here.
	held bool
	// made is the summary of a client made by a function of another
	// package (its fact): what its settings are, with no node in view.
	made   *MadeClient
	madeBy *types.Func // ... the function
}

// MadeClient is what a function returning a retryablehttp client makes
// and sets on it, for the callers in other packages (a fact): the same
// judgements as a client made in view, without its nodes.
type MadeClient struct {
	Lit      bool // a composite literal: unset fields are zero
	MaxSet   bool // RetryMax is set
	MaxKnown bool // ... to the constant Max
	Max      int64
	// Backoff is "" when none is set, "default" for DefaultBackoff,
	// "other" for any other.
	Backoff string
	Custom  bool
	Budget  bool
	Timeout bool
}

// ClientMade summarises the retryablehttp client the function fd (of
// the file) returns, or nil when it returns none, or not one and the
// same known client on every return.
func ClientMade(env *Env, file *ast.File, fd *ast.FuncDecl) *MadeClient {
	if fd.Body == nil || !returnsRHClient(env.Info, fd) {
		return nil
	}
	m, _ := clientMade(env, file, fd)
	return m
}

// ClientMadeWhy says why ClientMade knows no client of fd ("" when it
// knows one): an instrument's word, by kind.
func ClientMadeWhy(env *Env, file *ast.File, fd *ast.FuncDecl) string {
	if fd.Body == nil || !returnsRHClient(env.Info, fd) {
		return "returns-none"
	}
	_, why := clientMade(env, file, fd)
	return why
}

func clientMade(env *Env, file *ast.File, fd *ast.FuncDecl) (*MadeClient, string) {
	s := newScope(env, file, fd, fd.Type, fd.Body)
	cl, why := s.rhMadeIn(fd)
	if cl == nil {
		return nil, why
	}
	m := &MadeClient{Lit: cl.lit, Custom: cl.custom, Budget: cl.budget, Timeout: cl.timeout}
	if cl.made != nil {
		*m = *cl.made // handed on from another package
		m.Custom, m.Budget, m.Timeout = cl.custom, cl.budget, cl.timeout
	}
	if cl.retryMax != nil {
		m.MaxSet = true
		m.Max, m.MaxKnown = s.intConst(cl.retryMax)
	}
	if cl.backoff != nil {
		m.Backoff = "other"
		if s.objIs(cl.backoff, retryablehttp, "DefaultBackoff") {
			m.Backoff = "default"
		}
	}
	return m, ""
}

// returnsRHClient reports whether fd's first result is a
// *retryablehttp.Client.
func returnsRHClient(info *types.Info, fd *ast.FuncDecl) bool {
	fn, ok := info.Defs[fd.Name].(*types.Func)
	return ok && resultIsRHClient(fn)
}

// resultIsRHClient reports whether fn's first result is a
// *retryablehttp.Client.
func resultIsRHClient(fn *types.Func) bool {
	res := fn.Type().(*types.Signature).Results()
	if res.Len() == 0 {
		return false
	}
	p, ok := res.At(0).Type().(*types.Pointer)
	return ok && astq.IsNamed(p.Elem(), retryablehttp, "Client")
}

func (s *scope) rhClient(recv ast.Expr, at ast.Node) *rhClient {
	if f := s.heldField(recv); f != nil {
		return s.rhFieldClient(f)
	}
	cl := &rhClient{}
	c := s.collect(recv, at.Pos())
	if c.handed {
		return cl // configured where it was handed, too
	}
	if made := s.rhMadeBy(recv); made != nil {
		s.rhFields(made, c.fields) // what the caller sets on it after
		return made
	}
	if c.opaque {
		return cl
	}
	if len(c.lits) > 0 {
		// &retryablehttp.Client{...}: what it sets, and zero for the
		// rest (no RetryMax: no retries).
		if len(c.lits) != 1 || len(c.calls) > 0 || !astq.IsNamed(typeOf(s.env.Info, c.lits[0]), retryablehttp, "Client") {
			return cl
		}
		cl.known, cl.newCall, cl.lit = true, c.lits[0], true
		for _, e := range c.lits[0].Elts {
			kv, ok := e.(*ast.KeyValueExpr)
			if !ok {
				return &rhClient{}
			}
			id, isID := kv.Key.(*ast.Ident)
			if !isID {
				return &rhClient{}
			}
			s.rhOption(cl, id.Name, kv.Value, nil)
		}
		s.rhFields(cl, c.fields)
		return cl
	}
	var news []*ast.CallExpr
	for _, call := range c.calls {
		if astq.IsFunc(s.callee(call), retryablehttp+".NewClient") {
			news = append(news, call)
		}
	}
	if len(news) != 1 {
		return cl
	}
	cl.known, cl.newCall = true, news[0]
	s.rhFields(cl, c.fields)
	return cl
}

// rhMadeBy is the client recv holds when it is the result of a function
// that makes one (newClient() returning retryablehttp.NewClient() with
// its settings): of this package, read in view; of another, by its fact
// (Env.MadeClient). Its fixes would edit that function: none (held).
func (s *scope) rhMadeBy(recv ast.Expr) *rhClient {
	r, _ := s.resolve(recv)
	call, ok := r.(*ast.CallExpr)
	if !ok {
		return nil
	}
	fn := s.callee(call)
	if fd := s.declOf(fn); fd != nil {
		if fd.Body == nil {
			return nil
		}
		cl, _ := s.rhMadeIn(fd)
		return cl
	}
	if fn == nil || fn.Pkg() == s.env.Pkg || s.env.MadeClient == nil {
		return nil
	}
	m := s.env.MadeClient(fn)
	if m == nil {
		return nil
	}
	return &rhClient{known: true, held: true, made: m, madeBy: fn, lit: m.Lit, custom: m.Custom, budget: m.Budget, timeout: m.Timeout}
}

// rhMadeIn is the client the function fd of this package returns: known
// when each of its returns gives one and the same known client, a nil
// aside; held.
func (s *scope) rhMadeIn(fd *ast.FuncDecl) (*rhClient, string) {
	k := follow.Key{What: "rhMadeBy", At: fd}
	if !s.env.path.Enter(k) {
		return nil, "cycle"
	}
	defer s.env.path.Leave(k)
	ws := newScope(s.env, s.fileOf(fd), fd, fd.Type, fd.Body)
	var out *rhClient
	why := ""
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if _, lit := n.(*ast.FuncLit); lit || why != "" {
			return false
		}
		ret, isRet := n.(*ast.ReturnStmt)
		if !isRet {
			return true
		}
		if len(ret.Results) == 0 {
			why = "bare-return" // named results: not followed
			return false
		}
		if astq.IsNil(s.env.Info, ret.Results[0]) {
			return false
		}
		switch cl := ws.rhClient(ret.Results[0], ret); {
		case !cl.known:
			why = "unknown-client:" + ws.rhUnknownWhy(ret.Results[0], ret)
		case cl.newCall == nil && cl.made == nil:
			why = "not-made"
		case out != nil && (out.newCall != cl.newCall || cl.made != nil):
			why = "two-clients"
		default:
			out = cl
		}
		return false
	})
	switch {
	case why != "":
		return nil, why
	case out == nil:
		return nil, "no-return"
	}
	out.held = true
	return out, ""
}

// rhUnknownWhy says by kind why the client recv holds is unknown (the
// instrument's word, in rhClient's order).
func (s *scope) rhUnknownWhy(recv ast.Expr, at ast.Node) string {
	if s.heldField(recv) != nil {
		return "field"
	}
	c := s.collect(recv, at.Pos())
	switch {
	case c.handed:
		return "handed"
	case s.rhMadeBy(recv) != nil:
		return "made-settings"
	case c.opaque:
		r, _ := s.resolve(recv)
		call, ok := r.(*ast.CallExpr)
		if !ok {
			return "opaque"
		}
		fn := s.callee(call)
		switch {
		case fn == nil:
			return "opaque-callvalue"
		case s.declOf(fn) != nil:
			_, why := s.rhMadeIn(s.declOf(fn))
			return "samepkg(" + why + ")"
		case fn.Pkg() != nil && fn.Pkg() != s.env.Pkg && s.env.MadeClient != nil && s.env.MadeClient(fn) == nil:
			return "otherpkg-nofact:" + pathKin(fn.Pkg().Path(), s.env.Pkg.Path()) + calleeKind(fn)
		case fn.Pkg() != nil && fn.Pkg() != s.env.Pkg:
			return "otherpkg"
		}
		return "opaque-call"
	case len(c.lits) > 0:
		return "lit"
	}
	return fmt.Sprintf("calls=%d", len(c.calls))
}

// calleeKind says of a function with no client summary whether its
// first result is the client itself and whether its package imports
// retryablehttp (facts are computed only there): the instrument's words.
func calleeKind(fn *types.Func) string {
	k := ":result=other"
	if resultIsRHClient(fn) {
		k = ":result=client"
	}
	if slices.ContainsFunc(fn.Pkg().Imports(), func(p *types.Package) bool { return p.Path() == retryablehttp }) {
		return k + ":imports"
	}
	return k + ":noimport"
}

// pathKin says how near package path p is to q, by kind: the same
// repository (three elements), the same owner (two), or other.
func pathKin(p, q string) string {
	ps, qs := strings.Split(p, "/"), strings.Split(q, "/")
	n := 0
	for n < min(len(ps), len(qs), 3) && ps[n] == qs[n] {
		n++
	}
	switch {
	case isLibraryPath(p):
		return "modeled"
	case n >= 3:
		return "samerepo"
	case n == 2:
		return "sameowner"
	}
	return "other"
}

// rhMax is the client's RetryMax: whether it is set, and its value
// when constant.
func (s *scope) rhMax(cl *rhClient) (set bool, n int64, known bool) {
	if cl.retryMax != nil {
		n, known = s.intConst(cl.retryMax)
		return true, n, known
	}
	if cl.made != nil {
		return cl.made.MaxSet, cl.made.Max, cl.made.MaxKnown
	}
	return false, 0, false
}

// rhDefaultBackoff reports whether the client waits by DefaultBackoff,
// which has no jitter.
func (s *scope) rhDefaultBackoff(cl *rhClient) bool {
	if cl.backoff != nil {
		return s.objIs(cl.backoff, retryablehttp, "DefaultBackoff")
	}
	if cl.made != nil && cl.made.Backoff != "" {
		return cl.made.Backoff == "default"
	}
	return !cl.lit
}

// rhFields reads the assignments to the client's fields (cl.RetryMax = 3).
func (s *scope) rhFields(cl *rhClient, fields []*ast.AssignStmt) {
	for _, as := range fields {
		for i, l := range as.Lhs {
			sel, ok := ast.Unparen(l).(*ast.SelectorExpr)
			if !ok || len(as.Rhs) != len(as.Lhs) {
				cl.known = false
				continue
			}
			s.rhOption(cl, sel.Sel.Name, as.Rhs[i], as)
		}
	}
}

// rhOption reads one field of the client set to rhs (by an assignment at,
// or in its composite literal when at is nil).
func (s *scope) rhOption(cl *rhClient, name string, rhs ast.Expr, at *ast.AssignStmt) {
	switch name {
	case "Backoff":
		cl.backoff, cl.backoffAt = rhs, at
	case "RetryMax":
		cl.retryMax = rhs
	case "CheckRetry", "PrepareRetry", "RequestLogHook":
		if s.objIs(rhs, retryablehttp, "DefaultRetryPolicy") || s.objIs(rhs, retryablehttp, "ErrorPropagatedRetryPolicy") {
			return
		}
		body := s.funcBody(rhs)
		switch {
		case body == nil && name == "CheckRetry":
			// A predicate we cannot read may check the method; a budget
			// is not presumed behind a retry predicate (SPEC, "Unknown
			// is not absent", its one exception).
			cl.custom = true
		case body == nil:
			// A hook we cannot read may refuse a retry (a budget).
			cl.budget = true
		case s.budgeted(body):
			cl.budget = true
		}
		if body != nil && name == "CheckRetry" && mentionsMethod(body) {
			cl.custom = true
		}
	case "HTTPClient", "Timeout", "Transport":
		cl.timeout = true
	}
}

func retryablehttpSite(s *scope, call *ast.CallExpr, fn *types.Func) *Site {
	if fn.Pkg().Path() != retryablehttp {
		return nil
	}
	name := fn.Name()
	// StandardClient hides the retrying client in a *http.Client: every
	// send through it retries (LIBRARIES), judged here once.
	if !oneOf(name, []string{"Do", "Get", "Head", "Post", "PostForm", "StandardClient"}) {
		return nil
	}
	cl := s.rhClientOf(call, fn)
	if cl == nil {
		return nil
	}
	if set, n, ok := s.rhMax(cl); set {
		if ok && n <= 0 {
			return nil // RetryMax 0: no retries, not a retry site
		}
	} else if cl.lit {
		return nil // a literal without RetryMax makes one attempt
	}
	b := newSite(call)
	if !cl.known {
		return b.site
	}
	b.site.AnyMethod = !cl.custom
	b.site.Config, b.site.Held = cl.newCall, cl.held
	if cl.held && cl.newCall != nil {
		config := []ast.Node{cl.retryMax}
		if cl.backoffAt != nil {
			config = append(config, cl.backoffAt)
		}
		defer b.rootAt(cl.newCall, config...)
	} else if cl.madeBy != nil {
		defer b.madeBy(cl.madeBy)
	}
	q := s.qualifier(retryablehttp)
	if cl.held {
		q = "" // configured in another function: no fix from here
	}
	// Jitter: DefaultBackoff doubles RetryWaitMin with no randomness.
	if s.rhDefaultBackoff(cl) {
		b.add(s.rhNoJitter(call, cl, q))
	}
	if set, n, ok := s.rhMax(cl); set && ok && n >= 1<<20 {
		at := ast.Node(call) // set in another package
		if cl.retryMax != nil {
			at = cl.retryMax
		}
		b.add(finding(CatUnbounded, at, "retryablehttp RetryMax this large is no limit"))
	}
	if name != "StandardClient" {
		s.judgeRHRequest(b, call, name, cl, q)
	}
	if !cl.budget {
		b.add(finding(CatNoBudget, call, "retryablehttp client retries with no retry budget"))
	}
	return b.site
}

// rhClientOf returns the client a send goes through: the package default
// for a package-level function, or the receiver's; nil where the call is
// no send of a client.
func (s *scope) rhClientOf(call *ast.CallExpr, fn *types.Func) *rhClient {
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil {
		if fn.Name() == "Do" {
			return nil
		}
		return &rhClient{known: true} // the package default client
	}
	if recvName(sig.Recv().Type()) != "Client" {
		return nil
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	return s.rhClient(sel.X, call)
}

// rhNoJitter is the finding of the default backoff, on its assignment or the
// NewClient call; the fix replaces the assigned backoff, or assigns the
// jittered one after the statement that makes the client.
func (s *scope) rhNoJitter(call *ast.CallExpr, cl *rhClient, q string) Finding {
	at := ast.Node(call)
	if cl.backoffAt != nil {
		at = cl.backoffAt
	} else if cl.newCall != nil {
		at = cl.newCall
	}
	i := finding(CatNoJitter, at, "retryablehttp's default backoff has no jitter")
	if q == "" {
		return i
	}
	if cl.backoffAt != nil || cl.lit && cl.backoff != nil {
		return i.fix("Use retryablehttp.RateLimitLinearJitterBackoff", replace(cl.backoff, q+".RateLimitLinearJitterBackoff"))
	}
	if v, stmt := s.definingStmt(cl.newCall); v != "" {
		if pos, ok := s.nextLine(stmt); ok {
			i = i.fix("Use retryablehttp.RateLimitLinearJitterBackoff", insert(pos, s.indent(stmt)+v+".Backoff = "+q+".RateLimitLinearJitterBackoff\n"))
		}
	}
	return i
}

// rhRequest is what a send knows of its request.
type rhRequest struct {
	method  string
	build   *ast.CallExpr // the NewRequest… or FromRequest call, when seen
	reqVars []*types.Var  // the variables holding the request, for its headers
}

// rhRequestOf reads the request a send sends: Post and PostForm are
// POST; Do's argument is followed to the call that builds it.
func (s *scope) rhRequestOf(call *ast.CallExpr, name string) rhRequest {
	var req rhRequest
	switch name {
	case "Post", "PostForm":
		req.method = "POST"
	case "Do":
		if len(call.Args) != 1 {
			break
		}
		r, ok := s.resolve(call.Args[0])
		rc, isCall := r.(*ast.CallExpr)
		if !ok || !isCall {
			break
		}
		req.reqVars = s.vars(call.Args[0])
		s.rhBuiltBy(&req, rc)
	}
	return req
}

// rhBuiltBy reads the method from the call that builds a request.
func (s *scope) rhBuiltBy(req *rhRequest, rc *ast.CallExpr) {
	rfn := s.callee(rc)
	switch {
	case astq.IsFunc(rfn, retryablehttp+".NewRequest") && len(rc.Args) == 3:
		req.method, req.build = s.method(rc.Args[0]), rc
	case astq.IsFunc(rfn, retryablehttp+".NewRequestWithContext") && len(rc.Args) == 4:
		req.method, req.build = s.method(rc.Args[1]), rc
	case astq.IsFunc(rfn, retryablehttp+".FromRequest") && len(rc.Args) == 1:
		hr, ok := s.resolve(rc.Args[0])
		hc, isCall := hr.(*ast.CallExpr)
		if !ok || !isCall {
			break
		}
		hfn := s.callee(hc)
		switch {
		case astq.IsFunc(hfn, "net/http.NewRequest") && len(hc.Args) == 3:
			req.method = s.method(hc.Args[0])
		case astq.IsFunc(hfn, "net/http.NewRequestWithContext") && len(hc.Args) == 4:
			req.method = s.method(hc.Args[1])
		}
		req.build = rc
		req.reqVars = append(req.reqVars, s.vars(rc.Args[0])...)
	}
}

// judgeRHRequest judges the request of a send: its key header and its
// context.
func (s *scope) judgeRHRequest(b *siteBuilder, call *ast.CallExpr, name string, cl *rhClient, q string) {
	req := s.rhRequestOf(call, name)
	if nonIdempotent(req.method) && !cl.custom {
		keyed := headersNoKey
		if name == "Do" {
			keyed = s.httpHeaders(req.reqVars, call.Pos())
		}
		if keyed == headersNoKey {
			b.add(s.rhNoKey(call, name, req))
		}
	}
	if req.build != nil && astq.IsFunc(s.callee(req.build), retryablehttp+".NewRequest") && !cl.timeout {
		i := finding(CatNoContext, req.build, "retryablehttp.NewRequest builds a request with no context")
		if ctx := s.ctxParam(); ctx != "" && q != "" {
			i = i.fix("Use retryablehttp.NewRequestWithContext", replace(req.build.Fun, q+".NewRequestWithContext"), insert(req.build.Lparen+1, ctx+", "))
		}
		b.add(i)
	}
}

// rhNoKey is the finding of a write re-sent without a key header; the fix
// sets the header on Do's request variable, once, before the statement.
func (s *scope) rhNoKey(call *ast.CallExpr, name string, req rhRequest) Finding {
	at := ast.Node(call)
	if req.build != nil {
		at = req.build
	}
	i := finding(CatNoKey, at, req.method+" request re-sent by retryablehttp without an idempotency key header")
	id, ok := ast.Unparen(call.Args[0]).(*ast.Ident)
	if !ok || name != "Do" || s.env.Fset == nil || s.inLoop(call) {
		return i
	}
	if stmt := s.stmtOf(call); stmt != nil {
		if key, edits, ok := s.keyValue(); ok {
			set := id.Name + ".Header.Set(" + strconv.Quote(s.keyHeaders()[0]) + ", " + key + ")\n" + s.indent(stmt)
			i = i.fix("Set an "+s.keyHeaders()[0]+" header, created once for all attempts", append(edits, insert(stmt.Pos(), set))...)
		}
	}
	return i
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
	case *ast.SelectorExpr:
		// A method value (client.retryHTTPCheck): its declaration.
		if sel, ok := s.env.Info.Selections[x]; ok && sel.Kind() == types.MethodVal {
			if fn, ok := sel.Obj().(*types.Func); ok {
				if b := s.declBody(fn); b != nil {
					return b
				}
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
