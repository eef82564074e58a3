package libmodel

import (
	"go/ast"
	"go/types"

	"github.com/retrylint/retrylint/analyzers/internal/astq"
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
	if !astq.IsFunc(fn, avast+".Do") && !astq.IsFunc(fn, avast+".DoWithData") || len(call.Args) < 1 {
		return nil
	}
	return avastJudge(s, call, call, 1, avast)
}

// avastV5Site: v5 runs the operation with (*Retrier).Do or
// (*RetrierWithData[T]).Do on a retrier built by New(opts...) or
// NewWithData[T](opts...), here or in a variable assigned once.
func avastV5Site(s *scope, call *ast.CallExpr, fn *types.Func) *Site {
	if !astq.IsFunc(fn, avastV5+".Retrier.Do") && !astq.IsFunc(fn, avastV5+".RetrierWithData.Do") || len(call.Args) != 1 {
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
	if nfn := s.callee(nc); !astq.IsFunc(nfn, avastV5+".New") && !astq.IsFunc(nfn, avastV5+".NewWithData") {
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
	o := s.avastOptionsOf(opts, mod)
	switch o.stop {
	case optionsUnseen:
		return b.site
	case optionsNoRetries:
		return nil // one attempt: not a retry site
	}
	q := s.qualifier(mod)
	if o.delayType != nil && len(o.delayType.Args) == 1 {
		s.judgeAvastDelay(b, o.delayType.Args[0], mod, q)
	}
	ctx := ctxUnknown
	if o.ctxOpt != nil && len(o.ctxOpt.Args) == 1 {
		ctx, _ = s.context(o.ctxOpt.Args[0])
	}
	if !o.attempts && ctx != ctxOther && (o.ctxOpt == nil || ctx == ctxBackground) {
		b.add(avastUnbounded(o.attemptsAt, q))
	}
	if o.ctxOpt == nil {
		if name := s.ctxParam(); name != "" {
			b.add(s.avastNoContext(call, optCall, from, mod, name))
		}
	} else if ctx == ctxBackground && !o.attempts {
		b.add(finding(CatBackground, o.ctxOpt, "retry.Context with a context made by context.Background has no deadline"))
	}
	if !o.throttled {
		s.budgetIssue(b, "retry.Do", call.Args[0], call)
	}
	b.site.Budgetless = !o.throttled // every option seen
	return b.site
}

// avastOptions are the retry-go options that decide its verdicts.
type avastOptions struct {
	throttled  bool // v5's token bucket: a retry budget
	attempts   bool // the attempts are capped
	attemptsAt ast.Node
	ctxOpt     *ast.CallExpr
	delayType  *ast.CallExpr
	stop       optionStop
}

// avastOptionsOf reads the options; reading stops at an option of another
// package, which we do not know, and at Attempts(1).
func (s *scope) avastOptionsOf(opts []*ast.CallExpr, mod string) avastOptions {
	o := avastOptions{attempts: true} // the default 10 is a cap
	for _, oc := range opts {
		ofn := s.callee(oc)
		if ofn == nil || ofn.Pkg() == nil || ofn.Pkg().Path() != mod {
			return avastOptions{stop: optionsUnseen}
		}
		switch ofn.Name() {
		case "WithThrottle", "WithFixedTokenBucketThrottle":
			o.throttled = true
		case "Attempts":
			if len(oc.Args) == 1 {
				n, known := s.intConst(oc.Args[0])
				if known && n == 1 {
					return avastOptions{stop: optionsNoRetries}
				}
				o.attempts = !known || n != 0
				o.attemptsAt = oc
			}
		case "UntilSucceeded":
			o.attempts, o.attemptsAt = false, oc
		case "Context":
			o.ctxOpt = oc
		case "DelayType":
			o.delayType = oc
		}
	}
	return o
}

// judgeAvastDelay flags the delay types without jitter.
func (s *scope) judgeAvastDelay(b *siteBuilder, arg ast.Expr, mod, q string) {
	switch {
	case s.objIs(arg, mod, "BackOffDelay"):
		i := finding(CatNoJitter, arg, "retry.DelayType(retry.BackOffDelay) grows the delay without jitter")
		if q != "" {
			i = i.fix("Use retry.FullJitterBackoffDelay", replace(arg, q+".FullJitterBackoffDelay"))
		}
		b.add(i)
	case s.objIs(arg, mod, "FixedDelay"):
		b.add(finding(CatFixedDelay, arg, "retry.DelayType(retry.FixedDelay) waits the same delay between attempts"))
	}
}

// avastUnbounded is the finding of Attempts(0) or UntilSucceeded with no
// deadline; the fix caps the attempts at 3 in place.
func avastUnbounded(attemptsAt ast.Node, q string) Finding {
	i := finding(CatUnbounded, attemptsAt, "retry.Do with no attempt limit (Attempts(0) or UntilSucceeded) and no deadline")
	if oc, ok := attemptsAt.(*ast.CallExpr); ok && q != "" {
		if len(oc.Args) == 1 {
			i = i.fix("Cap the attempts at 3", replace(oc.Args[0], "3"))
		} else {
			i = i.fix("Cap the attempts at 3", replace(oc, q+".Attempts(3)"))
		}
	}
	return i
}

// avastNoContext is the finding of a retry that never sees the caller's
// context name; the fix adds retry.Context(name) where no other fix
// edits, and not to options passed as a slice.
func (s *scope) avastNoContext(call, optCall *ast.CallExpr, from int, mod, name string) Finding {
	i := finding(CatNoContext, call, "retry.Do without retry.Context("+name+") waits on context.Background")
	q := s.qualifier(mod)
	if q == "" || optCall.Ellipsis.IsValid() {
		return i
	}
	opt := q + ".Context(" + name + ")"
	switch {
	case from == 1: // after the operation: no other fix edits it
		return i.fix("Add retry.Context("+name+")", insert(call.Args[0].End(), ", "+opt))
	case len(optCall.Args) > 0: // first of New's options
		return i.fix("Add retry.Context("+name+")", insert(optCall.Args[0].Pos(), opt+", "))
	default:
		return i.fix("Add retry.Context("+name+")", insert(optCall.Rparen, opt))
	}
}

func goRetrySite(s *scope, call *ast.CallExpr, fn *types.Func) *Site {
	if fn.Pkg().Path() != goRetry || fn.Type().(*types.Signature).Recv() != nil || len(call.Args) != 3 {
		return nil
	}
	name := fn.Name()
	b := newSite(call)
	q := s.qualifier(goRetry)
	var p goRetryBackoff
	switch name {
	case "Do", "DoValue":
		p = s.goRetryBackoffOf(call)
		switch p.stop {
		case optionsUnseen:
			return b.site
		case optionsNoRetries:
			return nil // no retries: not a retry site
		}
	case "Exponential", "Fibonacci":
		p.base, p.growing = call, true
	case "Constant":
		p.base, p.fixed = call, true
	default:
		return nil
	}
	switch {
	case p.growing && !p.jitter:
		i := finding(CatNoJitter, p.base, "retry."+calleeName(s, p.base)+" backoff has no jitter")
		if q != "" && p.base != ast.Node(call) {
			i = i.fix("Wrap the backoff in retry.WithFullJitter", insert(p.base.Pos(), q+".WithFullJitter("), insert(p.base.End(), ")"))
		}
		b.add(i)
	case p.fixed && !p.jitter:
		b.add(finding(CatFixedDelay, p.base, "retry."+calleeName(s, p.base)+" waits the same delay between attempts"))
	}
	if body := s.funcBody(call.Args[2]); body != nil && !s.mentions(body, goRetry, "RetryableError") {
		return nil // only errors wrapped in RetryableError are retried
	}
	ctx, _ := s.context(call.Args[0])
	if !p.bounded && ctx != ctxOther && ctx != ctxUnknown {
		b.add(finding(CatUnbounded, p.base, "retry."+name+" with no WithMaxRetries and no WithMaxDuration has no bound"))
	}
	if ctx == ctxBackground && !p.maxDuration {
		b.add(finding(CatBackground, call.Args[0], "retry."+name+" under context.Background with no WithMaxDuration has no deadline"))
	}
	s.budgetIssue(b, "retry."+name, call.Args[2], call)
	return b.site
}

// goRetryBackoff is what a go-retry backoff is built of.
type goRetryBackoff struct {
	base            ast.Node // the one base backoff (NewExponential, NewConstant …)
	growing, fixed  bool
	jitter, bounded bool
	maxDuration     bool
	stop            optionStop
}

// goRetryBackoffOf reads the backoff handed to Do: exactly one base of the
// package, wrapped in its middleware; anything else cannot be judged.
func (s *scope) goRetryBackoffOf(call *ast.CallExpr) goRetryBackoff {
	unseen := goRetryBackoff{stop: optionsUnseen}
	c := s.collect(call.Args[1], call.Pos())
	if c.opaque {
		return unseen
	}
	var p goRetryBackoff
	var bases []*ast.CallExpr
	for _, bc := range c.calls {
		bfn := s.callee(bc)
		if bfn == nil || bfn.Pkg() == nil {
			continue
		}
		if bfn.Pkg().Path() != goRetry {
			return unseen // a backoff from elsewhere
		}
		switch bfn.Name() {
		case "NewExponential", "NewFibonacci":
			bases, p.growing = append(bases, bc), true
		case "NewConstant":
			bases, p.fixed = append(bases, bc), true
		case "WithJitter", "WithJitterPercent", "WithFullJitter":
			p.jitter = true
		case "WithMaxRetries":
			p.bounded = true
			if len(bc.Args) == 2 && s.isZero(bc.Args[0]) {
				return goRetryBackoff{stop: optionsNoRetries}
			}
		case "WithMaxDuration":
			p.bounded, p.maxDuration = true, true
		case "BackoffFunc":
			return unseen
		}
	}
	if len(bases) != 1 || len(c.lits) > 0 {
		return unseen
	}
	p.base = bases[0]
	return p
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
