package retryloop

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/analyzers/internal/astq"
)

// Conditions on a path: the evaluation of a branch's condition from what
// the path knows, the classifiers and judges an outcome is handed to,
// status-code comparisons, and whether the outcome decided the branch.

// eval evaluates a condition on a path.
func (s *sim) eval(e ast.Expr, p *path) Tri {
	e = ast.Unparen(e)
	s.expr(e, p)
	switch e := e.(type) {
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			return not(s.eval(e.X, p))
		}
	case *ast.BinaryExpr:
		return s.evalBinary(e, p)
	case *ast.Ident:
		return s.evalIdent(e, p)
	case *ast.IndexExpr:
		// A set of retryable codes: c.retryOnStatus[resp.StatusCode].
		if isBool(s.info.TypeOf(e)) {
			return s.classify([]ast.Expr{e.Index}, s.w.setPolarity(e.X), p)
		}
	case *ast.CallExpr:
		return s.evalCall(e, p)
	}
	return Unknown
}

// evalBinary evaluates && and || with short circuit, == and !=, and a
// comparison of a status code.
func (s *sim) evalBinary(e *ast.BinaryExpr, p *path) Tri {
	switch e.Op {
	case token.LAND:
		a := s.eval(e.X, p)
		if a == No {
			return No
		}
		return and(a, s.eval(e.Y, p))
	case token.LOR:
		a := s.eval(e.X, p)
		if a == Yes {
			return Yes
		}
		return or(a, s.eval(e.Y, p))
	case token.EQL, token.NEQ:
		v := s.evalEq(e.X, e.Y, p)
		if e.Op == token.NEQ {
			v = not(v)
		}
		if v != Unknown {
			return v
		}
	}
	return s.evalStatus(e, p)
}

// evalIdent evaluates a variable's value on the path (observing the
// outcome it holds) or the constants true and false.
func (s *sim) evalIdent(e *ast.Ident, p *path) Tri {
	if o := s.obj(e); o != nil {
		if c := p.tainted[o]; c != nil {
			p.observed[c] = true
			p.obs++
			if s.deciders[o] && c == s.fail && s.mode == modeStatus {
				p.statusObs = true // a judge's verdict on the failing response
			}
		}
		if v, ok := p.vals[o]; ok {
			return v
		}
	}
	switch e.Name {
	case "true":
		return Yes
	case "false":
		return No
	}
	return Unknown
}

// evalCall evaluates a classifier of the code (isRetryable(resp.StatusCode)),
// an operation returning a bool, and errors.Is/As of a nil error (false).
func (s *sim) evalCall(e *ast.CallExpr, p *path) Tri {
	if fn := astq.Callee(s.info, e); fn != nil && !s.ops[e] && isBool(s.info.TypeOf(e)) {
		if v := s.classify(e.Args, s.w.predPolarity(fn), p); v != Unknown {
			return v
		}
		if v := s.classifyErr(fn, e.Args, p); v != Unknown {
			return v
		}
	}
	if s.ops[e] && isBool(s.info.TypeOf(e)) {
		p.observed[e] = true
		p.obs++
		if e == s.fail {
			s.seenFail = true
			return No
		}
		return Yes
	}
	if op := s.decider(e, p); op != nil {
		p.observed[op] = true // a judge asked about the outcome
		p.obs++
		if op == s.fail && s.mode == modeStatus {
			p.statusObs = true // ... and was handed the failing response
		}
	}
	if s.predObserves && astq.Callee(s.info, e) == nil {
		for _, a := range e.Args {
			if o := s.obj(a); o != nil && p.tainted[o] != nil {
				p.observed[p.tainted[o]] = true
				p.obs++
			}
		}
	}
	if fn := astq.Callee(s.info, e); astq.IsFunc(fn, "errors.Is", "errors.As") && len(e.Args) > 0 {
		if o := s.obj(e.Args[0]); o != nil {
			if c := p.tainted[o]; c != nil {
				p.observed[c] = true
				p.obs++
			}
			if p.vals[o] == No {
				return No
			}
		}
	}
	return Unknown
}

// decider returns the operation whose outcome call hands to a judge the
// analysis cannot see into, an interface method or a function value
// (policy.Retry(attempt, resp, err), c.checkRetry(ctx, resp, err)): the
// error of an operation is among its arguments on this path. The SPEC
// counts such a judge as the retry decision.
//
// A function of the code handed the outcome beside other inputs, with a
// lone bool verdict (shouldRetry(req, res, err)), judges it too, when
// its body is seen to examine the outcome (a status code, a nil test, an
// errors.Is or As): one that only hands it on (keepReading(res, err,
// handle)) may be a consumer saying "go on". The one-argument classifiers
// (classify, classifyErr) read what they can.
func (s *sim) decider(call *ast.CallExpr, p *path) *ast.CallExpr {
	fn := astq.Callee(s.info, call)
	static := fn != nil && !isInterfaceMethod(fn)
	if static && (!s.verdict(call, fn) || !s.w.examinesOutcome(fn)) {
		return nil
	}
	for _, a := range call.Args {
		o := s.obj(a)
		if o == nil {
			continue
		}
		if isErrorType(o.Type()) || (static || fn == nil) && isResponse(o.Type()) {
			if c := p.tainted[o]; c != nil {
				return c
			}
		}
	}
	return nil
}

// verdict reports whether a function of the code called as call gives a
// verdict the one-argument classifiers (classify, classifyErr) do not
// read: a lone bool of two or more inputs, or a bool first among other
// results (retry, err := handle(resp)) that the function sets true on a
// test of the outcome (if resp.StatusCode >= 500 { return true, nil }):
// a bool computed otherwise may say "more to come" (a next page).
func (s *sim) verdict(call *ast.CallExpr, fn *types.Func) bool {
	switch t := s.info.TypeOf(call).(type) {
	case *types.Tuple:
		return len(call.Args) > 0 && t.Len() > 1 && isBool(t.At(0).Type()) && s.w.trueOnOutcome(fn)
	default:
		return isBool(t) && len(call.Args) > 1
	}
}

// trueOnOutcome reports whether fn's body (of this package) returns a
// literal true first inside an if whose condition holds on a failure of
// an error or response parameter only: a non-nil error (err != nil,
// errors.Is), a failure status (>= 500, == 503: true at 503, false at
// 200). A true on success, or on content (StatusCode == 200 && a next
// link), is no verdict on a failure.
func (w *walker) trueOnOutcome(fn *types.Func) bool {
	decl := w.decls[fn]
	if decl == nil || decl.Body == nil {
		return false
	}
	params := w.outcomeParams(fn)
	found := false
	walkGuarded(decl.Body, false, func(cond ast.Expr) bool { return w.failureTest(cond, params) }, func(n ast.Node, under bool) bool {
		if r, ok := n.(*ast.ReturnStmt); ok && under && len(r.Results) > 1 {
			found = found || isTrue(w.info, r.Results[0])
		}
		return !found
	})
	return found
}

// failureTest reports whether cond holds on a failure of one of params
// and not on its success, as the predicates' evaluators read it.
func (w *walker) failureTest(cond ast.Expr, params map[types.Object]bool) bool {
	for p := range params {
		switch {
		case isResponse(p.Type()):
			fail, ok1 := w.evalCode(cond, p, 503)
			okv, ok2 := w.evalCode(cond, p, 200)
			if ok1 && ok2 && fail && !okv {
				return true
			}
		case astq.RefersTo(w.info, cond, p) && w.exprAtNil(cond, p) == No:
			return true
		}
	}
	return false
}

// walkGuarded walks n outside function literals, telling f of each node
// whether it lies in the body of an if whose condition guard accepts
// (under says so of n itself; an if's init and else are not guarded by
// it). f returns false to skip a node's children.
func walkGuarded(n ast.Node, under bool, guard func(ast.Expr) bool, f func(ast.Node, bool) bool) {
	ast.Inspect(n, func(m ast.Node) bool {
		switch m := m.(type) {
		case nil:
			return false
		case *ast.FuncLit:
			return false
		case *ast.IfStmt:
			if m.Init != nil {
				walkGuarded(m.Init, under, guard, f)
			}
			walkGuarded(m.Body, under || guard(m.Cond), guard, f)
			if m.Else != nil {
				walkGuarded(m.Else, under, guard, f)
			}
			return false
		}
		return f(m, under)
	})
}

// outcomeParams lists fn's error and response parameters.
func (w *walker) outcomeParams(fn *types.Func) map[types.Object]bool {
	params := map[types.Object]bool{}
	sig := fn.Type().(*types.Signature)
	for i := range sig.Params().Len() {
		if v := sig.Params().At(i); isErrorType(v.Type()) || isResponse(v.Type()) {
			params[v] = true
		}
	}
	return params
}

// testsParam reports whether e tests one of params: compares it, reads
// its StatusCode, or asks errors.Is or As of it.
func (w *walker) testsParam(e ast.Node, params map[types.Object]bool) bool {
	param := func(e ast.Expr) bool { return params[identVar(w.info, e)] }
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BinaryExpr:
			found = found || param(n.X) || param(n.Y)
		case *ast.SelectorExpr:
			found = found || n.Sel.Name == "StatusCode" && param(n.X)
		case *ast.CallExpr:
			found = found || astq.IsFunc(astq.Callee(w.info, n), "errors.Is", "errors.As") && len(n.Args) > 0 && param(n.Args[0])
		}
		return !found
	})
	return found
}

// examinesOutcome reports whether fn's body (of this package) tests an
// error or response parameter itself: compares it, reads its StatusCode,
// or asks errors.Is or As of it.
func (w *walker) examinesOutcome(fn *types.Func) bool {
	decl := w.decls[fn]
	return decl != nil && decl.Body != nil && w.testsParam(decl.Body, w.outcomeParams(fn))
}

// judge records that obj holds an opaque judge's verdict.
func (s *sim) judge(obj types.Object) {
	if s.deciders == nil {
		s.deciders = map[types.Object]bool{}
	}
	s.deciders[obj] = true
}

// judged reports whether cond reads an opaque judge's verdict: a variable
// assigned one, or a judge called in the condition itself.
func (s *sim) judged(cond ast.Expr, p *path) bool {
	found := false
	ast.Inspect(cond, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			if o := s.obj(n); o != nil && s.deciders[o] {
				found = true
			}
		case *ast.CallExpr:
			if s.decider(n, p) != nil {
				found = true
			}
		case *ast.FuncLit:
			return false
		}
		return !found
	})
	return found
}

// classifyErr judges an error classifier's verdict (shouldRetry(err)) on
// the path: it observes the error, and on a success (the error nil) says
// what the classifier says of nil.
func (s *sim) classifyErr(fn *types.Func, args []ast.Expr, p *path) Tri {
	if len(args) != 1 || !isErrorType(s.info.TypeOf(args[0])) {
		return Unknown
	}
	o := s.obj(args[0])
	if o == nil {
		return Unknown
	}
	if c := p.tainted[o]; c != nil {
		p.observed[c] = true
		p.obs++
	}
	if v, ok := p.vals[o]; ok && v == No {
		return s.w.errPredAtNil(fn)
	}
	return Unknown
}

// classify judges a test of a response's status code by a classifier
// of the given polarity (Yes: it says "retryable"; No: it says "ok"):
// whether it holds for the status walked (a failure, or a success).
func (s *sim) classify(args []ast.Expr, polarity Tri, p *path) Tri {
	if len(args) != 1 || polarity == Unknown {
		return Unknown
	}
	o := s.respOf(args[0])
	if o == nil {
		return Unknown
	}
	failing, known := p.status[o]
	if !known {
		return Unknown
	}
	if c := p.tainted[o]; c != nil {
		p.observed[c] = true
		p.obs++
	}
	if failing {
		p.statusObs = true
	}
	if polarity == Yes {
		return b2t(failing)
	}
	return b2t(!failing)
}

// respOf returns the response a classifier's argument tests: the
// response itself (retryable(resp)), or the one whose StatusCode it is,
// directly or through a copy (code := resp.StatusCode). Nil otherwise.
func (s *sim) respOf(arg ast.Expr) types.Object {
	x := ast.Unparen(arg)
	if isResponse(s.info.TypeOf(x)) {
		return s.obj(x)
	}
	return s.statusVar(x)
}

// evalEq evaluates x == y.
func (s *sim) evalEq(x, y ast.Expr, p *path) Tri {
	x, y = ast.Unparen(x), ast.Unparen(y)
	if astq.IsNil(s.info, y) {
		x, y = y, x
	}
	if astq.IsNil(s.info, x) {
		return s.evalNilEq(y, p)
	}
	// The gRPC code of an outcome: codes.OK (0) when the error is nil,
	// unknown when it failed.
	for _, pair := range [][2]ast.Expr{{x, y}, {y, x}} {
		eo := s.grpcCodeOf(pair[0])
		if eo == nil {
			if o := s.obj(pair[0]); o != nil {
				eo = s.codeOf[o]
			}
		}
		if eo == nil {
			continue
		}
		if c := p.tainted[eo]; c != nil {
			p.observed[c] = true
			p.obs++
		}
		if n, ok := s.w.intConst(pair[1]); ok && p.vals[eo] == No {
			return b2t(n == 0)
		}
		return Unknown
	}
	// A nil error compared with a sentinel error: not equal.
	for _, pair := range [][2]ast.Expr{{x, y}, {y, x}} {
		if o := s.obj(pair[0]); o != nil && isErrorType(o.Type()) && s.nonNilError(pair[1]) {
			if c := p.tainted[o]; c != nil {
				p.observed[c] = true
				p.obs++
			}
			if p.vals[o] == No {
				return No
			}
		}
	}
	return s.evalStatus(&ast.BinaryExpr{X: x, Op: token.EQL, Y: y}, p)
}

// evalNilEq evaluates nil == y.
func (s *sim) evalNilEq(y ast.Expr, p *path) Tri {
	if o := s.carriedErr(y, p); o != nil {
		if v, ok := p.vals[o]; ok {
			return not(v) // nil == resp.GetError()
		}
		return Unknown
	}
	if o := s.obj(y); o != nil && s.carriers[o] {
		return Unknown // the carrier itself, not its error
	}
	if call, ok := y.(*ast.CallExpr); ok && s.ops[call] {
		p.observed[call] = true
		p.obs++
		if call == s.fail {
			s.seenFail = true
			return b2t(s.mode != modeErr)
		}
		return Yes
	}
	if o := s.obj(y); o != nil {
		if c := p.tainted[o]; c != nil {
			p.observed[c] = true
			p.obs++
		}
		if v, ok := p.vals[o]; ok && (isErrorType(o.Type()) || isPointer(o.Type()) || isSignature(o.Type())) {
			return not(v)
		}
		if v, ok := o.(*types.Var); ok && s.w.nilFuncVar(v) {
			return Yes // a test hook production code never sets
		}
	}
	return Unknown
}

// grpcCodeOf returns the error variable e takes the gRPC code of
// (status.Code(err)), or nil.
func (s *sim) grpcCodeOf(e ast.Expr) types.Object {
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(c.Args) != 1 || !astq.IsFunc(astq.Callee(s.info, c), "google.golang.org/grpc/status.Code") {
		return nil
	}
	o := s.obj(c.Args[0])
	if o == nil || !isErrorType(o.Type()) {
		return nil
	}
	return o
}

func isPointer(t types.Type) bool {
	_, ok := t.Underlying().(*types.Pointer)
	return ok
}

// errLast reports whether a call's last result is an error.
func (s *sim) errLast(call *ast.CallExpr) bool {
	tup, ok := s.info.TypeOf(call).(*types.Tuple)
	return ok && tup.Len() > 1 && (isErrorType(tup.At(tup.Len()-1).Type()) || errCarrier(tup.At(tup.Len()-1).Type()))
}

// errCarrier reports whether t carries an operation's error instead of
// an error result: a struct, or a pointer to one, with a method Err() or
// GetError() returning error (a collector's response, a command's
// result).
func errCarrier(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	if _, ok := n.Underlying().(*types.Struct); !ok {
		return false
	}
	ms := types.NewMethodSet(types.NewPointer(n))
	for _, name := range []string{"Err", "GetError"} {
		sel := ms.Lookup(n.Obj().Pkg(), name)
		if sel == nil {
			sel = ms.Lookup(nil, name)
		}
		if sel == nil {
			continue
		}
		sig, ok := sel.Obj().Type().(*types.Signature)
		if ok && sig.Params().Len() == 0 && sig.Results().Len() == 1 && isErrorType(sig.Results().At(0).Type()) {
			return true
		}
	}
	return false
}

// carry records obj as an operation's error carrier on the path.
func (s *sim) carry(obj types.Object, failing bool, p *path) {
	if failing {
		s.seenFail = true
	}
	if s.carriers == nil {
		s.carriers = map[types.Object]bool{}
	}
	s.carriers[obj] = true
	p.vals[obj] = b2t(failing && s.mode == modeErr)
}

// carriedErr returns the carrier whose error e reads (resp.GetError()),
// marking the operation observed, or nil.
func (s *sim) carriedErr(e ast.Expr, p *path) types.Object {
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(c.Args) != 0 {
		return nil
	}
	sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Err" && sel.Sel.Name != "GetError" {
		return nil
	}
	o := s.obj(sel.X)
	if o == nil || !s.carriers[o] {
		return nil
	}
	if op := p.tainted[o]; op != nil {
		p.observed[op] = true
		p.obs++
	}
	return o
}

var (
	failCodes = []int64{429, 500, 502, 503, 504}
	okCodes   = []int64{200, 201, 204}
)

// evalStatus evaluates a comparison of a response's StatusCode with a constant.
func (s *sim) evalStatus(e *ast.BinaryExpr, p *path) Tri {
	x, op, c, ok := s.constCompare(e)
	if !ok {
		return Unknown
	}
	// x/100 == 2 style
	x, div := s.divided(x)
	o := s.statusVar(x)
	if o == nil {
		return Unknown
	}
	if c := p.tainted[o]; c != nil {
		p.observed[c] = true
		p.obs++
	}
	failing, known := p.status[o]
	if !known {
		return Unknown
	}
	if failing {
		p.statusObs = true
	}
	eq := op == token.EQL || op == token.NEQ
	// Equality with a 2xx code names the success the code expects
	// (resp.StatusCode == http.StatusOK): a success is that code. What
	// else goes round may be a "not yet" of a poll (SPEC: polling a status
	// is not a retry), so the failure side stays ambiguous below.
	if !failing && div == 1 && 200 <= c && c < 300 && eq {
		return b2t(op == token.EQL)
	}
	codes := okCodes
	if failing {
		codes = failCodes
		s.failingCompare(p, div, c, eq)
	}
	res := Unknown
	for i, code := range codes {
		v := cmpInt(code/div, op, c)
		if i == 0 {
			res = b2t(v)
		} else if res != b2t(v) {
			return Unknown
		}
	}
	return res
}

// constCompare returns a comparison with an integer constant as x op c,
// the constant put on the right.
func (s *sim) constCompare(e *ast.BinaryExpr) (x ast.Expr, op token.Token, c int64, ok bool) {
	x, y, op := ast.Unparen(e.X), ast.Unparen(e.Y), e.Op
	cv := s.info.Types[y].Value
	if cv == nil {
		if s.info.Types[x].Value == nil {
			return nil, op, 0, false
		}
		x, y = y, x
		cv = s.info.Types[y].Value
		op = mirrored(op)
	}
	c, ok = constant.Int64Val(constant.ToInt(cv))
	return x, op, c, ok
}

// mirrored is the comparison with its operands swapped.
func mirrored(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GTR
	case token.GTR:
		return token.LSS
	case token.LEQ:
		return token.GEQ
	case token.GEQ:
		return token.LEQ
	}
	return op
}

// divided strips a division by a positive constant (code/100 == 2),
// returning the dividend and the divisor (1 when there is none).
func (s *sim) divided(x ast.Expr) (ast.Expr, int64) {
	if b, ok := x.(*ast.BinaryExpr); ok && b.Op == token.QUO {
		if dv := s.info.Types[b.Y].Value; dv != nil {
			if d, ok := constant.Int64Val(constant.ToInt(dv)); ok && d > 0 {
				return ast.Unparen(b.X), d
			}
		}
	}
	return x, 1
}

// statusVar returns the response whose StatusCode x reads, directly or
// through a copy (code := resp.StatusCode; if code < 300), or nil.
func (s *sim) statusVar(x ast.Expr) types.Object {
	if id, ok := x.(*ast.Ident); ok {
		x = s.w.statusCopy(id)
	}
	sel, ok := x.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "StatusCode" || !isResponse(s.info.TypeOf(sel.X)) {
		return nil
	}
	return s.obj(sel.X)
}

// failingCompare marks what a test of a failure status may mean. A test
// of a code below 408 may be how the code names its success or a poll's
// "not yet" (>= 400, == 200); equality with a 3xx or 4xx code (==
// http.StatusPaymentRequired) only picks out that code, which a failure
// status is not.
func (s *sim) failingCompare(p *path, div, c int64, eq bool) {
	switch {
	case div == 1 && c >= 200 && c < 300 && eq:
		// A failure status is not the 2xx named; but going round
		// on "not 200" may be a poll's "not yet" (202 Accepted).
		p.pollTest = true
	case c < 408 && !(div == 1 && c >= 300 && eq):
		s.ambiguous = true
	}
}

func cmpInt(a int64, op token.Token, b int64) bool {
	switch op {
	case token.EQL:
		return a == b
	case token.NEQ:
		return a != b
	case token.LSS:
		return a < b
	case token.LEQ:
		return a <= b
	case token.GTR:
		return a > b
	case token.GEQ:
		return a >= b
	}
	return false
}

// nonNilError reports whether e is certainly a non-nil error: a sentinel
// (a package-level error variable), errors.New or fmt.Errorf.
func (s *sim) nonNilError(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		return astq.IsFunc(astq.Callee(s.info, e), "errors.New", "fmt.Errorf")
	case *ast.Ident, *ast.SelectorExpr:
		return s.w.isSentinel(e)
	}
	return false
}

// isSentinel reports whether e names a sentinel error: a package-level
// variable of type error (io.EOF, iterator.Done, ErrNotFound).
func (w *walker) isSentinel(e ast.Expr) bool {
	v, ok := w.usedObj(e).(*types.Var)
	return ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope() && isErrorType(v.Type())
}

// decide evaluates a branch condition and records whether the branch was
// decided by an operation's outcome.
func (s *sim) decide(cond ast.Expr, p *path) Tri {
	before := p.obs
	v := s.eval(cond, p)
	if v != Unknown && p.obs > before {
		s.seq++
		p.decided, p.decidedAt, p.byContent = true, s.seq, nil
	}
	return v
}

// partlyDecided reports whether cond is a conjunction one of whose terms
// the path's outcome makes true (err == nil on a success walk).
func (s *sim) partlyDecided(cond ast.Expr, p *path) bool {
	b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || b.Op != token.LAND {
		return false
	}
	for _, t := range []ast.Expr{b.X, b.Y} {
		q := p.clone()
		before := q.obs
		if s.eval(t, q) == Yes && q.obs > before || s.partlyDecided(t, p) {
			return true
		}
	}
	return false
}

// contentDecision returns the operation whose result, not its error,
// decides an if on a success walk that the outcome left undecided (v):
// the if's body must decide the round, going round or leaving.
func (s *sim) contentDecision(st *ast.IfStmt, v Tri, p *path) *ast.CallExpr {
	if v != Unknown || s.fail != nil || !s.w.leaves(st.Body) && !endsInJump(st.Body) {
		return nil
	}
	return s.readsContent(st.Cond, p)
}

// endsInJump reports whether a block ends by going round or leaving
// (continue, break, goto, return): a branch that decides the round.
func endsInJump(b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return false
	}
	switch b.List[len(b.List)-1].(type) {
	case *ast.BranchStmt, *ast.ReturnStmt:
		return true
	}
	return false
}

// readsContent returns the operation whose result, handed back beside
// its error on this path (data in data, err := op()), cond reads; a bool
// beside it is a flag, read as one (retry, err := op()).
func (s *sim) readsContent(cond ast.Expr, p *path) *ast.CallExpr {
	var op *ast.CallExpr
	ast.Inspect(cond, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if o := s.obj(id); o != nil && p.tainted[o] != nil && !isErrorType(o.Type()) && !isResponse(o.Type()) && !isBool(o.Type()) {
				op = p.tainted[o]
			}
		}
		return op == nil
	})
	return op
}

// mentionsOutcome reports whether cond looks at an error or a response
// status (values that carry an operation's outcome).
func (s *sim) mentionsOutcome(cond ast.Expr) bool {
	found := false
	ast.Inspect(cond, func(n ast.Node) bool {
		if e, ok := n.(ast.Expr); ok && !found {
			if t := s.info.TypeOf(e); t != nil && isErrorType(t) {
				found = true
			}
			if sel, ok := e.(*ast.SelectorExpr); ok && sel.Sel.Name == "StatusCode" {
				found = true
			}
		}
		return !found
	})
	return found
}

// consultsIn reports whether cond checks a context (ctx.Err()).
func (s *sim) consultsIn(cond ast.Expr) bool {
	found := false
	ast.Inspect(cond, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && s.w.consults(c) {
			found = true
		}
		return !found
	})
	return found
}

// successDriven reports whether the path left because of the outcome it
// tested, not inside a branch on something else taken since.
func (p *path) successDriven() bool {
	if !p.decided {
		return false
	}
	for _, sp := range p.splits {
		if sp.at > p.decidedAt && sp.node.Pos() <= p.exitPos && p.exitPos < sp.node.End() {
			return false
		}
	}
	return true
}

// goesRound reports whether st is a block that ends by going round
// again: a continue of the loop walked, or a goto back to its label.
func (s *sim) goesRound(st ast.Stmt) bool {
	b, ok := st.(*ast.BlockStmt)
	if !ok || len(b.List) == 0 {
		return false
	}
	br, ok := b.List[len(b.List)-1].(*ast.BranchStmt)
	if !ok {
		return false
	}
	var to types.Object
	if br.Label != nil {
		to = s.info.Uses[br.Label]
	}
	switch br.Tok {
	case token.CONTINUE:
		return s.loop != nil && (to == nil || s.label != nil && to == s.label)
	case token.GOTO:
		return s.gotoL != nil && to == s.gotoL
	}
	return false
}

func (s *sim) elseLeaves(e ast.Stmt) bool {
	if b, ok := e.(*ast.BlockStmt); ok {
		return s.alwaysLeaves(b)
	}
	return false
}

// alwaysLeaves reports whether a block ends by leaving and has no way
// round again inside (continue, the retry goto, a recursive call).
func (s *sim) alwaysLeaves(b *ast.BlockStmt) bool {
	if !s.w.leaves(b) {
		return false
	}
	round := false
	ast.Inspect(b, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BranchStmt:
			if n.Tok == token.CONTINUE || n.Tok == token.GOTO {
				round = true
			}
		case *ast.CallExpr:
			if s.isSelfCall(n) {
				round = true
			}
		}
		return !round
	})
	return !round
}
