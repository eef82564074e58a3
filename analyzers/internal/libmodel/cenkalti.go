package libmodel

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

const (
	backoffV4 = "github.com/cenkalti/backoff/v4"
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
	p := &expBackoff{}
	var bases []ast.Node
	for _, call := range c.calls {
		fn := s.callee(call)
		switch {
		case is(fn, pkg, "", "NewExponentialBackOff"):
			bases = append(bases, call)
			p.kind, p.node = "exponential", call
		case is(fn, pkg, "", "NewConstantBackOff"):
			bases = append(bases, call)
			p.kind, p.node = "constant", call
		}
	}
	for _, lit := range c.lits {
		switch namedOf(s.env.Info.TypeOf(lit), pkg) {
		case "ExponentialBackOff":
			bases = append(bases, lit)
			p.kind, p.node, p.lit = "exponential", lit, lit
		case "ConstantBackOff":
			bases = append(bases, lit)
			p.kind, p.node = "constant", lit
		case "ZeroBackOff":
			bases = append(bases, lit)
			p.kind, p.node = "zero", lit
		case "StopBackOff":
			bases = append(bases, lit)
			p.kind, p.node = "stop", lit
		}
	}
	if len(bases) != 1 || c.opaque {
		return &expBackoff{}
	}
	if p.kind != "exponential" {
		return p
	}

	// RandomizationFactor, Multiplier and (v4) MaxElapsedTime, from the
	// literal or the defaults, then options, then field assignments.
	type setting struct {
		val   ast.Expr
		node  ast.Node
		known bool // the value is known (the default counts)
		zero  bool // the value is the constant 0
	}
	rf := setting{known: true}   // default 0.5
	mult := setting{known: true} // default 1.5
	elapsed := setting{known: true}
	set := func(st *setting, val ast.Expr, node ast.Node) {
		st.val, st.node = val, node
		f, ok := s.floatConst(val)
		st.known = ok
		st.zero = ok && f == 0
	}
	if p.lit != nil {
		if _, keyed := litField(p.lit, "X"); !keyed {
			return &expBackoff{}
		}
		rf = setting{known: true, zero: true, node: p.lit}
		mult = setting{known: true, zero: true, node: p.lit}
		elapsed = setting{known: true, zero: true, node: p.lit}
		if v, _ := litField(p.lit, "RandomizationFactor"); v != nil {
			set(&rf, v, v)
		}
		if v, _ := litField(p.lit, "Multiplier"); v != nil {
			set(&mult, v, v)
		}
		if v, _ := litField(p.lit, "MaxElapsedTime"); v != nil {
			set(&elapsed, v, v)
		}
	} else if v4 {
		for _, opt := range p.node.(*ast.CallExpr).Args {
			oc, ok := ast.Unparen(opt).(*ast.CallExpr)
			if !ok {
				return &expBackoff{} // an option we cannot see
			}
			fn := s.callee(oc)
			if fn == nil || len(oc.Args) != 1 {
				return &expBackoff{}
			}
			switch {
			case is(fn, pkg, "", "WithRandomizationFactor"):
				set(&rf, oc.Args[0], oc.Args[0])
			case is(fn, pkg, "", "WithMultiplier"):
				set(&mult, oc.Args[0], oc.Args[0])
			case is(fn, pkg, "", "WithMaxElapsedTime"):
				set(&elapsed, oc.Args[0], oc.Args[0])
			}
		}
	}
	if v, unsure := fieldSet(c.fields, "RandomizationFactor"); unsure {
		rf.known = false
	} else if v != nil {
		set(&rf, v, v)
	}
	if v, unsure := fieldSet(c.fields, "Multiplier"); unsure {
		mult.known = false
	} else if v != nil {
		set(&mult, v, v)
	}
	if v, unsure := fieldSet(c.fields, "MaxElapsedTime"); unsure {
		elapsed.known = false
	} else if v != nil {
		set(&elapsed, v, v)
	}
	if rf.known && rf.zero {
		p.jitterOff = rf.node
		if rf.val != nil {
			p.jitterZero = rf.val
		}
	}
	if mult.known && mult.val != nil {
		if f, ok := s.floatConst(mult.val); ok && f == 1 {
			p.fixedMult = true
		}
	}
	if v4 && elapsed.known && elapsed.zero {
		p.noElapsed = true
		p.elapsedAt = elapsed.node
	}
	return p
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

// delayIssues reports jitter and fixed-delay issues of a cenkalti policy.
func (s *scope) cenkaltiDelay(b *siteBuilder, p *expBackoff, pkg string) {
	q := s.qualifier(pkg)
	switch p.kind {
	case "constant":
		b.add(issue(Sleep, CatFixedDelay, p.node, "backoff.ConstantBackOff waits the same delay between attempts: "+consFixed))
	case "zero":
		b.add(issue(Sleep, CatNoDelay, p.node, "backoff.ZeroBackOff retries without waiting: "+consNoDelay))
	case "exponential":
		if p.jitterOff == nil {
			return
		}
		if p.fixedMult {
			b.add(issue(Sleep, CatFixedDelay, p.jitterOff, "backoff.ExponentialBackOff with Multiplier 1 and no randomization waits the same delay between attempts: "+consFixed))
			return
		}
		i := issue(Jitter, CatNoJitter, p.jitterOff, "backoff.ExponentialBackOff with RandomizationFactor 0 grows without jitter: "+consNoJitter)
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

func backoffV4Site(s *scope, call *ast.CallExpr, fn *types.Func) *Site {
	if fn.Type().(*types.Signature).Recv() != nil || fn.Pkg().Path() != backoffV4 || !oneOf(fn.Name(), backoffV4Retry) || len(call.Args) < 2 {
		return nil
	}
	b := newSite(call)
	op, bo := call.Args[0], call.Args[1]
	b.site.Op, b.site.Budgetless = op, true // cenkalti/backoff has no budget
	c := s.collect(bo, call.Pos())
	p := s.cenkaltiPolicy(c, backoffV4, true)
	if p.kind == "" {
		// Configured where we cannot follow it. When every value the
		// variable takes here is built by the library and none is its
		// StopBackOff, it retries; the library has no budget.
		if s.builtBy(bo, backoffV4) {
			s.budgetIssue(b, "backoff.Retry", op, call)
		}
		return b.site
	}
	s.cenkaltiDelay(b, p, backoffV4)

	maxRetries := false
	for _, mr := range s.find(c, backoffV4, "WithMaxRetries") {
		maxRetries = true
		if len(mr.Args) == 2 && s.isZero(mr.Args[1]) {
			return nil // no retries: not a retry site
		}
	}
	withCtx := last(s.find(c, backoffV4, "WithContext"))
	elapsedLimit := p.kind == "exponential" && !p.noElapsed
	ctx := ctxUnknown
	if withCtx != nil && len(withCtx.Args) == 2 {
		ctx, _ = s.context(withCtx.Args[1])
	}
	bounded := maxRetries || elapsedLimit || p.kind == "stop" || ctx == ctxOther
	if !bounded && (withCtx == nil || ctx == ctxBackground) {
		at := ast.Node(call)
		if p.noElapsed && p.elapsedAt != nil {
			at = p.elapsedAt
		}
		i := issue(Budget, CatUnbounded, at, "backoff.Retry with no WithMaxRetries and no MaxElapsedTime has no bound: "+consUnbounded)
		if zero, ok := at.(ast.Expr); ok && at != ast.Node(call) && at != ast.Node(p.lit) {
			if q := s.qualifier(backoffV4); q != "" {
				i = i.fix("Restore the default MaxElapsedTime", replace(zero, q+".DefaultMaxElapsedTime"))
			}
		}
		b.add(i)
	}
	if withCtx == nil {
		if name := s.ctxParam(); name != "" {
			i := issue(Deadline, CatNoContext, call, "backoff.Retry without backoff.WithContext never observes "+name+": "+consNoCtx)
			if q := s.qualifier(backoffV4); q != "" {
				i = i.fix("Wrap the backoff in backoff.WithContext", insert(bo.Pos(), q+".WithContext("), insert(bo.End(), ", "+name+")"))
			}
			b.add(i)
		}
	} else if ctx == ctxBackground && !elapsedLimit && !maxRetries {
		b.add(issue(Deadline, CatBackground, withCtx, "backoff.WithContext with a context made by context.Background has no deadline and the backoff no elapsed-time limit: "+consBgCtx))
	}
	s.budgetIssue(b, "backoff.Retry", op, call)
	return b.site
}

func backoffV5Site(s *scope, call *ast.CallExpr, fn *types.Func) *Site {
	// v7 keeps v5's API (Retry[T](ctx, op, opts...) and its options).
	mod := fn.Pkg().Path()
	if fn.Type().(*types.Signature).Recv() != nil || !is(fn, mod, "", "Retry") || len(call.Args) < 2 {
		return nil
	}
	b := newSite(call)
	op := call.Args[1]
	b.site.Op, b.site.Budgetless = op, true // cenkalti/backoff has no budget
	var bo ast.Expr
	maxTries, noElapsed := false, false
	var elapsedAt ast.Node
	for _, a := range call.Args[2:] {
		oc, ok := ast.Unparen(a).(*ast.CallExpr)
		if !ok {
			return b.site
		}
		ofn := s.callee(oc)
		switch {
		case is(ofn, mod, "", "WithBackOff") && len(oc.Args) == 1:
			bo = oc.Args[0]
		case is(ofn, mod, "", "WithMaxTries") && len(oc.Args) == 1:
			n, ok := s.intConst(oc.Args[0])
			if ok && n == 1 {
				return nil // one try: not a retry site
			}
			if !ok || n != 0 {
				maxTries = true
			}
		case is(ofn, mod, "", "WithMaxElapsedTime") && len(oc.Args) == 1:
			noElapsed = s.isZero(oc.Args[0])
			elapsedAt = oc
		case is(ofn, mod, "", "WithNotify"):
		default:
			if ofn == nil || ofn.Pkg() == nil || ofn.Pkg().Path() != mod {
				return b.site // an option from elsewhere
			}
		}
	}
	kind := "exponential" // the default NewExponentialBackOff, jittered
	if bo != nil {
		c := s.collect(bo, call.Pos())
		p := s.cenkaltiPolicy(c, mod, false)
		if p.kind == "" {
			if s.builtBy(bo, mod) {
				s.budgetIssue(b, "backoff.Retry", op, call)
			}
			return b.site
		}
		kind = p.kind
		s.cenkaltiDelay(b, p, mod)
	}
	ctx, _ := s.context(call.Args[0])
	if !maxTries && noElapsed && kind != "stop" && ctx != ctxOther && ctx != ctxUnknown {
		i := issue(Budget, CatUnbounded, elapsedAt, "backoff.Retry with WithMaxElapsedTime(0) and no WithMaxTries has no bound: "+consUnbounded)
		if q := s.qualifier(mod); q != "" {
			i = i.fix("Restore the default MaxElapsedTime", replace(elapsedAt.(*ast.CallExpr).Args[0], q+".DefaultMaxElapsedTime"))
		}
		b.add(i)
	}
	if ctx == ctxBackground && noElapsed {
		b.add(issue(Deadline, CatBackground, call.Args[0], "backoff.Retry under context.Background with WithMaxElapsedTime(0) has no deadline: "+consBgCtx))
	}
	s.budgetIssue(b, "backoff.Retry", op, call)
	return b.site
}

// budgetIssue reports a retry around a remote operation that consults no
// budget, unless the site already has a Budget issue.
func (s *scope) budgetIssue(b *siteBuilder, what string, op ast.Expr, call *ast.CallExpr, more ...ast.Node) {
	if b.has(Budget) {
		return
	}
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
	b.add(issue(Budget, CatNoBudget, call, what+" around a remote call consults no retry budget: "+consNoBudget))
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
