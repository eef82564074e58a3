package libmodel

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/retrylint/retrylint/analyzers/internal/astq"
)

const (
	backoffV4 = "github.com/cenkalti/backoff/v4"
	// backoffV2 is the unversioned path of v1 and v2 (v2.2.1+incompatible
	// the last), whose API v4 kept: Retry(op, b), the same backoffs and
	// wrappers, and NewExponentialBackOff without options.
	backoffV2 = "github.com/cenkalti/backoff"
	// backoffV3 is v3, whose API is v2's with RetryNotifyWithTimer.
	backoffV3 = "github.com/cenkalti/backoff/v3"
)

// expBackoff is what is known of the backoff policy of a cenkalti site.
type expBackoff struct {
	kind string // "exponential", "constant", "zero", "stop" or "" (unknown)
	node ast.Node
	lit  *ast.CompositeLit // the ExponentialBackOff literal, if any
	// jitterOff is the node that turns randomisation off (a field, an
	// option, the literal lacking the field), or nil.
	jitterOff ast.Node
	// jitterZero is the constant 0 value to replace, if the fix is a
	// replacement.
	jitterZero ast.Expr
	fixedMult  bool // Multiplier is the constant 1
	// v4 only: MaxElapsedTime known to be 0 (unbounded in time).
	noElapsed bool
	elapsedAt ast.Node
}

// cenkaltiPolicy reads the backoff configuration of c for one of the two
// major versions.
func (s *scope) cenkaltiPolicy(c *cfg, pkg string, v4 bool) *expBackoff {
	p, bases := s.cenkaltiBase(c, pkg)
	if bases != 1 || c.opaque {
		return &expBackoff{}
	}
	if p.kind != "exponential" {
		return p
	}
	// RandomizationFactor, Multiplier and (v4) MaxElapsedTime, from the
	// literal or the defaults, then options, then field assignments.
	st := cenkaltiDefaults()
	switch {
	case p.lit != nil:
		if !st.fromLiteral(s, p.lit) {
			return &expBackoff{}
		}
	case v4:
		if !st.fromOptions(s, p.node.(*ast.CallExpr), pkg) {
			return &expBackoff{}
		}
	}
	st.fromFields(s, c.fields)
	st.apply(s, p, v4)
	return p
}

// cenkaltiBase reads which backoff c is built as (a constructor call or a
// literal of the library's type), and how many bases it has: only one can
// be judged.
func (s *scope) cenkaltiBase(c *cfg, pkg string) (p *expBackoff, bases int) {
	p = &expBackoff{}
	for _, call := range c.calls {
		fn := s.callee(call)
		switch {
		case astq.IsFunc(fn, pkg+".NewExponentialBackOff"):
			bases++
			p.kind, p.node = "exponential", call
		case astq.IsFunc(fn, pkg+".NewConstantBackOff"):
			bases++
			p.kind, p.node = "constant", call
		}
	}
	for _, lit := range c.lits {
		switch namedOf(s.env.Info.TypeOf(lit), pkg) {
		case "ExponentialBackOff":
			bases++
			p.kind, p.node, p.lit = "exponential", lit, lit
		case "ConstantBackOff":
			bases++
			p.kind, p.node = "constant", lit
		case "ZeroBackOff":
			bases++
			p.kind, p.node = "zero", lit
		case "StopBackOff":
			bases++
			p.kind, p.node = "stop", lit
		}
	}
	return p, bases
}

// backoffSetting is one setting of an exponential backoff as far as it is
// seen.
type backoffSetting struct {
	val   ast.Expr
	node  ast.Node
	known bool // the value is known (the default counts)
	zero  bool // the value is the constant 0
}

func (st *backoffSetting) set(s *scope, val ast.Expr, node ast.Node) {
	st.val, st.node = val, node
	f, ok := s.floatConst(val)
	st.known = ok
	st.zero = ok && f == 0
}

// cenkaltiSettings are the settings of an exponential backoff that decide
// its verdicts.
type cenkaltiSettings struct {
	rf, mult, elapsed backoffSetting
}

// cenkaltiDefaults are the constructor's: RandomizationFactor 0.5,
// Multiplier 1.5, MaxElapsedTime 15 minutes, all known and none zero.
func cenkaltiDefaults() *cenkaltiSettings {
	return &cenkaltiSettings{
		rf:      backoffSetting{known: true},
		mult:    backoffSetting{known: true},
		elapsed: backoffSetting{known: true},
	}
}

// fromLiteral reads a keyed literal, whose missing fields are zero; it
// reports whether the literal is keyed, an unkeyed one not being read.
func (st *cenkaltiSettings) fromLiteral(s *scope, lit *ast.CompositeLit) bool {
	if _, keyed := litField(lit, "X"); !keyed {
		return false
	}
	st.rf = backoffSetting{known: true, zero: true, node: lit}
	st.mult = backoffSetting{known: true, zero: true, node: lit}
	st.elapsed = backoffSetting{known: true, zero: true, node: lit}
	if v, _ := litField(lit, "RandomizationFactor"); v != nil {
		st.rf.set(s, v, v)
	}
	if v, _ := litField(lit, "Multiplier"); v != nil {
		st.mult.set(s, v, v)
	}
	if v, _ := litField(lit, "MaxElapsedTime"); v != nil {
		st.elapsed.set(s, v, v)
	}
	return true
}

// fromOptions reads v4's constructor options; it reports whether every
// option could be seen.
func (st *cenkaltiSettings) fromOptions(s *scope, ctor *ast.CallExpr, pkg string) bool {
	for _, opt := range ctor.Args {
		oc, ok := ast.Unparen(opt).(*ast.CallExpr)
		if !ok {
			return false // an option we cannot see
		}
		fn := s.callee(oc)
		if fn == nil || len(oc.Args) != 1 {
			return false
		}
		switch {
		case astq.IsFunc(fn, pkg+".WithRandomizationFactor"):
			st.rf.set(s, oc.Args[0], oc.Args[0])
		case astq.IsFunc(fn, pkg+".WithMultiplier"):
			st.mult.set(s, oc.Args[0], oc.Args[0])
		case astq.IsFunc(fn, pkg+".WithMaxElapsedTime"):
			st.elapsed.set(s, oc.Args[0], oc.Args[0])
		}
	}
	return true
}

// fromFields reads field assignments, which come last and so win.
func (st *cenkaltiSettings) fromFields(s *scope, fields []*ast.AssignStmt) {
	for _, f := range []struct {
		name string
		st   *backoffSetting
	}{{"RandomizationFactor", &st.rf}, {"Multiplier", &st.mult}, {"MaxElapsedTime", &st.elapsed}} {
		if v, unsure := fieldSet(fields, f.name); unsure {
			f.st.known = false
		} else if v != nil {
			f.st.set(s, v, v)
		}
	}
}

// apply records on p what the settings decide: jitter off, a fixed
// multiplier, and (v4) no elapsed-time limit.
func (st *cenkaltiSettings) apply(s *scope, p *expBackoff, v4 bool) {
	if st.rf.known && st.rf.zero {
		p.jitterOff = st.rf.node
		if st.rf.val != nil {
			p.jitterZero = st.rf.val
		}
	}
	if st.mult.known && st.mult.val != nil {
		if f, ok := s.floatConst(st.mult.val); ok && f == 1 {
			p.fixedMult = true
		}
	}
	if v4 && st.elapsed.known && st.elapsed.zero {
		p.noElapsed = true
		p.elapsedAt = st.elapsed.node
	}
}

// namedOf returns the name of the (pointer to) named type t declared in
// pkg, or "".
func namedOf(t types.Type, pkg string) string {
	if t == nil {
		return ""
	}
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != pkg {
		return ""
	}
	return n.Obj().Name()
}

// delayIssues records the jitter and fixed-delay findings of a cenkalti policy.
func (s *scope) cenkaltiDelay(b *siteBuilder, p *expBackoff, pkg string) {
	q := s.qualifier(pkg)
	switch p.kind {
	case "constant":
		b.add(finding(CatFixedDelay, p.node, "backoff.ConstantBackOff waits the same delay between attempts"))
	case "zero":
		b.add(finding(CatNoDelay, p.node, "backoff.ZeroBackOff retries without waiting"))
	case "exponential":
		if p.jitterOff == nil {
			return
		}
		if p.fixedMult {
			b.add(finding(CatFixedDelay, p.jitterOff, "backoff.ExponentialBackOff with Multiplier 1 and no randomization waits the same delay between attempts"))
			return
		}
		i := finding(CatNoJitter, p.jitterOff, "backoff.ExponentialBackOff with RandomizationFactor 0 grows without jitter")
		if q != "" {
			if p.jitterZero != nil {
				i = i.fix("Set RandomizationFactor to backoff.DefaultRandomizationFactor", replace(p.jitterZero, q+".DefaultRandomizationFactor"))
			} else if p.lit != nil && p.jitterOff == p.lit {
				i = i.fix("Set RandomizationFactor to backoff.DefaultRandomizationFactor", addLitField(p.lit, "RandomizationFactor", q+".DefaultRandomizationFactor"))
			}
		}
		b.add(i)
	}
}

var backoffV4Retry = []string{"Retry", "RetryNotify", "RetryNotifyWithTimer", "RetryWithData", "RetryNotifyWithData", "RetryNotifyWithTimerAndData"}

// backoffRetrySite returns the site function of a major version whose
// Retry takes the operation and a BackOff (v4, v3, and the unversioned
// v1/v2 path, whose API v4 extends): pkg is its import path.
func backoffRetrySite(pkg string) func(s *scope, call *ast.CallExpr, fn *types.Func) *Site {
	return func(s *scope, call *ast.CallExpr, fn *types.Func) *Site {
		return backoffV4Site(s, call, fn, pkg)
	}
}

func backoffV4Site(s *scope, call *ast.CallExpr, fn *types.Func, pkg string) *Site {
	if fn.Type().(*types.Signature).Recv() != nil || fn.Pkg().Path() != pkg || !oneOf(fn.Name(), backoffV4Retry) || len(call.Args) < 2 {
		return nil
	}
	b := newSite(call)
	op, bo := call.Args[0], call.Args[1]
	b.site.Op, b.site.Budgetless = op, true // cenkalti/backoff has no budget
	c := s.collect(bo, call.Pos())
	p := s.cenkaltiPolicy(c, pkg, true)
	if p.kind == "" {
		// Configured where we cannot follow it. When every value the
		// variable takes here is built by the library and none is its
		// StopBackOff, it retries; the library has no budget.
		if s.builtBy(bo, pkg) {
			s.budgetIssue(b, "backoff.Retry", op, call)
		}
		return b.site
	}
	if p.kind == "stop" {
		return nil // StopBackOff: one attempt, not a retry site
	}
	s.cenkaltiDelay(b, p, pkg)

	maxRetries := false
	for _, mr := range s.find(c, pkg, "WithMaxRetries") {
		maxRetries = true
		if len(mr.Args) == 2 && s.isZero(mr.Args[1]) {
			return nil // no retries: not a retry site
		}
	}
	withCtx := last(s.find(c, pkg, "WithContext"))
	elapsedLimit := p.kind == "exponential" && !p.noElapsed
	ctx := ctxUnknown
	if withCtx != nil && len(withCtx.Args) == 2 {
		ctx, _ = s.context(withCtx.Args[1])
	}
	bounded := maxRetries || elapsedLimit || p.kind == "stop" || ctx == ctxOther
	if !bounded && (withCtx == nil || ctx == ctxBackground) {
		b.add(s.backoffV4Unbounded(call, p, pkg))
	}
	if withCtx == nil {
		if name := s.ctxParam(); name != "" {
			i := finding(CatNoContext, call, "backoff.Retry without backoff.WithContext never observes "+name)
			if q := s.qualifier(pkg); q != "" {
				i = i.fix("Wrap the backoff in backoff.WithContext", insert(bo.Pos(), q+".WithContext("), insert(bo.End(), ", "+name+")"))
			}
			b.add(i)
		}
	} else if ctx == ctxBackground && !elapsedLimit && !maxRetries {
		b.add(finding(CatBackground, withCtx, "backoff.WithContext with a context made by context.Background has no deadline and the backoff no elapsed-time limit"))
	}
	s.budgetIssue(b, "backoff.Retry", op, call)
	return b.site
}

// backoffV4Unbounded is the finding of a v4 retry with no bound, on the
// MaxElapsedTime of 0 when it is seen; the fix restores the default there
// (not on the call, nor on a literal that only leaves the field out).
func (s *scope) backoffV4Unbounded(call *ast.CallExpr, p *expBackoff, pkg string) Finding {
	at := ast.Node(call)
	if p.noElapsed && p.elapsedAt != nil {
		at = p.elapsedAt
	}
	i := finding(CatUnbounded, at, "backoff.Retry with no WithMaxRetries and no MaxElapsedTime has no bound")
	if zero, ok := at.(ast.Expr); ok && at != ast.Node(call) && at != ast.Node(p.lit) {
		if q := s.qualifier(pkg); q != "" {
			i = i.fix("Restore the default MaxElapsedTime", replace(zero, q+".DefaultMaxElapsedTime"))
		}
	}
	return i
}

func backoffV5Site(s *scope, call *ast.CallExpr, fn *types.Func) *Site {
	// v7 keeps v5's API (Retry[T](ctx, op, opts...) and its options).
	mod := fn.Pkg().Path()
	if fn.Type().(*types.Signature).Recv() != nil || !astq.IsFunc(fn, mod+".Retry") || len(call.Args) < 2 {
		return nil
	}
	b := newSite(call)
	op := call.Args[1]
	b.site.Op, b.site.Budgetless = op, true // cenkalti/backoff has no budget
	o := s.backoffV5Options(call.Args[2:], mod)
	switch o.stop {
	case optionsUnseen:
		return b.site
	case optionsNoRetries:
		return nil // one try: not a retry site
	}
	kind := "exponential" // the default NewExponentialBackOff, jittered
	if o.bo != nil {
		c := s.collect(o.bo, call.Pos())
		p := s.cenkaltiPolicy(c, mod, false)
		if p.kind == "" {
			if s.builtBy(o.bo, mod) {
				s.budgetIssue(b, "backoff.Retry", op, call)
			}
			return b.site
		}
		kind = p.kind
		s.cenkaltiDelay(b, p, mod)
	}
	ctx, _ := s.context(call.Args[0])
	if !o.maxTries && o.noElapsed && kind != "stop" && ctx != ctxOther && ctx != ctxUnknown {
		i := finding(CatUnbounded, o.elapsedAt, "backoff.Retry with WithMaxElapsedTime(0) and no WithMaxTries has no bound")
		if q := s.qualifier(mod); q != "" {
			i = i.fix("Restore the default MaxElapsedTime", replace(o.elapsedAt.(*ast.CallExpr).Args[0], q+".DefaultMaxElapsedTime"))
		}
		b.add(i)
	}
	if ctx == ctxBackground && o.noElapsed {
		b.add(finding(CatBackground, call.Args[0], "backoff.Retry under context.Background with WithMaxElapsedTime(0) has no deadline"))
	}
	s.budgetIssue(b, "backoff.Retry", op, call)
	return b.site
}

// backoffV5Opts are the options of a v5 Retry call that decide its
// verdicts.
type backoffV5Opts struct {
	bo                  ast.Expr // WithBackOff's backoff
	maxTries, noElapsed bool
	elapsedAt           ast.Node // the WithMaxElapsedTime call
	stop                optionStop
}

// backoffV5Options reads Retry's options; reading stops at an option it
// cannot see (from elsewhere, or not a call) and at WithMaxTries(1).
func (s *scope) backoffV5Options(args []ast.Expr, mod string) backoffV5Opts {
	var o backoffV5Opts
	for _, a := range args {
		oc, ok := ast.Unparen(a).(*ast.CallExpr)
		if !ok {
			return backoffV5Opts{stop: optionsUnseen}
		}
		ofn := s.callee(oc)
		switch {
		case astq.IsFunc(ofn, mod+".WithBackOff") && len(oc.Args) == 1:
			o.bo = oc.Args[0]
		case astq.IsFunc(ofn, mod+".WithMaxTries") && len(oc.Args) == 1:
			n, ok := s.intConst(oc.Args[0])
			if ok && n == 1 {
				return backoffV5Opts{stop: optionsNoRetries}
			}
			if !ok || n != 0 {
				o.maxTries = true
			}
		case astq.IsFunc(ofn, mod+".WithMaxElapsedTime") && len(oc.Args) == 1:
			o.noElapsed = s.isZero(oc.Args[0])
			o.elapsedAt = oc
		case astq.IsFunc(ofn, mod+".WithNotify"):
		default:
			if ofn == nil || ofn.Pkg() == nil || ofn.Pkg().Path() != mod {
				return backoffV5Opts{stop: optionsUnseen} // an option from elsewhere
			}
		}
	}
	return o
}

// optionStop says why reading a library's options stopped before their
// end.
type optionStop int

const (
	optionsReadAll   optionStop = iota
	optionsUnseen               // an option or a delay we cannot see
	optionsNoRetries            // a limit that allows no retry: not a retry site
)

// budgetIssue records a retry around a remote operation that consults no
// budget.
func (s *scope) budgetIssue(b *siteBuilder, what string, op ast.Expr, call *ast.CallExpr, more ...ast.Node) {
	remote, body := s.remote(op)
	if !remote {
		return
	}
	nodes := append([]ast.Node{body}, more...)
	for _, a := range call.Args {
		if a != op {
			nodes = append(nodes, a)
		}
	}
	if s.budgeted(nodes...) {
		return
	}
	b.add(finding(CatNoBudget, call, what+" around a remote call consults no retry budget"))
}

func oneOf(s string, list []string) bool {
	for _, x := range list {
		if s == x {
			return true
		}
	}
	return false
}

// builtBy reports whether e is a local variable of the function every
// assignment of which is a call into the library at pkg (a constructor or
// wrapper: b = backoff.WithContext(b, ctx)), none of them its
// StopBackOff, and whose address is never taken.
func (s *scope) builtBy(e ast.Expr, pkg string) bool {
	v := s.localVar(e)
	if v == nil {
		return false
	}
	n, ok := 0, true
	ast.Inspect(s.body, func(nd ast.Node) bool {
		switch nd := nd.(type) {
		case *ast.AssignStmt:
			for i, l := range nd.Lhs {
				if id, isID := l.(*ast.Ident); isID && s.obj(id) == v {
					n++
					c, isCall := ast.Unparen(nd.Rhs[min(i, len(nd.Rhs)-1)]).(*ast.CallExpr)
					fn := (*types.Func)(nil)
					if isCall {
						fn = s.callee(c)
					}
					if len(nd.Lhs) != len(nd.Rhs) || fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != pkg || strings.Contains(fn.Name(), "Stop") {
						ok = false
					}
				}
			}
		case *ast.UnaryExpr:
			if id, isID := nd.X.(*ast.Ident); isID && nd.Op == token.AND && s.obj(id) == v {
				ok = false
			}
		}
		return ok
	})
	return ok && n > 0
}
