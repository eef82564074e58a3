package retryloop

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/retrylint/retrylint/analyzers/internal/astq"
	"github.com/retrylint/retrylint/analyzers/internal/libmodel"
)

// FuncFact describes what a function does that matters to a retry site
// calling it from another package.
type FuncFact struct {
	// Remote: the function reaches the network (directly or through callees).
	Remote bool
	// Budget: the function consults a retry budget, limiter or breaker.
	Budget bool
	// Writes lists the non-idempotent HTTP requests (POST, PATCH) it sends.
	Writes []Write
	// Wait is set when the function waits (a sleep helper).
	Wait *WaitFact
	// Delay is set when the function computes a delay (returns a time.Duration).
	Delay *DelayFact
	// Retrier is set when the function is a generic retry helper: it
	// retries an operation or waits a delay it is given.
	Retrier *RetrierFact
	// Build is set when the function builds and returns an HTTP request
	// (c.newRequest(ctx, method, path, body)).
	Build *BuildFact
	// Random: a result is drawn from math/rand or crypto/rand (a
	// package's own FastRand(n)): randomness in a delay it feeds.
	Random bool
	// Layer is set when the function retries, or returns the failure of
	// a function that does: a retry around a call to it is nested.
	Layer *LayerFact
	// FailWait is set on a function without results that, when a remote
	// call of it fails, waits and returns, swallowing the failure: a loop
	// calling it every round retries the call at that wait.
	FailWait *WaitFact
	// FailRearm is set on a function without results that re-arms the
	// timer it is handed (Param) after an operation of it fails, for a
	// delay (Growth, Jitter) it chooses for no success: a loop that
	// waits on that timer and calls it every round retries the call at
	// that delay (sendAnnouncement(ctx, timer) in a select on timer.C).
	FailRearm *WaitFact
	// Resends is set on a method that re-sends the request its receiver
	// holds through a client that retries whatever the method.
	Resends *ResendFact
	// Ticks: the function returns a source of retry ticks, an iterator
	// (or a channel) that yields once per attempt and waits between
	// yields: for range c.newRetryTimer(ctx, n) { ... } is a retry loop.
	Ticks bool
	// MadeClient is set on a function that returns a retryablehttp
	// client it makes and configures: sends through the client a caller
	// gets are judged by its settings.
	MadeClient *libmodel.MadeClient
	// NoDeadline: the function takes no context, and every remote call
	// it makes runs under no deadline (http.Get, a client with no
	// timeout, net.Dial, a Background made in it, a function with this
	// fact): each call of it is an attempt with no deadline.
	NoDeadline bool
}

// BuildFact describes a request builder: where the method comes from and
// what it sets on the request.
type BuildFact struct {
	MethodParam int    // the parameter naming the method, or -1
	Method      string // the constant method when MethodParam is -1 ("" unknown)
	Headers     []string
	KeyMinted   bool // it sets a key header minted afresh on every call
	// Field is set when the function builds a wrapper of the request (a
	// pointer to a struct): the field holding it.
	Field string
}

// RetrierFact describes a generic retry helper (retry(attempts, delay, fn)):
// what it does with its parameters, so each call site can be judged.
type RetrierFact struct {
	OpParam    int  // the parameter holding the retried function, or -1
	DelayParam int  // the parameter holding the delay, or -1
	Grows      bool // the helper grows the delay it is given
	Jitter     bool // the helper adds randomness to the delay
	Budget     bool // the helper consults a budget
	Bound      Bound
	// ResendParam is the *http.Request parameter the helper re-sends on
	// every attempt, or -1.
	ResendParam int
	// MethodParam is the parameter naming the HTTP method of the request
	// the helper builds and re-sends, or -1; HeaderParam the parameter
	// whose headers it copies onto it (-1: none); Keyed whether it sets a
	// key header itself.
	MethodParam, HeaderParam int
	Keyed                    bool
	// CtxParam is the context parameter whose deadline bounds the
	// helper's attempts (it consults it between them), or -1: a caller
	// passing context.Background gets a retry with no deadline.
	CtxParam int
	// OwnRemote: a call in the helper's own package passes it a remote
	// operation, so its one retrybudget finding stands at its loop there.
	OwnRemote bool
	// Sleeps: the helper waits between attempts with a wait that
	// sleeps through cancellation (time.Sleep, a receive from
	// time.After or from a timer's channel outside a select: SPEC,
	// "Uncancellable waits") and consults no context: a caller with a
	// context in scope that it does not hand over sleeps through
	// cancellation. SleepsOn words the wait ("" is time.Sleep).
	Sleeps   bool
	SleepsOn string
	// Poll: the helper polls a condition (OpParam: func() (bool, error)),
	// calling it again while it returns false and no error. A call is a
	// retry only when the condition it is given turns a failed remote
	// call into "not yet" (return false, nil): judged at each call.
	Poll bool
	// RetriesErr: the poller calls its condition again after it failed
	// too (WaitFor: lastErr = err; sleep), so a condition that can fail
	// remotely is retried, whatever it returns then.
	RetriesErr bool
	// ValueOps are the interface-typed parameters whose methods the
	// helper retries (tx.Exec of a tx Tx it is given): a call handing it
	// a value whose method reaches the network hands it remote work.
	ValueOps []ValueOp
}

// ValueOp is a method a helper retries on a value it is given.
type ValueOp struct {
	Param  int
	Method string
}

// AFact marks FuncFact as an analysis fact.
func (*FuncFact) AFact() {}

// madeString words a made client's summary: its RetryMax, backoff and
// the settings it holds.
func madeString(m *libmodel.MadeClient) string {
	var s string
	switch {
	case m.MaxKnown:
		s = fmt.Sprintf("max=%d", m.Max)
	case m.MaxSet:
		s = "max=?"
	default:
		s = "max=default"
	}
	if m.Backoff != "" {
		s += " backoff=" + m.Backoff
	}
	return s + flagWords(flag{m.Lit, "lit"}, flag{m.Custom, "custom"}, flag{m.Budget, "budget"}, flag{m.Timeout, "timeout"})
}

// A flag is a boolean of a fact and its word.
type flag struct {
	on   bool
	word string
}

// flagWords words the flags that are set, each " word".
func flagWords(flags ...flag) string {
	var s string
	for _, f := range flags {
		if f.on {
			s += " " + f.word
		}
	}
	return s
}

func (f *FuncFact) String() string {
	s := "func:" + flagWords(flag{f.Remote, "remote"}, flag{f.Budget, "budget"}, flag{f.Random, "random"})
	for _, w := range f.Writes {
		s += " writes=" + w.Method
		if w.KeyMinted {
			s += "+minted-key"
		}
	}
	if f.Wait != nil {
		s += " waits"
		if f.Wait.Cancellable {
			s += "(ctx)"
		}
	}
	s += flagWords(flag{f.Ticks, "ticks"}, flag{f.NoDeadline, "no-deadline"})
	if f.FailWait != nil {
		s += " fails-after-wait=" + f.FailWait.Growth.String()
	}
	if f.FailRearm != nil {
		s += fmt.Sprintf(" fails-rearm=%d:%s", f.FailRearm.Param, f.FailRearm.Growth)
	}
	if f.Delay != nil {
		s += " delay=" + f.Delay.Growth.String()
		if f.Delay.Jitter {
			s += "+jitter"
		}
		if f.Delay.Value {
			s += "+value"
		}
		if f.Delay.JitterIf > 0 {
			s += fmt.Sprintf("(if field %d)", f.Delay.JitterIf-1)
		}
		if f.Delay.Result > 0 {
			s += fmt.Sprintf("@%d", f.Delay.Result)
		}
	}
	if b := f.Build; b != nil {
		s += fmt.Sprintf(" builds(method=%d%s headers=%v minted=%t", b.MethodParam, b.Method, b.Headers, b.KeyMinted)
		if b.Field != "" {
			s += " in ." + b.Field
		}
		s += ")"
	}
	if f.Resends != nil {
		s += " resends(." + f.Resends.Field + ")"
	}
	if m := f.MadeClient; m != nil {
		s += " makes-client(" + madeString(m) + ")"
	}
	if r := f.Retrier; r != nil {
		s += fmt.Sprintf(" retrier(op=%d delay=%d grows=%t", r.OpParam, r.DelayParam, r.Grows)
		if r.ResendParam >= 0 {
			s += fmt.Sprintf(" resends=%d", r.ResendParam)
		}
		if r.CtxParam >= 0 {
			s += fmt.Sprintf(" ctx=%d", r.CtxParam)
		}
		s += ")"
	}
	if l := f.Layer; l != nil {
		s += " retries(" + ChainString(l.Chain)
		if l.Budget {
			s += " budget"
		}
		s += " in " + l.Owner + ")"
	}
	return s
}

func (f *FuncFact) empty() bool {
	return !f.Remote && !f.Budget && !f.Random && len(f.Writes) == 0 && f.Wait == nil && f.Delay == nil && f.Retrier == nil && f.Build == nil && !f.Ticks && f.Resends == nil && f.FailWait == nil && f.FailRearm == nil && f.MadeClient == nil && !f.NoDeadline
}

func sameWait(a, b *WaitFact) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

func (f *FuncFact) equal(g *FuncFact) bool {
	if f.Remote != g.Remote || f.Budget != g.Budget || f.Random != g.Random || len(f.Writes) != len(g.Writes) || f.Ticks != g.Ticks || f.NoDeadline != g.NoDeadline {
		return false
	}
	if (f.Wait == nil) != (g.Wait == nil) || (f.Delay == nil) != (g.Delay == nil) {
		return false
	}
	if f.Wait != nil && *f.Wait != *g.Wait || f.Delay != nil && *f.Delay != *g.Delay {
		return false
	}
	if !sameWait(f.FailWait, g.FailWait) || !sameWait(f.FailRearm, g.FailRearm) {
		return false
	}
	if (f.MadeClient == nil) != (g.MadeClient == nil) || f.MadeClient != nil && *f.MadeClient != *g.MadeClient {
		return false
	}
	if (f.Build == nil) != (g.Build == nil) || f.Build != nil && (f.Build.MethodParam != g.Build.MethodParam ||
		f.Build.Method != g.Build.Method || f.Build.KeyMinted != g.Build.KeyMinted || f.Build.Field != g.Build.Field || !slices.Equal(f.Build.Headers, g.Build.Headers)) {
		return false
	}
	for i := range f.Writes {
		if f.Writes[i].Method != g.Writes[i].Method || f.Writes[i].KeyMinted != g.Writes[i].KeyMinted ||
			!slices.Equal(f.Writes[i].Headers, g.Writes[i].Headers) {
			return false
		}
	}
	return true
}

// Write is a non-idempotent HTTP request a function sends.
type Write struct {
	Method    string
	Headers   []string // canonical header names set on it
	KeyMinted bool     // the key value is minted inside the function, afresh on every call
}

// WaitFact describes a function that waits.
type WaitFact struct {
	Param       int // index of the parameter holding the delay, or -1
	Cancellable bool
	StopFrom    StopFrom // where a cancellable wait's stop comes from
	Growth      Growth
	Jitter      bool
}

// StopFrom says, as bits, where the channels a cancellable wait is raced
// against come from; zero when that is not known.
type StopFrom uint8

const (
	// StopOwn: a package variable (a shutdown context or channel), or a
	// package function handed nothing: none of a caller's.
	StopOwn     StopFrom = 1 << iota
	StopRecv             // reached from the method's receiver (s.stop, s.ctx.Done())
	StopParam            // reached from a parameter
	StopUnknown          // a local variable, a function value, anything else
)

// DelayFact describes a function that computes a delay.
type DelayFact struct {
	Growth    Growth
	Jitter    bool
	UsesParam bool // the result depends on a parameter (an attempt number)
	// Value: the growth is unknown but the result is a plain value
	// (a field, a constant), never random: a cap or a base, not jitter.
	Value bool
	// Result is the index of the time.Duration among the results
	// (delay, ok := next(attempt)).
	Result int
	// JitterIf, when not 0, is 1 + the index of the receiver's field
	// that gates every random draw (Jitter: only when set): a receiver
	// built without it draws none.
	JitterIf int
}

// computeFacts derives the facts of the package's functions, iterating
// to a fixed point over calls within the package, and exports them.
func (w *walker) computeFacts(fns []*fnScope) {
	var decls []*fnScope
	for _, fs := range fns {
		if fs.obj != nil {
			decls = append(decls, fs)
			w.facts[fs.obj] = &FuncFact{}
		}
	}
	// One full pass, then the cheap booleans (remote, budget) to a fixed
	// point over the package's call graph, then one more full pass for
	// the functions calling others of the package (to see their writes,
	// waits and delays).
	callees := map[*types.Func][]*types.Func{}
	hands := map[*types.Func]bool{} // hands a request to a function of the package
	for _, fs := range decls {
		w.enter(fs)
		w.facts[fs.obj] = w.funcFact(fs)
		for i, c := range fs.calls {
			if fn := fs.callees[i]; fn != nil && fn != fs.obj {
				if _, local := w.facts[fn]; local {
					callees[fs.obj] = append(callees[fs.obj], fn)
					hands[fs.obj] = hands[fs.obj] || w.importsHTTP && w.requestArg(c) != nil
				}
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, fs := range decls {
			f := w.facts[fs.obj]
			for _, c := range callees[fs.obj] {
				g := w.facts[c]
				if g == nil {
					continue
				}
				if g.Remote && !f.Remote {
					f.Remote, changed = true, true
				}
				if g.Budget && !f.Budget {
					f.Budget, changed = true, true
				}
			}
		}
	}
	// Chains of such calls (sleepDuration -> jitterBackoff ->
	// randDuration) settle in as many passes as they are deep, whatever
	// the order of declaration: repeat while a fact changes, a few times.
	for pass := 0; pass < maxFactPasses; pass++ {
		if !w.factPass(decls, callees, hands, pass == 0) {
			break
		}
	}
	for _, fs := range decls {
		f := w.facts[fs.obj]
		if f.empty() {
			w.facts[fs.obj] = nil
			continue
		}
		w.pass.ExportObjectFact(fs.obj, f)
	}
	w.cur = nil
}

// maxFactPasses bounds the passes over the package's functions after the
// first: enough for the chains of delay helpers real code writes.
const maxFactPasses = 4

// factPass recomputes the facts of the functions that call others of the
// package with writes, waits, delays or builders, and reports whether one
// changed. The first pass also looks again at every function that hands
// a request to a function of the package: requests handed to a sender
// this package defines are seen only once the sender's remoteness is
// settled.
func (w *walker) factPass(decls []*fnScope, callees map[*types.Func][]*types.Func, hands map[*types.Func]bool, first bool) bool {
	changed := false
	for _, fs := range decls {
		needs := false
		for _, c := range callees[fs.obj] {
			if g := w.facts[c]; g != nil && (len(g.Writes) > 0 || g.Delay != nil || g.Wait != nil || g.Build != nil || g.NoDeadline) {
				needs = true
			}
		}
		if !needs && !(first && hands[fs.obj]) {
			continue
		}
		w.enter(fs)
		f := w.funcFact(fs)
		old := w.facts[fs.obj]
		f.Remote = f.Remote || old.Remote
		f.Budget = f.Budget || old.Budget
		if !f.equal(old) {
			changed = true
		}
		w.facts[fs.obj] = f
	}
	return changed
}

// noDeadline reports whether fs takes no context and each of its remote
// calls, one at least, runs under no deadline (NoDeadline). A remote
// call in a function literal of it is not judged: unknown.
func (w *walker) noDeadline(fs *fnScope) bool {
	if fs.obj == nil {
		return false
	}
	sig := fs.obj.Type().(*types.Signature)
	for v := range sig.Params().Variables() {
		if isContextType(v.Type()) {
			return false
		}
	}
	var remote []*ast.CallExpr
	inLit := false
	ast.Inspect(fs.body, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok || !w.isRemoteCall(c) {
			if _, lit := n.(*ast.FuncLit); lit {
				ast.Inspect(n, func(m ast.Node) bool {
					if c, ok := m.(*ast.CallExpr); ok && w.isRemoteCall(c) {
						inLit = true
					}
					return !inLit
				})
				return false
			}
			return true
		}
		remote = append(remote, c)
		return true
	})
	if inLit || len(remote) == 0 {
		return false
	}
	probe := &Site{}
	for _, c := range remote {
		if d, ok := w.opDeadline(probe, c, fs); !ok || d != DeadlineNone {
			return false
		}
	}
	return !probe.Ctx.AttemptTimeout
}

// funcFact computes one function's fact from its body.
func (w *walker) funcFact(fs *fnScope) *FuncFact {
	f := &FuncFact{}
	callsWriter := w.callFacts(fs, f)
	f.Random = w.callsAny(fs, w.drawsRandom) && w.returnsRandom(fs)
	// Non-idempotent requests.
	if w.importsHTTP || callsWriter {
		f.Writes = w.writesOf(fs)
	}
	if w.importsHTTP {
		f.Build = w.buildFact(fs)
	}
	if f.Build == nil && (w.importsHTTP || w.importsRH) {
		f.Build = w.wrapperBuild(fs)
	}
	f.Ticks = w.tickSource(fs)
	f.NoDeadline = w.noDeadline(fs)
	if fd, ok := fs.node.(*ast.FuncDecl); ok && w.importsRH {
		f.MadeClient = libmodel.ClientMade(w.libEnv(), fs.file, fd)
	}
	// A function that waits only after a failure it swallows is no
	// sleep helper: its callers' rounds wait only when it fails.
	f.FailRearm = w.failRearm(fs)
	// Every wait is a receive, a select or a call of a sleep or of a
	// function that waits: a body with none of them has none to find.
	if fs.waitable || w.callsAny(fs, w.waitsFunc) {
		if f.FailWait = w.failWait(fs); f.FailWait == nil {
			f.Wait = w.topLevelWait(fs)
			if f.Wait == nil {
				f.Wait = w.chunkedWait(fs)
			}
		}
	}
	// A delay computation: one time.Duration result, alone or beside
	// others (delay, ok := nextDelay(attempt)).
	i := durationResult(fs.obj)
	if i < 0 {
		i = numberResult(fs.obj) // e(x, y float64) int { return int(math.Pow(x, y)) }
	}
	if i >= 0 && f.Wait == nil {
		if d := w.delayFact(fs, i); d != nil && (d.Growth != GrowthUnknown || d.Jitter || d.Value) {
			f.Delay = d
		}
	}
	return f
}

// callFacts sets what the function's calls make it (remote, budgeted),
// and reports whether it calls a function that writes.
func (w *walker) callFacts(fs *fnScope, f *FuncFact) (callsWriter bool) {
	for i, call := range fs.calls {
		fn := fs.callees[i]
		if fn != nil && fn == fs.obj {
			continue
		}
		if w.isRemoteCall(call) {
			f.Remote = true // a function value too: a round trip's next link
		}
		if fn == nil {
			continue
		}
		if w.isBudgetCall(call) {
			f.Budget = true
		}
		if g := w.factOf(fn); g != nil && len(g.Writes) > 0 {
			callsWriter = true
		}
	}
	return callsWriter
}

// callsAny reports whether the body (its literals included) calls a
// function that pred holds of.
func (w *walker) callsAny(fs *fnScope, pred func(*types.Func) bool) bool {
	for _, fn := range fs.callees {
		if fn != nil && fn != fs.obj && pred(fn) {
			return true
		}
	}
	return false
}

// waitsFunc reports whether fn sleeps or waits: time.Sleep,
// budget.Sleep, or a function with a wait fact.
func (w *walker) waitsFunc(fn *types.Func) bool {
	if astq.IsFunc(fn, "time.Sleep", BudgetPath+".Sleep") {
		return true
	}
	f := w.factOf(fn)
	return f != nil && f.Wait != nil
}

// writesOf returns the non-idempotent requests the function sends.
func (w *walker) writesOf(fs *fnScope) []Write {
	site := &Site{}
	w.describeRequests(site, fs, fs.body)
	var writes []Write
	for _, r := range site.Requests {
		if !r.NonIdempotent() {
			continue
		}
		wr := Write{Method: r.Method, Headers: r.Headers, KeyMinted: w.keyMintedHere(r, fs)}
		if !slices.ContainsFunc(writes, func(o Write) bool {
			return o.Method == wr.Method && o.KeyMinted == wr.KeyMinted && slices.Equal(o.Headers, wr.Headers)
		}) {
			writes = append(writes, wr) // one write, sent again on a second try, is one write
		}
	}
	return writes
}

// topLevelWait returns the fact of the first wait at the top level of the
// body (a sleep helper, not a retry loop), or nil when the first one
// found cannot be classified or there is none.
func (w *walker) topLevelWait(fs *fnScope) *WaitFact {
	for _, st := range fs.body.List {
		wait := w.waitIn(st, fs)
		if wait == nil {
			continue
		}
		wt := w.classifyWait(wait)
		if wt == nil {
			return nil
		}
		wf := &WaitFact{Param: -1, Cancellable: wt.Cancellable, StopFrom: w.stopFrom(wt, fs), Growth: wt.Growth, Jitter: wt.Jitter}
		if wt.Delay != nil {
			if id, ok := ast.Unparen(wt.Delay).(*ast.Ident); ok {
				if v, ok := w.info.Uses[id].(*types.Var); ok {
					wf.Param = w.paramIndex(v, fs.typ)
				}
			}
		}
		return wf
	}
	return nil
}

// waitIn returns the last wait in a statement outside loops and function
// literals: a sleep, a call of a wait helper, or a select on a timer.
func (w *walker) waitIn(st ast.Stmt, fs *fnScope) ast.Node {
	var wait ast.Node
	ast.Inspect(st, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.ForStmt, *ast.RangeStmt:
			return false
		case *ast.CallExpr:
			if fn := astq.Callee(w.info, n); astq.IsFunc(fn, "time.Sleep", BudgetPath+".Sleep") ||
				fn != nil && fn != fs.obj && w.factOf(fn) != nil && w.factOf(fn).Wait != nil {
				wait = n
			}
		case *ast.SelectStmt:
			if w.selectWaits(n) {
				wait = n
			}
		}
		return wait == nil
	})
	return wait
}

// selectWaits reports whether a select has a case receiving from a timer.
func (w *walker) selectWaits(n *ast.SelectStmt) bool {
	waits := false
	for _, c := range n.Body.List {
		if cc := c.(*ast.CommClause); cc.Comm != nil {
			if es, ok := cc.Comm.(*ast.ExprStmt); ok {
				if u, ok := es.X.(*ast.UnaryExpr); ok && u.Op == token.ARROW && w.isWaitRecv(u.X) {
					waits = true
				}
			}
		}
	}
	return waits
}

// delayFact combines what the function's returns say of the delay it
// computes, or returns nil when it returns nothing.
func (w *walker) delayFact(fs *fnScope, idx int) *DelayFact {
	var d *DelayFact
	var all judged
	n := fs.obj.Type().(*types.Signature).Results().Len()
	ast.Inspect(fs.body, func(node ast.Node) bool {
		if _, ok := node.(*ast.FuncLit); ok {
			return false
		}
		ret, ok := node.(*ast.ReturnStmt)
		if !ok || len(ret.Results) != n && len(ret.Results) != 0 {
			return true
		}
		var res ast.Expr
		var j judged
		if len(ret.Results) == 0 {
			// A bare return of a named result: judge the variable.
			id := namedResult(fs, idx)
			v, ok := w.info.Defs[id].(*types.Var)
			if id == nil || !ok {
				return true
			}
			res, j = id, w.varDelay(v, 0, map[types.Object]bool{v: true})
		} else {
			res = ret.Results[idx]
			j = w.delayOf(res, 0, map[types.Object]bool{})
		}
		uses := (w.usesParam(res, fs) || w.hasIntParam(fs)) && !j.settled
		if j.growth == GrowthUnknown && !j.value && !j.jitter && uses && w.growsWithParam(fs.body) {
			j.growth = GrowthGrowing
		}
		if d == nil {
			d, all = &DelayFact{UsesParam: uses, Result: idx}, j
		} else {
			d.UsesParam = d.UsesParam || uses
			all.alt(j)
		}
		return true
	})
	if d != nil {
		d.Growth, d.Jitter, d.Value = all.growth, all.jitter, all.value
		if d.Jitter {
			d.JitterIf = w.jitterField(fs)
		}
	}
	return d
}

// namedResult returns the identifier naming fs's result idx, or nil.
func namedResult(fs *fnScope, idx int) *ast.Ident {
	if fs.typ == nil || fs.typ.Results == nil {
		return nil
	}
	i := 0
	for _, f := range fs.typ.Results.List {
		for _, name := range f.Names {
			if i == idx {
				return name
			}
			i++
		}
		if len(f.Names) == 0 {
			i++
		}
	}
	return nil
}

// jitterField returns 1 + the index of the receiver's field whose being
// set gates every random draw of the method (if b.Jitter > 0 { d +=
// rand.N(b.Jitter) }), or 0: a caller whose value leaves it unset gets
// no randomness.
func (w *walker) jitterField(fs *fnScope) int {
	recv := w.receiverOf()
	if recv == nil {
		return 0
	}
	st, ok := derefStruct(recv.Type())
	if !ok {
		return 0
	}
	gate, draws := -1, 0
	var visit func(n ast.Node, gated int)
	visit = func(n ast.Node, gated int) {
		ast.Inspect(n, func(m ast.Node) bool {
			switch m := m.(type) {
			case *ast.FuncLit:
				return false
			case *ast.IfStmt:
				if f := w.fieldTest(m.Cond, recv, st); f >= 0 {
					visit(m.Body, f)
					if m.Else != nil {
						visit(m.Else, gated)
					}
					return false
				}
			case *ast.CallExpr:
				if w.drawsRandom(astq.Callee(w.info, m)) {
					draws++
					if gated < 0 || gate >= 0 && gate != gated {
						gate = -2
					} else if gate != -2 {
						gate = gated
					}
				}
			}
			return true
		})
	}
	visit(fs.body, -1)
	if draws == 0 || gate < 0 {
		return 0
	}
	return gate + 1
}

// drawsRandom reports whether a call of fn draws a random value: math/rand,
// crypto/rand, or a function whose fact says it returns one.
func (w *walker) drawsRandom(fn *types.Func) bool {
	if fn == nil {
		return false
	}
	if isRandFunc(fn) {
		return true
	}
	f := w.factOf(fn)
	return f != nil && f.Random
}

// fieldTest returns the index of the receiver field cond tests for being
// set (recv.F > 0, recv.F != 0, recv.F), or -1.
func (w *walker) fieldTest(cond ast.Expr, recv *types.Var, st *types.Struct) int {
	e := ast.Unparen(cond)
	if b, ok := e.(*ast.BinaryExpr); ok && (b.Op == token.GTR || b.Op == token.NEQ) {
		if n, ok := w.intConst(b.Y); !ok || n != 0 {
			return -1
		}
		e = ast.Unparen(b.X)
	}
	sel, ok := e.(*ast.SelectorExpr)
	if !ok || w.usedObj(sel.X) != recv {
		return -1
	}
	for i := 0; i < st.NumFields(); i++ {
		if st.Field(i) == w.info.Uses[sel.Sel] {
			return i
		}
	}
	return -1
}

// derefStruct returns the struct a (pointer to a) named struct type is.
func derefStruct(t types.Type) (*types.Struct, bool) {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	return st, ok
}

// tickSource reports whether fs returns a source of retry ticks: a
// range-over-func iterator literal whose loop yields and waits, or a
// channel a goroutine of fs sends on in a loop that waits.
func (w *walker) tickSource(fs *fnScope) bool {
	sig, ok := fs.obj.Type().(*types.Signature)
	if !ok || sig.Results().Len() != 1 {
		return false
	}
	rt := sig.Results().At(0).Type().Underlying()
	_, isIter := rt.(*types.Signature)
	if _, isChan := rt.(*types.Chan); !isIter && !isChan {
		return false
	}
	found := false
	ast.Inspect(fs.body, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.ReturnStmt:
			if _, isIter := rt.(*types.Signature); isIter && len(n.Results) == 1 {
				if lit, ok := ast.Unparen(n.Results[0]).(*ast.FuncLit); ok && w.yieldsAndWaits(lit) {
					found = true
				}
			}
		case *ast.GoStmt:
			if _, isChan := rt.(*types.Chan); isChan {
				if lit, ok := ast.Unparen(n.Call.Fun).(*ast.FuncLit); ok && w.sendsAndWaits(lit.Body) {
					found = true
				}
			}
		}
		return true
	})
	return found
}

// yieldsAndWaits reports whether an iterator literal (func(yield func(T)
// bool)) has a loop that calls yield and waits.
func (w *walker) yieldsAndWaits(lit *ast.FuncLit) bool {
	params := lit.Type.Params.List
	if len(params) != 1 || len(params[0].Names) != 1 {
		return false
	}
	yield := w.info.Defs[params[0].Names[0]]
	return w.loopDoes(lit.Body, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok {
			return false
		}
		id, ok := ast.Unparen(c.Fun).(*ast.Ident)
		return ok && yield != nil && w.info.Uses[id] == yield
	})
}

// sendsAndWaits reports whether a goroutine's body has a loop that sends
// on a channel and waits.
func (w *walker) sendsAndWaits(body *ast.BlockStmt) bool {
	return w.loopDoes(body, func(n ast.Node) bool {
		_, ok := n.(*ast.SendStmt)
		return ok
	})
}

// loopDoes reports whether a loop in body both does what is says and
// waits (time.Sleep, a wait helper, a timer receive).
func (w *walker) loopDoes(body *ast.BlockStmt, is func(ast.Node) bool) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found {
			return false
		}
		var lb *ast.BlockStmt
		switch l := n.(type) {
		case *ast.ForStmt:
			lb = l.Body
		case *ast.RangeStmt:
			lb = l.Body
		default:
			return true
		}
		does, waits := false, false
		ast.Inspect(lb, func(m ast.Node) bool {
			if _, lit := m.(*ast.FuncLit); lit {
				return false
			}
			if is(m) {
				does = true
			}
			switch m := m.(type) {
			case *ast.CallExpr:
				waits = waits || w.isWaitCall(m)
			case *ast.UnaryExpr:
				waits = waits || m.Op == token.ARROW && w.isWaitRecv(m.X)
			}
			return true
		})
		found = does && waits
		return !found
	})
	return found
}

// numberResult returns 0 when fn's only result is a plain number (an int
// or float factor a delay may be scaled by), or -1.
func numberResult(fn *types.Func) int {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Results().Len() != 1 {
		return -1
	}
	if b, ok := sig.Results().At(0).Type().(*types.Basic); ok && b.Info()&types.IsNumeric != 0 {
		return 0
	}
	return -1
}

// durationResult returns the index of fn's one time.Duration result, or -1.
func durationResult(fn *types.Func) int {
	sig, ok := fn.Type().(*types.Signature)
	if !ok {
		return -1
	}
	idx := -1
	for i := 0; i < sig.Results().Len(); i++ {
		if isDurationType(sig.Results().At(i).Type()) {
			if idx >= 0 {
				return -1
			}
			idx = i
		}
	}
	return idx
}

// buildFact recognises a request builder: a function whose one
// *http.Request result is, in every return that gives one, the same
// variable, built once by http.NewRequest[WithContext].
func (w *walker) buildFact(fs *fnScope) *BuildFact {
	sig, ok := fs.obj.Type().(*types.Signature)
	if !ok {
		return nil
	}
	at := -1
	for i := 0; i < sig.Results().Len(); i++ {
		if astq.IsNamed(sig.Results().At(i).Type(), "net/http", "Request") {
			if at >= 0 {
				return nil
			}
			at = i
		}
	}
	if at < 0 {
		return nil
	}
	var v *types.Var
	var ret ast.Expr
	rets, ok := w.returned(fs, sig.Results().Len(), at, false)
	for _, e := range rets {
		id, isID := e.(*ast.Ident)
		u, isVar := w.info.Uses[id].(*types.Var)
		if !isID || !isVar || v != nil && u != v {
			return nil
		}
		v, ret = u, e
	}
	if !ok || v == nil {
		return nil
	}
	build := w.requestBuild(ret, fs)
	if build == nil {
		return nil
	}
	b := &BuildFact{MethodParam: -1}
	if f := w.factOf(astq.Callee(w.info, build)); f != nil && f.Build != nil && f.Build.MethodParam < 0 {
		b.Method = f.Build.Method // a builder on top of a builder of a fixed method
	} else if m := w.methodArg(build); m != nil {
		if id, isID := ast.Unparen(m).(*ast.Ident); isID {
			if p, isVar := w.info.Uses[id].(*types.Var); isVar {
				b.MethodParam = w.paramIndex(p, fs.typ)
			}
		}
		if b.MethodParam < 0 {
			b.Method = w.constString(m, fs)
		}
	}
	r := &Request{Send: build, Pos: build.Pos()}
	w.resolveRequest(r, ret, fs, fs.body)
	b.Headers = r.Headers
	b.KeyMinted = w.keyMintedHere(r, fs)
	return b
}

// returned returns result at of every return of the function (not of
// nested literals), nil results left out. With calls, a return of one
// call giving all n results (return c.newRequest(m, p)) gives that call.
// ok is false for a bare return of named results or any other shape.
func (w *walker) returned(fs *fnScope, n, at int, calls bool) (out []ast.Expr, ok bool) {
	ok = true
	ast.Inspect(fs.body, func(nd ast.Node) bool {
		if _, lit := nd.(*ast.FuncLit); lit {
			return false
		}
		r, isRet := nd.(*ast.ReturnStmt)
		if !isRet || !ok {
			return ok
		}
		var e ast.Expr
		switch {
		case len(r.Results) == n:
			e = ast.Unparen(r.Results[at])
		case calls && len(r.Results) == 1:
			e = ast.Unparen(r.Results[0])
			if _, isCall := e.(*ast.CallExpr); !isCall {
				ok = false
			}
		default:
			ok = false
		}
		if ok && !w.info.Types[e].IsNil() {
			out = append(out, e)
		}
		return ok
	})
	return out, ok
}

// methodArg returns the method argument of a request build: an
// http.NewRequest or NewRequestWithContext call, or a call of a builder
// taking the method as a parameter.
func (w *walker) methodArg(build *ast.CallExpr) ast.Expr {
	fn := astq.Callee(w.info, build)
	idx := 0
	if astq.IsFunc(fn, "net/http.NewRequestWithContext") {
		idx = 1
	} else if f := w.factOf(fn); f != nil && f.Build != nil {
		idx = f.Build.MethodParam
	}
	if 0 <= idx && idx < len(build.Args) {
		return build.Args[idx]
	}
	return nil
}

// growsWithParam reports whether e multiplies or shifts by something
// (base << n, base * 2^n, math.Pow).
func (w *walker) growsWithParam(e ast.Node) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if e, ok := n.(ast.Expr); ok {
			if tv, ok := w.info.Types[e]; ok && tv.Value != nil {
				return false // a constant (maxInt = 1<<31 - 1) grows nothing
			}
		}
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if n.Op == token.SHL || n.Op == token.MUL {
				found = true
			}
		case *ast.CallExpr:
			if astq.IsFunc(astq.Callee(w.info, n), "math.Pow", "math.Exp2") {
				found = true
			}
		}
		return !found
	})
	return found
}

func (w *walker) usesParam(e ast.Expr, fs *fnScope) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := w.info.Uses[id].(*types.Var); ok && w.isParam(v, fs.typ) {
				found = true
			}
		}
		return !found
	})
	return found
}

func (w *walker) paramIndex(v *types.Var, ft *ast.FuncType) int {
	if ft == nil || ft.Params == nil {
		return -1
	}
	i := 0
	for _, f := range ft.Params.List {
		if len(f.Names) == 0 {
			i++
			continue
		}
		for _, n := range f.Names {
			if w.info.Defs[n] == v {
				return i
			}
			i++
		}
	}
	return -1
}

// keyMintedHere reports whether a request's key value is minted inside the
// function (afresh on every call), which dedupes nothing when a caller
// retries the function.
func (w *walker) keyMintedHere(r *Request, fs *fnScope) bool {
	if r.KeyVal == nil {
		return false
	}
	return r.KeyInLoop || w.mintedIn(r.KeyVal, fs, fs.body)
}

// retrierFact derives a helper's RetrierFact from its retry sites: a site
// whose retried operation is a call of a function parameter, or whose
// wait is a delay parameter.
func (w *walker) retrierFact(fs *fnScope, sites []*Site) *RetrierFact {
	if fs.obj == nil {
		return nil
	}
	for _, s := range sites {
		if s.Shape == ShapeLibrary || s.Consume {
			continue
		}
		r := &RetrierFact{OpParam: -1, DelayParam: -1, ResendParam: -1, MethodParam: -1, HeaderParam: -1, CtxParam: -1,
			Bound: s.Bound, Budget: len(s.Budget) > 0 || s.FuncBudget, Jitter: s.Jittered()}
		r.Sleeps, r.SleepsOn = sleepsBlind(s)
		if s.Ctx.Consulted && s.Ctx.InScope != nil {
			r.CtxParam = w.paramIndex(s.Ctx.InScope, fs.typ)
		}
		w.requestParams(fs, s, r)
		for _, op := range s.Ops {
			if _, i := w.paramOf(op.Fun, fs); i >= 0 {
				r.OpParam = i
				s.HandedFunc = true
			} else if vo, ok := w.valueOp(op, fs); ok && !slices.Contains(r.ValueOps, vo) {
				r.ValueOps = append(r.ValueOps, vo)
			} else {
				continue
			}
			if s.HandedOp == nil && !w.hidesWait(s) {
				s.HandedOp, s.HandedPlain = op, w.plainLoop(s)
			}
		}
		for _, wt := range s.Waits {
			if _, i := w.paramOf(wt.Delay, fs); i >= 0 {
				r.DelayParam = i
				r.Grows = wt.Growth == GrowthGrowing
			}
		}
		if r.OpParam >= 0 || r.DelayParam >= 0 || r.ResendParam >= 0 || r.MethodParam >= 0 || len(r.ValueOps) > 0 {
			return r
		}
	}
	return nil
}

// sleepsBlind reports whether a site waits with a wait that sleeps
// through cancellation (time.Sleep, <-time.After, a timer's channel
// outside a select) and consults no context or stop channel, and words
// the wait ("" for time.Sleep).
func sleepsBlind(s *Site) (bool, string) {
	if s.Ctx.Consulted || s.Ctx.InScope != nil || s.Ctx.StopChan != nil {
		return false, ""
	}
	for _, w := range s.Waits {
		if blind, on := blindKind(w.Kind); blind {
			return true, on
		}
	}
	return false, ""
}

// blindKind reports whether a wait of kind k sleeps through cancellation
// (time.Sleep, <-time.After, a timer's channel outside a select), and
// words it as RetrierFact.SleepsOn does ("" for time.Sleep).
func blindKind(k WaitKind) (bool, string) {
	switch k {
	case WaitSleep:
		return true, ""
	case WaitAfter:
		return true, "time.After"
	case WaitTimer:
		return true, "a timer's channel"
	}
	return false, ""
}

// requestParams sets the parameters a site's retried requests come from:
// the method a request is built with, and a request re-sent as it is.
func (w *walker) requestParams(fs *fnScope, s *Site, r *RetrierFact) {
	for _, req := range s.Requests {
		if req.Build == nil || req.Method != "" || !slicesContains(s.Ops, req.Send) {
			continue
		}
		idx := 0
		if astq.IsFunc(astq.Callee(w.info, req.Build), "net/http.NewRequestWithContext") {
			idx = 1
		}
		if idx >= len(req.Build.Args) {
			continue
		}
		if _, i := w.paramOf(req.Build.Args[idx], fs); i >= 0 {
			r.MethodParam = i
			r.Keyed = req.HasKey(w.opts.KeyHeaders)
			r.HeaderParam = w.headerParam(fs)
		}
	}
	for _, req := range s.Requests {
		if req.Send == nil || len(req.Send.Args) != 1 || !slicesContains(s.Ops, req.Send) {
			continue
		}
		if v, i := w.paramOf(req.Send.Args[0], fs); i >= 0 && astq.IsNamed(v.Type(), "net/http", "Request") {
			r.ResendParam = i
		}
	}
}

// paramOf returns the variable e names and its index among the function's
// parameters, or -1 when e names no parameter.
func (w *walker) paramOf(e ast.Expr, fs *fnScope) (*types.Var, int) {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil, -1
	}
	v, ok := w.info.Uses[id].(*types.Var)
	if !ok {
		return nil, -1
	}
	return v, w.paramIndex(v, fs.typ)
}

func slicesContains(ops []*ast.CallExpr, c *ast.CallExpr) bool {
	for _, op := range ops {
		if op == c {
			return true
		}
	}
	return false
}

// hasIntParam reports whether fs takes an integer parameter (an attempt
// number a delay may be computed from).
func (w *walker) hasIntParam(fs *fnScope) bool {
	if fs.obj == nil {
		return false
	}
	sig, ok := fs.obj.Type().(*types.Signature)
	if !ok {
		return false
	}
	for i := 0; i < sig.Params().Len(); i++ {
		if isInt(sig.Params().At(i).Type()) {
			return true
		}
	}
	return false
}

// headerParam returns the index of an http.Header parameter of fs (headers
// the helper may copy onto its request), or -1.
func (w *walker) headerParam(fs *fnScope) int {
	if fs.obj == nil {
		return -1
	}
	sig := fs.obj.Type().(*types.Signature)
	for i := 0; i < sig.Params().Len(); i++ {
		t := sig.Params().At(i).Type()
		if astq.IsNamed(t, "net/http", "Header") {
			return i
		}
	}
	return -1
}

// chunkedWait recognises a function that sleeps out a duration parameter
// in steps, to look at a stop flag between them
// (for d > 0 && !stopped() { s := min(step, d); time.Sleep(s); d -= s }):
// a wait of d. Its loop makes no calls that can fail.
func (w *walker) chunkedWait(fs *fnScope) *WaitFact {
	for _, st := range fs.body.List {
		loop, ok := st.(*ast.ForStmt)
		if !ok || loop.Cond == nil {
			continue
		}
		var param *types.Var
		sleeps, consumes := false, false
		ast.Inspect(loop.Cond, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if v, ok := w.info.Uses[id].(*types.Var); ok && isDurationType(v.Type()) && w.paramIndex(v, fs.typ) >= 0 {
					param = v
				}
			}
			return true
		})
		if param == nil || len(w.opsIn(loop.Body)) > 0 {
			continue
		}
		ast.Inspect(loop.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if astq.IsFunc(astq.Callee(w.info, n), "time.Sleep") {
					sleeps = true
				}
			case *ast.AssignStmt:
				if n.Tok == token.SUB_ASSIGN && len(n.Lhs) == 1 && w.isVar(n.Lhs[0], param) {
					consumes = true
				}
			}
			return true
		})
		if sleeps && consumes {
			return &WaitFact{Param: w.paramIndex(param, fs.typ), Growth: GrowthUnknown}
		}
	}
	return nil
}

// returnsRandom reports whether a return of fs gives a value drawn from a
// random source: a rand call, or a call to a function that returns one, in
// the returned expression itself.
func (w *walker) returnsRandom(fs *fnScope) bool {
	if sig, ok := fs.obj.Type().(*types.Signature); !ok || sig.Results().Len() == 0 {
		return false
	}
	found := false
	ast.Inspect(fs.body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		ret, ok := n.(*ast.ReturnStmt)
		if !ok {
			return !found
		}
		for _, r := range ret.Results {
			ast.Inspect(r, func(n ast.Node) bool {
				if c, ok := n.(*ast.CallExpr); ok {
					if fn := astq.Callee(w.info, c); fn != fs.obj && w.drawsRandom(fn) {
						found = true
					}
				}
				return !found
			})
		}
		return !found
	})
	return found
}
