package libmodel

import (
	"go/ast"
	"go/types"
)

const (
	avast   = "github.com/avast/retry-go/v4"
	avastV5 = "github.com/avast/retry-go/v5"
	goRetry = "github.com/sethvargo/go-retry"
)

// options returns the option calls of a variadic argument list, following
// a spread slice literal; ok is false when an option cannot be seen.
func (s *scope) options(call *ast.CallExpr, from int) (opts []*ast.CallExpr, ok bool) {
	args := call.Args[from:]
	if call.Ellipsis.IsValid() && len(args) == 1 {
		r, ok := s.resolve(args[0])
		lit, isLit := r.(*ast.CompositeLit)
		if !ok || !isLit {
			return nil, false
		}
		if v := s.localVar(stripAddr(args[0])); v != nil && len(s.fields[v])+len(s.calls[v]) > 0 {
			return nil, false
		}
		args = lit.Elts
	}
	for _, a := range args {
		r, ok := s.resolve(a)
		oc, isCall := r.(*ast.CallExpr)
		if !ok || !isCall {
			return nil, false
		}
		opts = append(opts, oc)
	}
	return opts, true
}

func avastSite(s *scope, call *ast.CallExpr, fn *types.Func) *Site {
	if !is(fn, avast, "", "Do") && !is(fn, avast, "", "DoWithData") || len(call.Args) < 1 {
		return nil
	}
	return avastJudge(s, call, call, 1, avast)
}

// avastV5Site: v5 runs the operation with (*Retrier).Do or
// (*RetrierWithData[T]).Do on a retrier built by New(opts...) or
// NewWithData[T](opts...), here or in a variable assigned once.
func avastV5Site(s *scope, call *ast.CallExpr, fn *types.Func) *Site {
	if !is(fn, avastV5, "Retrier", "Do") && !is(fn, avastV5, "RetrierWithData", "Do") || len(call.Args) != 1 {
		return nil
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	r, ok := s.resolve(sel.X)
	nc, isCall := r.(*ast.CallExpr)
	if !ok || !isCall {
		return newSite(call).site // a retrier from elsewhere: its options are not known
	}
	if nfn := s.callee(nc); !is(nfn, avastV5, "", "New") && !is(nfn, avastV5, "", "NewWithData") {
		return newSite(call).site
	}
	return avastJudge(s, call, nc, 0, avastV5)
}

// avastJudge judges a retry-go call: the operation is call.Args[0], the
// options are optCall's arguments from index from on (v4: the Do call
// itself; v5: the New call).
func avastJudge(s *scope, call, optCall *ast.CallExpr, from int, mod string) *Site {
	b := newSite(call)
	b.site.Op = call.Args[0]
	opts, ok := s.options(optCall, from)
	if !ok {
		return b.site
	}
	throttled := false
	var (
		attempts   = true // the default 10 is a cap
		attemptsAt ast.Node
		ctxOpt     *ast.CallExpr
		delayType  *ast.CallExpr
	)
	for _, oc := range opts {
		ofn := s.callee(oc)
		if ofn == nil || ofn.Pkg() == nil || ofn.Pkg().Path() != mod {
			return b.site // an option we do not know
		}
		switch ofn.Name() {
		case "WithThrottle", "WithFixedTokenBucketThrottle":
			throttled = true // v5's token bucket: a retry budget
		case "Attempts":
			if len(oc.Args) == 1 {
				n, known := s.intConst(oc.Args[0])
				if known && n == 1 {
					return nil // one attempt: not a retry site
				}
				attempts = !known || n != 0
				attemptsAt = oc
			}
		case "UntilSucceeded":
			attempts, attemptsAt = false, oc
		case "Context":
			ctxOpt = oc
		case "DelayType":
			delayType = oc
		}
	}
	q := s.qualifier(mod)
	if delayType != nil && len(delayType.Args) == 1 {
		arg := delayType.Args[0]
		switch {
		case s.objIs(arg, mod, "BackOffDelay"):
			i := issue(Jitter, CatNoJitter, arg, "retry.DelayType(retry.BackOffDelay) grows the delay without jitter: "+consNoJitter)
			if q != "" {
				i = i.fix("Use retry.FullJitterBackoffDelay", replace(arg, q+".FullJitterBackoffDelay"))
			}
			b.add(i)
		case s.objIs(arg, mod, "FixedDelay"):
			b.add(issue(Sleep, CatFixedDelay, arg, "retry.DelayType(retry.FixedDelay) waits the same delay between attempts: "+consFixed))
		}
	}
	ctx := ctxUnknown
	if ctxOpt != nil && len(ctxOpt.Args) == 1 {
		ctx, _ = s.context(ctxOpt.Args[0])
	}
	if !attempts && ctx != ctxOther && (ctxOpt == nil || ctx == ctxBackground) {
		i := issue(Budget, CatUnbounded, attemptsAt, "retry.Do with no attempt limit (Attempts(0) or UntilSucceeded) and no deadline: "+consUnbounded)
		if oc, ok := attemptsAt.(*ast.CallExpr); ok && q != "" {
			if len(oc.Args) == 1 {
				i = i.fix("Cap the attempts at 3", replace(oc.Args[0], "3"))
			} else {
				i = i.fix("Cap the attempts at 3", replace(oc, q+".Attempts(3)"))
			}
		}
		b.add(i)
	}
	if ctxOpt == nil {
		if name := s.ctxParam(); name != "" {
			i := issue(Deadline, CatNoContext, call, "retry.Do without retry.Context("+name+") waits on context.Background: "+consNoCtx)
			if q := s.qualifier(mod); q != "" && !optCall.Ellipsis.IsValid() {
				opt := q + ".Context(" + name + ")"
				switch {
				case from == 1: // after the operation: no other fix edits it
					i = i.fix("Add retry.Context("+name+")", insert(call.Args[0].End(), ", "+opt))
				case len(optCall.Args) > 0: // first of New's options
					i = i.fix("Add retry.Context("+name+")", insert(optCall.Args[0].Pos(), opt+", "))
				default:
					i = i.fix("Add retry.Context("+name+")", insert(optCall.Rparen, opt))
				}
			}
			b.add(i)
		}
	} else if ctx == ctxBackground && !attempts {
		b.add(issue(Deadline, CatBackground, ctxOpt, "retry.Context with a context made by context.Background has no deadline: "+consBgCtx))
	}
	if !throttled {
		s.budgetIssue(b, "retry.Do", call.Args[0], call)
	}
	b.site.Budgetless = !throttled // every option seen
	return b.site
}

func goRetrySite(s *scope, call *ast.CallExpr, fn *types.Func) *Site {
	if fn.Pkg().Path() != goRetry || fn.Type().(*types.Signature).Recv() != nil || len(call.Args) != 3 {
		return nil
	}
	name := fn.Name()
	b := newSite(call)
	q := s.qualifier(goRetry)
	var (
		base            ast.Node
		growing, fixed  bool
		jitter, bounded bool
		maxDuration     bool
	)
	switch name {
	case "Do", "DoValue":
		c := s.collect(call.Args[1], call.Pos())
		if c.opaque {
			return b.site
		}
		var bases []*ast.CallExpr
		for _, bc := range c.calls {
			bfn := s.callee(bc)
			if bfn == nil || bfn.Pkg() == nil {
				continue
			}
			if bfn.Pkg().Path() != goRetry {
				return b.site // a backoff from elsewhere
			}
			switch bfn.Name() {
			case "NewExponential", "NewFibonacci":
				bases, growing = append(bases, bc), true
			case "NewConstant":
				bases, fixed = append(bases, bc), true
			case "WithJitter", "WithJitterPercent", "WithFullJitter":
				jitter = true
			case "WithMaxRetries":
				bounded = true
				if len(bc.Args) == 2 && s.isZero(bc.Args[0]) {
					return nil // no retries: not a retry site
				}
			case "WithMaxDuration":
				bounded, maxDuration = true, true
			case "BackoffFunc":
				return b.site
			}
		}
		if len(bases) != 1 || len(c.lits) > 0 {
			return b.site
		}
		base = bases[0]
	case "Exponential", "Fibonacci":
		base, growing = call, true
	case "Constant":
		base, fixed = call, true
	default:
		return nil
	}
	switch {
	case growing && !jitter:
		i := issue(Jitter, CatNoJitter, base, "retry."+calleeName(s, base)+" backoff has no jitter: "+consNoJitter)
		if q != "" && base != ast.Node(call) {
			i = i.fix("Wrap the backoff in retry.WithFullJitter", insert(base.Pos(), q+".WithFullJitter("), insert(base.End(), ")"))
		}
		b.add(i)
	case fixed && !jitter:
		b.add(issue(Sleep, CatFixedDelay, base, "retry."+calleeName(s, base)+" waits the same delay between attempts: "+consFixed))
	}
	if body := s.funcBody(call.Args[2]); body != nil && !s.mentions(body, goRetry, "RetryableError") {
		return nil // only errors wrapped in RetryableError are retried
	}
	ctx, _ := s.context(call.Args[0])
	if !bounded && ctx != ctxOther && ctx != ctxUnknown {
		b.add(issue(Budget, CatUnbounded, base, "retry."+name+" with no WithMaxRetries and no WithMaxDuration has no bound: "+consUnbounded))
	}
	if ctx == ctxBackground && !maxDuration {
		b.add(issue(Deadline, CatBackground, call.Args[0], "retry."+name+" under context.Background with no WithMaxDuration has no deadline: "+consBgCtx))
	}
	s.budgetIssue(b, "retry."+name, call.Args[2], call)
	return b.site
}

func calleeName(s *scope, n ast.Node) string {
	if call, ok := n.(*ast.CallExpr); ok {
		if fn := s.callee(call); fn != nil {
			return fn.Name()
		}
	}
	return "Do"
}

// mentions reports whether the code refers to pkgPath.name.
func (s *scope) mentions(n ast.Node, pkgPath, name string) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == name {
			if o := s.env.Info.Uses[id]; o != nil && o.Pkg() != nil && o.Pkg().Path() == pkgPath {
				found = true
			}
		}
		return !found
	})
	return found
}
