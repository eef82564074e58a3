package libmodel

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"time"

	"github.com/retrylint/retrylint/analyzers/internal/astq"
)

const (
	failsafe       = "github.com/failsafe-go/failsafe-go"
	failsafeRetry  = "github.com/failsafe-go/failsafe-go/retrypolicy"
	k8sWait        = "k8s.io/apimachinery/pkg/util/wait"
	k8sRetry       = "k8s.io/client-go/util/retry"
	grpcMiddleware = "github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry"
	// go-grpc-middleware v1's retry package (grpc_retry): the same
	// interceptors, options and backoffs as v2's, without WithRetriable
	// and WithOnRetryCallback.
	grpcMiddlewareV1 = "github.com/grpc-ecosystem/go-grpc-middleware/retry"
	eapache          = "github.com/eapache/go-resiliency/retrier"
	awsRetry         = "github.com/aws/aws-sdk-go-v2/aws/retry"
	awsRatelimit     = "github.com/aws/aws-sdk-go-v2/aws/ratelimit"
)

// failsafe-go policies that limit load and so count as a budget.
var failsafeLimiters = []string{
	failsafe + "/circuitbreaker", failsafe + "/ratelimiter",
	failsafe + "/adaptivelimiter", failsafe + "/adaptivethrottler",
}

var failsafeRuns = []string{"Run", "Get", "RunWithExecution", "GetWithExecution", "RunAsync", "GetAsync", "RunAsyncWithExecution", "GetAsyncWithExecution"}

func failsafeSite(s *scope, call *ast.CallExpr, fn *types.Func) *Site {
	if !astq.IsFunc(fn, failsafe+".Executor."+fn.Name()) || !oneOf(fn.Name(), failsafeRuns) || len(call.Args) != 1 {
		return nil
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	exec := s.collect(sel.X, call.Pos())
	policies, withs, fromSlice := failsafeExecutorPolicies(s, exec)
	if fromSlice {
		return &Site{Call: call}
	}
	ps := failsafePoliciesOf(s, policies, call)
	if ps.opaque {
		return &Site{Call: call}
	}
	if ps.retries == 0 {
		if withs == 1 && !exec.opaque {
			return nil // no retry policy: not a retry site
		}
		return &Site{Call: call}
	}
	b := newSite(call)
	if ps.retries != 1 || withs != 1 || exec.opaque {
		return b.site
	}
	rp := readFailsafeRetry(s, ps.retry)
	switch rp.stop {
	case optionsUnseen:
		return b.site
	case optionsNoRetries:
		return nil // no retries: not a retry site
	}
	rp.judgeDelay(b, call, ps.retry)
	if rp.unbounded != nil && rp.maxDur == nil && rp.budget == nil {
		b.add(finding(CatUnbounded, rp.unbounded, "failsafe-go retry policy with no attempt limit (-1) and no WithMaxDuration has no bound").
			fix("Cap the retries at 3", replace(rp.unbounded.(*ast.CallExpr).Args[0], "3")))
	}
	if rp.budget == nil && !ps.limited {
		s.budgetIssue(b, "failsafe-go retry policy", call.Args[0], call)
	}
	return b.site
}

// failsafeExecutorPolicies returns the policies an executor is built with
// (failsafe.With(p...), Compose …) and how many With calls build it;
// fromSlice reports whether they come from a slice, which cannot be read.
func failsafeExecutorPolicies(s *scope, exec *cfg) (policies []ast.Expr, withs int, fromSlice bool) {
	for _, cc := range exec.calls {
		cfn := s.callee(cc)
		if cfn == nil || cfn.Pkg() == nil || cfn.Pkg().Path() != failsafe {
			continue
		}
		switch cfn.Name() {
		case "With", "WithAny", "Compose", "ComposeAny":
			if cfn.Name() == "With" || cfn.Name() == "WithAny" {
				withs++
			}
			if cc.Ellipsis.IsValid() {
				return nil, 0, true
			}
			policies = append(policies, cc.Args...)
		}
	}
	return policies, withs, false
}

// failsafePolicies is what an executor's policies are: how many retry
// policies (the last one's configuration), and whether one limits load.
type failsafePolicies struct {
	retry   *cfg
	retries int
	limited bool
	opaque  bool // a policy built where we cannot see
}

func failsafePoliciesOf(s *scope, policies []ast.Expr, call *ast.CallExpr) failsafePolicies {
	var ps failsafePolicies
	for _, p := range policies {
		pc := s.collect(p, call.Pos())
		if pc.opaque {
			return failsafePolicies{opaque: true}
		}
		for _, cc := range pc.calls {
			cfn := s.callee(cc)
			if cfn == nil || cfn.Pkg() == nil {
				continue
			}
			switch path := cfn.Pkg().Path(); {
			case path == failsafeRetry && (cfn.Name() == "NewBuilder" || cfn.Name() == "NewWithDefaults"):
				ps.retries++
				ps.retry = pc
			case oneOf(path, failsafeLimiters):
				ps.limited = true
			}
		}
	}
	return ps
}

// failsafeRetryPolicy is the builder calls of a failsafe-go retry policy
// that decide its verdicts.
type failsafeRetryPolicy struct {
	delay, growth, jitter, budget, maxDur, unbounded ast.Node
	stop                                             optionStop
}

// failsafeRetryOptions read one builder call each, by method name.
var failsafeRetryOptions = map[string]func(rp *failsafeRetryPolicy, s *scope, cc *ast.CallExpr, name string){
	"WithDelay":         func(rp *failsafeRetryPolicy, _ *scope, cc *ast.CallExpr, _ string) { rp.delay = cc },
	"WithDelayFunc":     func(rp *failsafeRetryPolicy, _ *scope, _ *ast.CallExpr, _ string) { rp.stop = optionsUnseen },
	"WithBackoff":       func(rp *failsafeRetryPolicy, _ *scope, cc *ast.CallExpr, _ string) { rp.growth = cc },
	"WithBackoffFactor": func(rp *failsafeRetryPolicy, _ *scope, cc *ast.CallExpr, _ string) { rp.growth = cc },
	"WithRandomDelay":   func(rp *failsafeRetryPolicy, _ *scope, cc *ast.CallExpr, _ string) { rp.jitter = cc },
	"WithJitter":        func(rp *failsafeRetryPolicy, _ *scope, cc *ast.CallExpr, _ string) { rp.jitter = cc },
	"WithJitterFactor":  func(rp *failsafeRetryPolicy, _ *scope, cc *ast.CallExpr, _ string) { rp.jitter = cc },
	"WithBudget":        func(rp *failsafeRetryPolicy, _ *scope, cc *ast.CallExpr, _ string) { rp.budget = cc },
	"WithMaxDuration":   func(rp *failsafeRetryPolicy, _ *scope, cc *ast.CallExpr, _ string) { rp.maxDur = cc },
	"WithMaxRetries":    (*failsafeRetryPolicy).maxRetries,
	"WithMaxAttempts":   (*failsafeRetryPolicy).maxRetries,
}

// maxRetries reads WithMaxRetries and WithMaxAttempts: -1 is unbounded,
// and a limit that allows no retry makes the call no retry site.
func (rp *failsafeRetryPolicy) maxRetries(s *scope, cc *ast.CallExpr, name string) {
	rp.unbounded = nil
	if len(cc.Args) != 1 {
		return
	}
	n, ok := s.intConst(cc.Args[0])
	if ok && n == -1 {
		rp.unbounded = cc
	}
	if ok && (name == "WithMaxRetries" && n == 0 || name == "WithMaxAttempts" && n == 1) {
		rp.stop = optionsNoRetries
	}
}

func readFailsafeRetry(s *scope, retry *cfg) *failsafeRetryPolicy {
	rp := &failsafeRetryPolicy{}
	for _, cc := range retry.calls {
		cfn := s.callee(cc)
		if cfn == nil || cfn.Pkg() == nil || cfn.Pkg().Path() != failsafeRetry && cfn.Pkg().Path() != failsafe {
			continue
		}
		if read := failsafeRetryOptions[cfn.Name()]; read != nil {
			read(rp, s, cc, cfn.Name())
			if rp.stop != optionsReadAll {
				break
			}
		}
	}
	return rp
}

// judgeDelay flags a policy that backs off without jitter, waits a fixed
// delay, or does not wait at all.
func (rp *failsafeRetryPolicy) judgeDelay(b *siteBuilder, call *ast.CallExpr, retry *cfg) {
	switch {
	case rp.growth != nil && rp.jitter == nil:
		b.add(finding(CatNoJitter, rp.growth, "failsafe-go retry policy backs off without jitter").
			fix("Add WithJitterFactor(0.25)", insert(rp.growth.End(), ".WithJitterFactor(0.25)")))
	case rp.growth == nil && rp.delay != nil && rp.jitter == nil:
		b.add(finding(CatFixedDelay, rp.delay, "failsafe-go retry policy WithDelay waits the same delay between attempts"))
	case rp.growth == nil && rp.delay == nil && rp.jitter == nil:
		at := ast.Node(call)
		if len(retry.calls) > 0 {
			at = retry.calls[0]
		}
		b.add(finding(CatNoDelay, at, "failsafe-go retry policy without a delay retries at once"))
	}
}

// k8s: a wait.Backoff literal or a client-go default.
func (s *scope) k8sBackoff(e ast.Expr, at ast.Node) (lit *ast.CompositeLit, factor, jit float64, fields []*ast.AssignStmt, ok bool) {
	if s.objIs(e, k8sRetry, "DefaultRetry") || s.objIs(e, k8sRetry, "DefaultBackoff") {
		return nil, 1, 0.1, nil, true // both have Jitter 0.1 (client-go util/retry)
	}
	c := s.collect(e, at.Pos())
	if c.opaque || len(c.lits) != 1 || len(c.calls) > 0 {
		return nil, 0, 0, nil, false
	}
	lit = c.lits[0]
	if namedOf(s.env.Info.TypeOf(lit), k8sWait) != "Backoff" {
		return nil, 0, 0, nil, false
	}
	if _, keyed := litField(lit, "X"); !keyed {
		return nil, 0, 0, nil, false
	}
	get := func(name string) (float64, bool) {
		v, _ := litField(lit, name)
		if fv, unsure := fieldSet(c.fields, name); unsure {
			return 0, false
		} else if fv != nil {
			v = fv
		}
		if v == nil {
			return 0, true
		}
		return s.floatConst(v)
	}
	factor, ok1 := get("Factor")
	jit, ok2 := get("Jitter")
	return lit, factor, jit, c.fields, ok1 && ok2
}

// k8sShortWaits reports whether the sleeps of a wait.Backoff, all steps
// together, are known to stay under a second: a caller cancelled meanwhile
// waits less than that (SPEC, "Cancellation, not only time": client-go's
// DefaultRetry). wait.ExponentialBackoff sleeps Steps-1 times, each
// delay stretched by up to Jitter and grown by Factor up to Cap.
func (s *scope) k8sShortWaits(e ast.Expr, at ast.Node) bool {
	if s.objIs(e, k8sRetry, "DefaultRetry") || s.objIs(e, k8sRetry, "DefaultBackoff") {
		return true // 4 × 10ms, and 10ms + 50ms + 250ms, each +10% at most
	}
	c := s.collect(e, at.Pos())
	if c.opaque || len(c.lits) != 1 || len(c.calls) > 0 || len(c.fields) > 0 {
		return false
	}
	lit := c.lits[0]
	if namedOf(s.env.Info.TypeOf(lit), k8sWait) != "Backoff" {
		return false
	}
	if _, keyed := litField(lit, "X"); !keyed {
		return false
	}
	val := map[string]float64{}
	for _, name := range []string{"Steps", "Duration", "Factor", "Jitter", "Cap"} {
		v, _ := litField(lit, name)
		if v == nil {
			continue
		}
		f, ok := s.floatConst(v)
		if !ok || f < 0 {
			return false
		}
		val[name] = f
	}
	steps := val["Steps"]
	if steps < 1 || steps > 100 {
		return false
	}
	const second = float64(time.Second)
	total, d := 0.0, val["Duration"]
	for i := 1; i < int(steps); i++ {
		total += d * (1 + val["Jitter"])
		if total >= second {
			return false
		}
		if val["Factor"] != 0 {
			d *= val["Factor"]
		}
		if val["Cap"] > 0 && d > val["Cap"] {
			d = val["Cap"]
		}
	}
	return total < second
}

func k8sWaitSite(s *scope, call *ast.CallExpr, fn *types.Func) *Site {
	switch {
	case astq.IsFunc(fn, k8sWait+".ExponentialBackoff") && len(call.Args) == 2:
		return s.k8sSite(call, call.Args[0], call.Args[1], "wait.ExponentialBackoff", true)
	case astq.IsFunc(fn, k8sWait+".ExponentialBackoffWithContext") && len(call.Args) == 3:
		return s.k8sSite(call, call.Args[1], call.Args[2], "wait.ExponentialBackoffWithContext", false)
	}
	if i, ok := k8sPollCond[fn.Name()]; ok && fn.Pkg() != nil && fn.Pkg().Path() == k8sWait && i < len(call.Args) {
		return s.k8sPollSite(call, call.Args[i], "wait."+fn.Name())
	}
	return nil
}

// k8sPollCond gives the condition's argument of the wait.Poll functions:
// they call it at a fixed interval until it says done.
var k8sPollCond = map[string]int{
	"PollUntilContextCancel": 3, "PollUntilContextTimeout": 4,
	"Poll": 2, "PollImmediate": 2, "PollWithContext": 3, "PollImmediateWithContext": 3,
	"PollInfinite": 1, "PollImmediateInfinite": 1, "PollUntil": 1, "PollImmediateUntil": 1,
}

// k8sPollSite: polling is no retry (SPEC), unless the condition retries a
// failed call: it answers "not done, no error" on a call's error
// (if apierrors.IsConflict(err) { return false, nil }). Then the poll is a
// retry at the poll's interval, the same every round.
func (s *scope) k8sPollSite(call *ast.CallExpr, cond ast.Expr, what string) *Site {
	lit, ok := ast.Unparen(cond).(*ast.FuncLit)
	if !ok {
		return nil
	}
	retry := s.retriesFailure(lit)
	if retry == nil {
		return nil
	}
	b := newSite(call)
	b.add(finding(CatFixedDelay, call, what+" calls again at the same interval after a failed call").
		related(retry, "a failure polls again here"))
	return b.site
}

// retriesFailure returns a `return false, nil` of lit that stands in a
// branch taken on the error of a call lit makes (if err != nil,
// if apierrors.IsConflict(err)), or nil.
func (s *scope) retriesFailure(lit *ast.FuncLit) *ast.ReturnStmt {
	errs := map[types.Object]bool{}
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Rhs) != 1 {
			return true
		}
		if _, isCall := ast.Unparen(as.Rhs[0]).(*ast.CallExpr); !isCall {
			return true
		}
		for _, l := range as.Lhs {
			if id, ok := l.(*ast.Ident); ok {
				if o := s.env.Info.ObjectOf(id); o != nil && types.Identical(o.Type(), types.Universe.Lookup("error").Type()) {
					errs[o] = true
				}
			}
		}
		return true
	})
	var found *ast.ReturnStmt
	var onErr []int // for each enclosing if: what its condition says of a call's error
	var walk func(n ast.Node) bool
	walk = func(n ast.Node) bool {
		if found != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return n == lit
		case *ast.IfStmt:
			if n.Init != nil {
				ast.Inspect(n.Init, walk)
			}
			kind := 0 // not about a call's error
			if s.mentionsAny(n.Cond, errs) {
				kind = 1 // a failure
				if s.absence(n.Cond) {
					kind = 2 // not there yet: awaited
				}
			}
			onErr = append(onErr, kind)
			ast.Inspect(n.Body, walk)
			onErr = onErr[:len(onErr)-1]
			if n.Else != nil {
				ast.Inspect(n.Else, walk)
			}
			return false
		case *ast.ReturnStmt:
			if len(n.Results) == 2 && s.isConst(n.Results[0], "false") && s.isConst(n.Results[1], "nil") && failureBranch(onErr) {
				found = n
			}
		}
		return true
	}
	ast.Inspect(lit.Body, walk)
	if found == nil {
		found = s.afterSuccessExit(lit.Body.List, errs)
	}
	return found
}

// afterSuccessExit returns a `return false, nil` that ends the statements
// after `if err == nil { return true, nil }` on a call's error: what falls
// through is the failure.
func (s *scope) afterSuccessExit(list []ast.Stmt, errs map[types.Object]bool) *ast.ReturnStmt {
	exited := false
	for _, st := range list {
		switch st := st.(type) {
		case *ast.IfStmt:
			b, ok := ast.Unparen(st.Cond).(*ast.BinaryExpr)
			if ok && b.Op == token.EQL && s.mentionsAny(b.X, errs) && s.isConst(b.Y, "nil") && len(st.Body.List) > 0 {
				if r, ok := st.Body.List[len(st.Body.List)-1].(*ast.ReturnStmt); ok && len(r.Results) == 2 && s.isConst(r.Results[0], "true") {
					exited = true
				}
			}
		case *ast.ReturnStmt:
			if exited && len(st.Results) == 2 && s.isConst(st.Results[0], "false") && s.isConst(st.Results[1], "nil") {
				return st
			}
		}
	}
	return nil
}

// failureBranch reports whether the innermost enclosing condition about a
// call's error took the failure branch (not an absence one).
func failureBranch(onErr []int) bool {
	for i := len(onErr) - 1; i >= 0; i-- {
		if onErr[i] != 0 {
			return onErr[i] == 1
		}
	}
	return false
}

// absence reports whether cond asks whether the thing is not there yet
// (apierrors.IsNotFound(err), os.IsNotExist(err), errors.Is(err,
// fs.ErrNotExist)): waiting for it to appear is polling, not retrying a
// failure.
func (s *scope) absence(cond ast.Expr) bool {
	found := false
	ast.Inspect(cond, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok {
			return !found
		}
		fn := s.callee(c)
		switch {
		case astq.IsFunc(fn, "k8s.io/apimachinery/pkg/api/errors.IsNotFound"), astq.IsFunc(fn, "os.IsNotExist"):
			found = true
		case astq.IsFunc(fn, "errors.Is") && len(c.Args) == 2:
			found = s.objIs(c.Args[1], "io/fs", "ErrNotExist") || s.objIs(c.Args[1], "os", "ErrNotExist")
		}
		return !found
	})
	return found
}

// isConst reports whether e is the universe's false, true or nil.
func (s *scope) isConst(e ast.Expr, name string) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && s.env.Info.Uses[id] == types.Universe.Lookup(name)
}

// mentionsAny reports whether e refers to one of objs.
func (s *scope) mentionsAny(e ast.Expr, objs map[types.Object]bool) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && objs[s.env.Info.Uses[id]] {
			found = true
		}
		return !found
	})
	return found
}

func k8sRetrySite(s *scope, call *ast.CallExpr, fn *types.Func) *Site {
	switch {
	// Both run wait.ExponentialBackoff, which sleeps with time.Sleep: a
	// caller's context in scope is never observed between attempts.
	case astq.IsFunc(fn, k8sRetry+".OnError") && len(call.Args) == 3:
		return s.bgAttempts(s.k8sSite(call, call.Args[0], call.Args[2], "retry.OnError", true), call.Args[2], "retry.OnError")
	case astq.IsFunc(fn, k8sRetry+".RetryOnConflict") && len(call.Args) == 2:
		// A retry site around a remote call like any other (SPEC): the
		// operation's remote calls need a budget, conflict or not.
		return s.bgAttempts(s.k8sSite(call, call.Args[0], call.Args[1], "retry.RetryOnConflict", true), call.Args[1], "retry.RetryOnConflict")
	}
	return nil
}

// bgAttempts adds the deadline finding of a library that sleeps with
// time.Sleep and takes no context, whose operation makes its calls under
// a context.Background or TODO it creates (cs.Get(context.TODO(), ...)),
// when no context reaches the function: nothing bounds the attempts in
// time. A timeout in the operation is a per-attempt deadline: silent.
func (s *scope) bgAttempts(site *Site, op ast.Expr, what string) *Site {
	lit, ok := ast.Unparen(op).(*ast.FuncLit)
	if !ok || site == nil || s.ctxParam() != "" {
		return site
	}
	var bg *ast.CallExpr
	timeout := false
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fn := s.callee(c)
		switch {
		case astq.IsFunc(fn, "context.Background") || astq.IsFunc(fn, "context.TODO"):
			if bg == nil {
				bg = c
			}
		case astq.IsFunc(fn, "context.WithTimeout") || astq.IsFunc(fn, "context.WithDeadline"):
			timeout = true
		}
		return true
	})
	if bg != nil && !timeout {
		site.Findings = append(site.Findings, finding(CatBackground, bg, what+" runs its attempts under a context made by context."+s.callee(bg).Name()+", and sleeps with time.Sleep"))
	}
	return site
}

func (s *scope) k8sSite(call *ast.CallExpr, bo, op ast.Expr, what string, noCtx bool) *Site {
	b := newSite(call)
	lit, factor, jit, fields, ok := s.k8sBackoff(bo, call)
	if ok && jit <= 0 {
		at := ast.Node(bo)
		if lit != nil {
			at = lit
			if v, _ := litField(lit, "Jitter"); v != nil {
				at = v
			}
		}
		if factor == 0 || factor == 1 {
			b.add(finding(CatFixedDelay, at, "wait.Backoff with Factor "+ftoa(factor)+" and no Jitter waits the same delay between attempts"))
		} else if factor > 1 {
			i := finding(CatNoJitter, at, "wait.Backoff grows by Factor "+ftoa(factor)+" without Jitter")
			if lit != nil && len(fields) == 0 {
				if v, _ := litField(lit, "Jitter"); v != nil {
					i = i.fix("Set Jitter to 0.1", replace(v, "0.1"))
				} else {
					i = i.fix("Set Jitter to 0.1", addLitField(lit, "Jitter", "0.1"))
				}
			}
			b.add(i)
		}
	}
	if noCtx && !s.k8sShortWaits(bo, call) {
		if name := s.ctxParam(); name != "" {
			b.add(finding(CatNoContext, call, what+" sleeps with time.Sleep and never observes "+name))
		}
	}
	if op != nil {
		s.budgetIssue(b, what, op, call)
	}
	return b.site
}

func ftoa(f float64) string {
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// grpcMiddlewareSite judges the retry interceptors of the
// go-grpc-middleware retry package pkg (v2's, or v1's).
func grpcMiddlewareSite(pkg string) func(s *scope, call *ast.CallExpr, fn *types.Func) *Site {
	return func(s *scope, call *ast.CallExpr, fn *types.Func) *Site {
		return grpcRetrySite(s, call, fn, pkg)
	}
}

func grpcRetrySite(s *scope, call *ast.CallExpr, fn *types.Func, pkg string) *Site {
	if !astq.IsFunc(fn, pkg+".UnaryClientInterceptor") && !astq.IsFunc(fn, pkg+".StreamClientInterceptor") {
		return nil
	}
	opts, ok := s.options(call, 0)
	if !ok {
		return &Site{Call: call}
	}
	var max, bf ast.Expr
	budget, custom := false, false
	for _, oc := range opts {
		ofn := s.callee(oc)
		if ofn == nil || ofn.Pkg() == nil || ofn.Pkg().Path() != pkg {
			return &Site{Call: call}
		}
		if len(oc.Args) != 1 && ofn.Name() != "Disable" && ofn.Name() != "WithCodes" {
			continue
		}
		switch ofn.Name() {
		case "WithMax":
			max = oc.Args[0]
		case "WithBackoff":
			bf = oc.Args[0]
		case "Disable":
			return nil
		case "WithRetriable", "WithOnRetryCallback":
			custom = true
			if r, ok := s.resolve(oc.Args[0]); ok {
				if lit, ok := r.(*ast.FuncLit); ok && s.budgeted(lit) {
					budget = true
				}
			}
		}
	}
	if max == nil {
		return nil // the default max is 0: retries off unless a call enables them
	}
	if n, ok := s.intConst(max); ok && n == 0 {
		return nil
	}
	b := newSite(call)
	if bf != nil {
		judgeGRPCBackoff(s, b, bf, pkg)
	}
	if !budget && !custom {
		b.add(finding(CatNoBudget, call, "go-grpc-middleware retry interceptor retries with no retry budget"))
	}
	return b.site
}

// judgeGRPCBackoff flags the middleware's backoffs without jitter; their
// WithJitter twins take one more argument, so the fix is mechanical.
func judgeGRPCBackoff(s *scope, b *siteBuilder, bf ast.Expr, pkg string) {
	r, ok := s.resolve(bf)
	if !ok {
		return
	}
	bc, ok := r.(*ast.CallExpr)
	if !ok || len(bc.Args) != 1 {
		return
	}
	q := s.qualifier(pkg)
	bfn := s.callee(bc)
	switch {
	case astq.IsFunc(bfn, pkg+".BackoffLinear"):
		i := finding(CatFixedDelay, bc, "retry.BackoffLinear waits the same delay between attempts")
		if q != "" {
			i = i.fix("Use retry.BackoffLinearWithJitter", replace(bc.Fun, q+".BackoffLinearWithJitter"), insert(bc.Args[0].End(), ", 0.1"))
		}
		b.add(i)
	case astq.IsFunc(bfn, pkg+".BackoffExponential"):
		i := finding(CatNoJitter, bc, "retry.BackoffExponential grows without jitter")
		if q != "" {
			i = i.fix("Use retry.BackoffExponentialWithJitter", replace(bc.Fun, q+".BackoffExponentialWithJitter"), insert(bc.Args[0].End(), ", 0.1"))
		}
		b.add(i)
	}
}

func eapacheSite(s *scope, call *ast.CallExpr, fn *types.Func) *Site {
	if !astq.IsFunc(fn, eapache+".Retrier."+fn.Name()) || !oneOf(fn.Name(), []string{"Run", "RunCtx", "RunFn"}) {
		return nil
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || len(call.Args) == 0 {
		return nil
	}
	b := newSite(call)
	c := s.collect(sel.X, call.Pos())
	var news []*ast.CallExpr
	jitter, infinite := false, false
	for _, cc := range c.calls {
		cfn := s.callee(cc)
		switch {
		case astq.IsFunc(cfn, eapache+".New"):
			news = append(news, cc)
		case astq.IsFunc(cfn, eapache+".Retrier.SetJitter") && len(cc.Args) == 1:
			if f, ok := s.floatConst(cc.Args[0]); !ok || f > 0 && f <= 1 {
				jitter = true
			}
		case astq.IsFunc(cfn, eapache+".Retrier.WithInfiniteRetry"):
			infinite = true
		}
	}
	if c.opaque || len(news) != 1 || len(news[0].Args) != 2 {
		return b.site
	}
	var policy *ast.CallExpr
	if r, ok := s.resolve(news[0].Args[0]); ok {
		policy, _ = r.(*ast.CallExpr)
	}
	if policy != nil && !jitter {
		pfn := s.callee(policy)
		switch {
		case astq.IsFunc(pfn, eapache+".ConstantBackoff"):
			b.add(finding(CatFixedDelay, policy, "retrier.ConstantBackoff without SetJitter waits the same delay between attempts"))
		case astq.IsFunc(pfn, eapache+".ExponentialBackoff"), astq.IsFunc(pfn, eapache+".LimitedExponentialBackoff"):
			b.add(finding(CatNoJitter, policy, "retrier."+pfn.Name()+" without SetJitter grows without jitter"))
		}
	}
	op := call.Args[len(call.Args)-1]
	ctx := ctxBackground
	if fn.Name() != "Run" {
		ctx, _ = s.context(call.Args[0])
	}
	if infinite && ctx == ctxBackground {
		b.add(finding(CatUnbounded, call, "retrier with WithInfiniteRetry and no deadline"))
	}
	if fn.Name() == "Run" {
		if name := s.ctxParam(); name != "" {
			b.add(finding(CatNoContext, call, "retrier.Run never observes "+name+" (RunCtx does)"))
		}
	}
	s.budgetIssue(b, "retrier."+fn.Name(), op, call)
	return b.site
}

func awsSite(s *scope, call *ast.CallExpr, fn *types.Func) *Site {
	switch {
	case astq.IsFunc(fn, awsRetry+".AddWithMaxAttempts") && len(call.Args) == 2:
		if s.isZero(call.Args[1]) {
			b := newSite(call)
			b.add(finding(CatUnbounded, call, "retry.AddWithMaxAttempts with 0 lets the aws retryer retry without limit"))
			return b.site
		}
	case astq.IsFunc(fn, awsRetry+".NewStandard") || astq.IsFunc(fn, awsRetry+".NewAdaptiveMode"):
		var none ast.Node
		for _, a := range call.Args {
			r, ok := s.resolve(a)
			if !ok {
				continue
			}
			ast.Inspect(r, func(n ast.Node) bool {
				as, ok := n.(*ast.AssignStmt)
				if !ok || len(as.Lhs) != len(as.Rhs) {
					return true
				}
				for i, l := range as.Lhs {
					if sel, ok := l.(*ast.SelectorExpr); ok && sel.Sel.Name == "RateLimiter" && s.objIs(as.Rhs[i], awsRatelimit, "None") {
						none = as
					}
				}
				return true
			})
		}
		if none != nil {
			b := newSite(call)
			b.add(finding(CatNoBudget, none, "aws retryer with ratelimit.None has no retry token bucket"))
			return b.site
		}
	}
	return nil
}
