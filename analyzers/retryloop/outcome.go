package retryloop

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strconv"

	"github.com/retrylint/retrylint/analyzers/internal/astq"
)

// The simulator walks a retry candidate's body twice over: once assuming
// every operation succeeds, once per operation assuming it fails, and
// records for each walk whether a path leaves the site (Exit) or reaches
// the next attempt (Next). A site is a retry when success can leave and a
// failure can come round again.

type outcome int

const (
	outRunning outcome = iota
	outNext
	outExit
	// outInner: the path continued an inner loop, skipping the rest of
	// its round; past the inner loop it runs on (the loop may be done).
	outInner
)

// opMode is the failure variant of the failing operation.
type opMode int

const (
	modeErr    opMode = iota + 1 // the call returns a non-nil error
	modeStatus                   // the call succeeds with a failure status code
)

type path struct {
	out     outcome
	vals    map[types.Object]Tri  // error vars: Yes = non-nil; bool vars: Yes = true
	status  map[types.Object]bool // response vars: true = failure status
	waits   []ast.Node
	consult bool // a context or stop channel was consulted on the path
	// tainted are the variables holding the failing op's outcome;
	// observed is set once the path tests one of them: a failure that
	// nothing looks at does not make the site a retry.
	tainted  map[types.Object]*ast.CallExpr
	observed map[*ast.CallExpr]bool
	abort    bool // the path ended in panic, os.Exit, log.Fatal, t.Fatal
	// obs counts observations; decided is set when a branch was decided
	// by an operation's outcome and cleared by a later split on something
	// else (if eof, if !ok): only an exit decided by the outcome is a
	// success exit.
	obs       int
	statusObs bool // a failure status of the failing op was tested
	pollTest  bool // ... and told from a 2xx code by equality (== 200)
	decided   bool
	decidedAt int
	// byContent is the operation whose result (not its error) made the
	// last decision: a success exit it decided is that operation's only.
	byContent *ast.CallExpr
	splits    []split   // blocks entered on splits not about the outcome
	exitPos   token.Pos // where the path left
	// stop is where the finished path stopped in the round (its exit or
	// jump), NoPos when it ran to the end of the round: set by run.
	stop token.Pos
	// jumped is set when the path went round by a jump (continue, goto
	// back), skipping what the rest of the round would do.
	jumped bool
	// jumpTo is the label a goto other than the attempt's own left to.
	jumpTo *types.Label
	// held is set when the path handed the function's stop input to a
	// call (session.RenewPeriodic(…, stopCh)): the call holds what the
	// attempt set up until it fails or is stopped, so a wait after it is
	// a delay before setting it up again, not a period.
	held bool
	// delays are the duration variables declared outside the loop that
	// the path assigns, with the last value: what the next round's wait
	// waits when its delay is one of them.
	delays map[types.Object]ast.Expr
}

type split struct {
	node ast.Node
	at   int
}

func (p *path) clone() *path {
	q := &path{out: p.out, vals: make(map[types.Object]Tri, len(p.vals)), status: make(map[types.Object]bool, len(p.status)), consult: p.consult,
		tainted: make(map[types.Object]*ast.CallExpr, len(p.tainted)), observed: make(map[*ast.CallExpr]bool, len(p.observed)), abort: p.abort, obs: p.obs, statusObs: p.statusObs, pollTest: p.pollTest, decided: p.decided, decidedAt: p.decidedAt, byContent: p.byContent, exitPos: p.exitPos, jumped: p.jumped, jumpTo: p.jumpTo, held: p.held}
	q.splits = append([]split(nil), p.splits...)
	for k, v := range p.tainted {
		q.tainted[k] = v
	}
	for k, v := range p.observed {
		q.observed[k] = v
	}
	for k, v := range p.vals {
		q.vals[k] = v
	}
	for k, v := range p.status {
		q.status[k] = v
	}
	q.waits = append([]ast.Node(nil), p.waits...)
	if len(p.delays) > 0 {
		q.delays = make(map[types.Object]ast.Expr, len(p.delays))
		for k, v := range p.delays {
			q.delays[k] = v
		}
	}
	return q
}

// sim holds one walk's configuration.
type sim struct {
	w        *walker
	info     *types.Info
	ops      map[*ast.CallExpr]bool // candidate operations
	kept     map[*ast.CallExpr]bool // those whose outcome is kept
	fail     *ast.CallExpr          // the failing op, or nil for the success walk
	mode     opMode
	loop     ast.Stmt     // the loop whose continue/break we track (nil for goto/recursion)
	label    *types.Label // the loop's label, if any
	gotoL    *types.Label // goto mode: jumping here is the next attempt
	headWait ast.Node     // a wait every next round starts with (for range ticker.C)
	self     *types.Func  // recursion mode: calling this is the next attempt
	handed   *types.Var   // failRearm: the timer parameter whose re-arming counts
	cond     ast.Expr     // loop condition, evaluated at the next attempt
	budget   int          // remaining path budget
	seq      int          // orders decisions and splits
	overflow bool
	seenFail bool // the failing op was reached on some path
	// ambiguous is set when a failure-status walk meets a success-class
	// comparison (== 200, < 300): that is polling for a state, not retrying.
	ambiguous bool
	// codeOf maps a variable holding status.Code(err) to err.
	codeOf map[types.Object]types.Object
	// predObserves: an outcome handed to a function value (if
	// p(err) {...}) is looked at (a condition's predicate).
	predObserves bool
	// deciders are the variables holding what an opaque judge said of
	// an operation's outcome (wait, err := policy.Retry(n, resp, err)).
	deciders map[types.Object]bool
	// carriers are the variables holding an operation's error carrier
	// (resp := collectorRequest(…); resp.GetError()): their vals entry
	// says whether the error it carries is non-nil, not whether the
	// carrier is.
	carriers map[types.Object]bool
}

const maxPaths = 256

// dedupe merges paths in identical states: branches that converge again
// need not be walked twice.
func dedupe(ps []*path) []*path {
	if len(ps) < 2 {
		return ps
	}
	seen := make(map[string]bool, len(ps))
	out := ps[:0]
	for _, p := range ps {
		k := p.key()
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, p)
	}
	return out
}

// key renders a path's state: equal keys, equal states.
func (p *path) key() string {
	// Each entry is a (kind, position, value) triple; the map entries
	// are sorted, the splits kept in order.
	type entry struct {
		kind byte
		pos  token.Pos
		val  int64
	}
	es := make([]entry, 0, len(p.vals)+len(p.status)+len(p.tainted)+len(p.observed)+len(p.waits)+len(p.delays)+1)
	for o, v := range p.vals {
		es = append(es, entry{'v', o.Pos(), int64(v)})
	}
	for o, v := range p.status {
		es = append(es, entry{'s', o.Pos(), int64(b2t(v))})
	}
	for o, c := range p.tainted {
		es = append(es, entry{'t', o.Pos(), int64(c.Pos())})
	}
	for c := range p.observed {
		es = append(es, entry{'o', c.Pos(), 0})
	}
	for _, w := range p.waits {
		es = append(es, entry{'w', w.Pos(), 0})
	}
	if p.jumpTo != nil {
		es = append(es, entry{'j', p.jumpTo.Pos(), 0})
	}
	for o, e := range p.delays {
		es = append(es, entry{'d', o.Pos(), int64(e.Pos())})
	}
	slices.SortFunc(es, func(a, b entry) int {
		if a.kind != b.kind {
			return int(a.kind) - int(b.kind)
		}
		if a.pos != b.pos {
			return int(a.pos - b.pos)
		}
		return int(a.val - b.val)
	})
	b := make([]byte, 0, 16*(len(es)+len(p.splits))+64)
	for _, f := range []bool{p.consult, p.abort, p.pollTest, p.held, p.decided} {
		b = strconv.AppendBool(b, f)
		b = append(b, '|')
	}
	for _, n := range []int64{int64(p.out), int64(p.decidedAt), int64(p.exitPos)} {
		b = strconv.AppendInt(b, n, 10)
		b = append(b, '|')
	}
	for _, e := range es {
		b = append(b, e.kind)
		b = strconv.AppendInt(b, int64(e.pos), 10)
		b = append(b, '=')
		b = strconv.AppendInt(b, e.val, 10)
		b = append(b, ',')
	}
	for _, sp := range p.splits {
		b = append(b, 'x')
		b = strconv.AppendInt(b, int64(sp.node.Pos()), 10)
		b = append(b, '@')
		b = strconv.AppendInt(b, int64(sp.at), 10)
		b = append(b, ',')
	}
	return string(b)
}

// run walks stmts from a fresh path and returns the finished paths.
func (s *sim) run(stmts []ast.Stmt) []*path {
	s.budget, s.overflow = maxPaths, false
	start := &path{vals: map[types.Object]Tri{}, status: map[types.Object]bool{}, tainted: map[types.Object]*ast.CallExpr{}, observed: map[*ast.CallExpr]bool{}}
	ps := s.block(stmts, []*path{start}, 0)
	if s.gotoL != nil {
		ps = s.forwardJumps(stmts, ps)
	}
	var done []*path
	for _, p := range ps {
		if p.out == outExit || p.out == outNext && p.jumped {
			p.stop = p.exitPos
		}
		if p.out == outRunning {
			p.out = outNext
			if s.gotoL != nil || s.self != nil {
				p.out = outExit // falling off the end of a goto block or function leaves
			}
		}
		if p.out == outNext && s.cond != nil && s.decide(s.cond, p) == No {
			p.out, p.exitPos = outExit, s.cond.Pos()
		}
		if p.out == outNext && s.headWait != nil {
			p.waits = append(p.waits, s.headWait)
		}
		done = append(done, p)
	}
	return done
}

// forwardJumps continues, in goto mode, the paths that jumped to another
// label of the attempt's own statements (if err != nil { goto WAIT };
// ...; WAIT: select { case <-time.After(d): goto START }).
func (s *sim) forwardJumps(stmts []ast.Stmt, ps []*path) []*path {
	if len(forwardLabels(s.info, stmts)) > maxForwardLabels {
		return ps
	}
	for range 4 {
		var out, again []*path
		for _, p := range ps {
			k := -1
			if p.out == outExit && p.jumpTo != nil {
				k = labelIndex(s.info, stmts, p.jumpTo)
			}
			if k < 0 {
				out = append(out, p)
				continue
			}
			p.out, p.jumpTo, p.exitPos = outRunning, nil, token.NoPos
			again = append(again, s.block(stmts[k:], []*path{p}, 0)...)
		}
		if len(again) == 0 {
			return out
		}
		ps = append(out, again...)
		if len(ps) > s.budget {
			s.overflow = true
			return ps[:s.budget]
		}
	}
	return ps
}

// labelIndex returns the index of the statement lbl labels in stmts, or -1.
func labelIndex(info *types.Info, stmts []ast.Stmt, lbl *types.Label) int {
	for i, st := range stmts {
		if ls, ok := st.(*ast.LabeledStmt); ok && info.Defs[ls.Label] == lbl {
			return i
		}
	}
	return -1
}

// depth counts enclosing switch/select/inner loops, where an unlabeled
// break does not leave our loop.
func (s *sim) block(stmts []ast.Stmt, in []*path, depth int) []*path {
	ps := in
	for _, st := range stmts {
		var next []*path
		var running []*path
		for _, p := range ps {
			if p.out != outRunning {
				next = append(next, p)
			} else {
				running = append(running, p)
			}
		}
		if len(running) == 0 {
			return ps
		}
		next = append(next, s.stmt(st, running, depth)...)
		if len(next) > 64 {
			next = dedupe(next)
		}
		if len(next) > s.budget {
			s.overflow = true
			next = next[:s.budget]
		}
		ps = next
	}
	return ps
}

func (s *sim) stmt(st ast.Stmt, ps []*path, depth int) []*path {
	switch st := st.(type) {
	case *ast.BlockStmt:
		return s.block(st.List, ps, depth)
	case *ast.LabeledStmt:
		return s.stmt(st.Stmt, ps, depth)
	case *ast.ExprStmt:
		return s.exprStmt(st, ps)
	case *ast.AssignStmt:
		for _, p := range ps {
			s.assign(st.Lhs, st.Rhs, p)
			if st.Tok != token.ASSIGN && st.Tok != token.DEFINE && p.delays != nil {
				// d *= 2: the variable as the function changes it.
				if obj := s.obj(st.Lhs[0]); obj != nil && p.delays[obj] != nil {
					p.delays[obj] = st.Lhs[0]
				}
			}
		}
		return ps
	case *ast.DeclStmt:
		return s.declStmt(st, ps)
	case *ast.IncDecStmt, *ast.SendStmt, *ast.GoStmt, *ast.DeferStmt, *ast.EmptyStmt:
		return ps
	case *ast.ReturnStmt:
		return s.returnStmt(st, ps)
	case *ast.BranchStmt:
		for _, p := range ps {
			p.out = s.branch(st, depth)
			p.exitPos = st.Pos()
			p.jumped = p.out == outNext
			if st.Tok == token.GOTO && p.out == outExit && st.Label != nil {
				p.jumpTo, _ = s.info.Uses[st.Label].(*types.Label)
			}
		}
		return ps
	case *ast.IfStmt:
		return s.ifStmt(st, ps, depth)
	case *ast.SwitchStmt:
		if st.Init != nil {
			ps = s.stmt(st.Init, ps, depth)
		}
		return s.switchStmt(st, ps, depth)
	case *ast.TypeSwitchStmt:
		return s.typeSwitchStmt(st, ps, depth)
	case *ast.SelectStmt:
		return s.selectStmt(st, ps, depth)
	case *ast.ForStmt, *ast.RangeStmt:
		return s.inner(st, ps, depth)
	}
	return ps
}

// exprStmt evaluates an expression statement; a call that does not
// return (panic, os.Exit, t.Fatal) ends the paths as an abort.
func (s *sim) exprStmt(st *ast.ExprStmt, ps []*path) []*path {
	for _, p := range ps {
		s.expr(st.X, p)
	}
	if call, ok := ast.Unparen(st.X).(*ast.CallExpr); ok && call == s.fail && s.w.swallows(call) {
		// It failed, waited and returned: the round goes on.
		s.seenFail = true
		for _, p := range ps {
			p.observed[call] = true
			p.waits = append(p.waits, call)
		}
	}
	if call, ok := ast.Unparen(st.X).(*ast.CallExpr); ok && call == s.fail && s.loop != nil {
		if t := s.w.rearmedOnFail(call); t != nil {
			// It failed and re-armed the timer t for its retry delay:
			// the call stands for that delay (chooseDelay).
			s.seenFail = true
			for _, p := range ps {
				p.observed[call] = true
				s.setDelay(p, t, call)
			}
		}
	}
	if call, ok := ast.Unparen(st.X).(*ast.CallExpr); ok && s.noReturn(call) {
		for _, p := range ps {
			p.out, p.exitPos = outExit, st.Pos()
			p.abort = true
		}
	}
	return ps
}

// declStmt assigns the values of var declarations.
func (s *sim) declStmt(st *ast.DeclStmt, ps []*path) []*path {
	gd, ok := st.Decl.(*ast.GenDecl)
	if !ok {
		return ps
	}
	for _, spec := range gd.Specs {
		if vs, ok := spec.(*ast.ValueSpec); ok && len(vs.Values) == 0 {
			// var retryCh <-chan time.Time: a nil channel until set.
			for _, n := range vs.Names {
				if obj := s.info.Defs[n]; obj != nil && isChan(obj.Type()) {
					for _, p := range ps {
						p.vals[obj] = No
					}
				}
			}
		}
		if vs, ok := spec.(*ast.ValueSpec); ok && len(vs.Values) > 0 {
			lhs := make([]ast.Expr, len(vs.Names))
			for i, n := range vs.Names {
				lhs[i] = n
			}
			for _, p := range ps {
				s.assign(lhs, vs.Values, p)
			}
		}
	}
	return ps
}

// returnStmt leaves, except in recursion mode where returning the
// function's own call is the next attempt.
func (s *sim) returnStmt(st *ast.ReturnStmt, ps []*path) []*path {
	for _, p := range ps {
		for _, r := range st.Results {
			s.expr(r, p)
		}
		if s.self != nil && s.callsSelf(st) {
			p.out = outNext
		} else {
			p.out, p.exitPos = outExit, st.Pos()
		}
	}
	return ps
}

func (s *sim) ifStmt(st *ast.IfStmt, ps []*path, depth int) []*path {
	if st.Init != nil {
		ps = s.stmt(st.Init, ps, depth)
	}
	var out []*path
	for _, p := range ps {
		if p.out != outRunning {
			out = append(out, p)
			continue
		}
		out = append(out, s.ifPath(st, p, depth)...)
	}
	return out
}

// ifPath walks one running path through an if: the branches its
// condition allows, each marked with what decided it.
func (s *sim) ifPath(st *ast.IfStmt, p *path, depth int) []*path {
	var out []*path
	prevDecided, prevAt, prevBy := p.decided, p.decidedAt, p.byContent
	v := s.decide(st.Cond, p)
	if v == Unknown && s.fail == nil && s.judged(st.Cond, p) {
		// On success an opaque judge of the outcome (a retry policy or
		// predicate: SPEC) says stop: the branch that leaves is taken.
		switch {
		case s.alwaysLeaves(st.Body):
			v = Yes
		case st.Else != nil && s.elseLeaves(st.Else):
			v = No
		}
		if v != Unknown {
			s.seq++
			p.decided, p.decidedAt, p.byContent = true, s.seq, nil
		}
	}
	// A decision whose other branch leaves too does not tell
	// leaving from retrying (if err != nil && x { return err }).
	// Nor does one whose branches only log: both go the same way
	// (if err != nil { log.Printf(...) }; return).
	if v == No && s.alwaysLeaves(st.Body) || v == Yes && st.Else != nil && s.elseLeaves(st.Else) ||
		v != Unknown && s.inert(st.Body) && (st.Else == nil || s.inert(st.Else)) {
		p.decided, p.decidedAt, p.byContent = prevDecided, prevAt, prevBy
	}
	content := s.contentDecision(st, v, p)
	if content != nil {
		// On success the result's content decides (err == nil &&
		// len(data) == 0, token != rejected): either branch is the
		// outcome's choice, that operation's.
		s.seq++
		p.decided, p.decidedAt, p.byContent = true, s.seq, content
	}
	other := v == Unknown && (!s.mentionsOutcome(st.Cond) && content == nil || s.consultsIn(st.Cond))
	if v != No {
		q := p
		if v == Unknown {
			q = p.clone()
			// if err == nil && !res.Requeue { return }: the
			// branch needs the success, so leaving by it is
			// decided by the outcome, even if not by it alone.
			if s.partlyDecided(st.Cond, p) {
				s.seq++
				q.decided, q.decidedAt, q.byContent = true, s.seq, nil
			}
		}
		if other {
			s.seq++
			q.splits = append(q.splits, split{st.Body, s.seq})
		}
		out = append(out, s.block(st.Body.List, []*path{q}, depth)...)
	}
	if v == Yes {
		return out
	}
	if st.Else == nil {
		return append(out, p)
	}
	if other {
		s.seq++
		p.splits = append(p.splits, split{st.Else, s.seq})
	}
	return append(out, s.stmt(st.Else, []*path{p}, depth)...)
}

// typeSwitchStmt walks every case, and past the switch when it has no
// default: which case runs is not the outcome's business.
func (s *sim) typeSwitchStmt(st *ast.TypeSwitchStmt, ps []*path, depth int) []*path {
	var out []*path
	for _, p := range ps {
		for _, cc := range st.Body.List {
			out = append(out, s.block(cc.(*ast.CaseClause).Body, []*path{p.clone()}, depth+1)...)
		}
		if !hasDefault(st.Body) {
			out = append(out, p)
		}
	}
	return out
}

// selectStmt walks every case. A select that offers a context's Done or
// a stop channel consults it on every branch: the path through the timer
// case was free to stop (select { case <-t.C: retry; case <-ctx.Done():
// return }).
func (s *sim) selectStmt(st *ast.SelectStmt, ps []*path, depth int) []*path {
	races := false
	for _, cc := range st.Body.List {
		if comm := cc.(*ast.CommClause); comm.Comm != nil && s.consultComm(comm.Comm) {
			races = true
		}
	}
	var out []*path
	for _, p := range ps {
		if races {
			p.consult = true
		}
		for _, cc := range st.Body.List {
			comm := cc.(*ast.CommClause)
			if s.nilRecv(comm, p) {
				continue // receiving from a nil channel never fires
			}
			q := p.clone()
			s.seq++
			q.splits = append(q.splits, split{comm, s.seq}) // which case fires is not the op's outcome
			if comm.Comm != nil {
				s.comm(comm.Comm, st, q)
			}
			out = append(out, s.block(comm.Body, []*path{q}, depth+1)...)
		}
	}
	return out
}

// nilRecv reports whether a select case receives from a channel
// variable known to be nil on the path.
func (s *sim) nilRecv(comm *ast.CommClause, p *path) bool {
	if comm.Comm == nil {
		return false
	}
	u := commRecv(comm.Comm)
	if u == nil {
		return false
	}
	obj := s.obj(u.X)
	if obj == nil || !isChan(obj.Type()) {
		return false
	}
	v, ok := p.vals[obj]
	return ok && v == No
}

// inert reports whether a branch only makes calls that return (logging,
// metrics): taking it or not changes nothing the simulation tracks.
func (s *sim) inert(st ast.Stmt) bool {
	b, ok := st.(*ast.BlockStmt)
	if !ok {
		return false
	}
	for _, x := range b.List {
		e, ok := x.(*ast.ExprStmt)
		if !ok {
			return false
		}
		c, ok := ast.Unparen(e.X).(*ast.CallExpr)
		if !ok || s.noReturn(c) || s.ops[c] || s.w.isWaitCall(c) {
			return false
		}
	}
	return true
}

func hasDefault(body *ast.BlockStmt) bool {
	for _, c := range body.List {
		if cc, ok := c.(*ast.CaseClause); ok && cc.List == nil {
			return true
		}
	}
	return false
}

func (s *sim) switchStmt(st *ast.SwitchStmt, ps []*path, depth int) []*path {
	var out []*path
	for _, p := range ps {
		taken := false
		before := p.obs
		known := true
		for _, c := range st.Body.List {
			cc := c.(*ast.CaseClause)
			if cc.List == nil {
				continue
			}
			v := No
			for _, e := range cc.List {
				var ev Tri
				if st.Tag != nil {
					ev = s.evalEq(st.Tag, e, p)
				} else {
					ev = s.eval(e, p)
				}
				v = or(v, ev)
			}
			if v == Unknown && s.fail == nil && s.judged(cc.List[0], p) && len(cc.List) == 1 && s.alwaysLeaves(&ast.BlockStmt{List: cc.Body}) {
				// On success a judge's case that leaves is taken (case
				// ok(res): return res, nil), as in an if.
				v = Yes
			}
			if v == No {
				continue
			}
			q := p.clone()
			if v == Yes && known && p.obs > before {
				s.seq++
				q.decided, q.decidedAt, q.byContent = true, s.seq, nil
			}
			if v == Unknown {
				known = false
			}
			out = append(out, s.block(cc.Body, []*path{q}, depth+1)...)
			if v == Yes {
				taken = true
				break
			}
		}
		if !taken && known && p.obs > before {
			// Every case was decided against: the default (or nothing) runs.
			s.seq++
			p.decided, p.decidedAt, p.byContent = true, s.seq, nil
		}
		if !taken {
			def := false
			for _, c := range st.Body.List {
				if cc := c.(*ast.CaseClause); cc.List == nil {
					out = append(out, s.block(cc.Body, []*path{p}, depth+1)...)
					def = true
				}
			}
			if !def {
				out = append(out, p)
			}
		}
	}
	return out
}

// inner walks a nested loop once: its returns and labeled jumps count.
// A pass through the body of a loop that runs out (range, or a condition)
// and falls off the end, continues or breaks goes on after the loop (a
// failover sweep that every element failed); in a for loop without a
// condition such a pass goes round the inner loop (read until an error),
// which says nothing about ours. The path that skips the loop goes on too.
func (s *sim) inner(st ast.Stmt, ps []*path, depth int) []*path {
	var body *ast.BlockStmt
	runsOut := true
	switch st := st.(type) {
	case *ast.ForStmt:
		body, runsOut = st.Body, st.Cond != nil
	case *ast.RangeStmt:
		body = st.Body
	}
	var out []*path
	for _, p := range ps {
		for _, q := range s.block(body.List, []*path{p.clone()}, depth+100) {
			if q.out == outInner {
				q.out = outRunning
			}
			if runsOut || q.out == outExit || q.out == outNext {
				out = append(out, q)
			}
		}
		out = append(out, p)
	}
	return out
}

// branch decides where a break/continue/goto goes.
func (s *sim) branch(b *ast.BranchStmt, depth int) outcome {
	var lbl *types.Label
	if b.Label != nil {
		lbl, _ = s.info.Uses[b.Label].(*types.Label)
	}
	switch b.Tok {
	case token.CONTINUE:
		if lbl == nil && depth >= 100 {
			return outInner // continues an inner loop
		}
		if lbl == nil || lbl == s.label {
			return outNext
		}
		return outExit
	case token.BREAK:
		if lbl == nil && depth > 0 {
			return outRunning // leaves a switch, select or inner loop
		}
		return outExit
	case token.GOTO:
		if lbl != nil && lbl == s.gotoL {
			return outNext
		}
		return outExit
	case token.FALLTHROUGH:
		return outRunning
	}
	return outExit
}

// noReturn reports whether call never returns (panic, os.Exit, log.Fatal, t.Fatal).
func (s *sim) noReturn(call *ast.CallExpr) bool {
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if b, ok := s.info.Uses[id].(*types.Builtin); ok && b.Name() == "panic" {
			return true
		}
	}
	fn := astq.Callee(s.info, call)
	switch astq.FuncPath(fn) {
	case "os.Exit", "log.Fatal", "log.Fatalf", "log.Fatalln", "log.Panic", "log.Panicf",
		"log.Logger.Fatal", "log.Logger.Fatalf", "log.Logger.Fatalln",
		"testing.common.Fatal", "testing.common.Fatalf", "testing.common.FailNow", "testing.common.SkipNow",
		"testing.common.Skip", "testing.common.Skipf", "runtime.Goexit":
		return true
	}
	return false
}

func (s *sim) callsSelf(r *ast.ReturnStmt) bool {
	found := false
	for _, e := range r.Results {
		ast.Inspect(e, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok && astq.Callee(s.info, c) == s.self {
				found = true
			}
			return !found
		})
	}
	return found
}

// expr notes the effects of evaluating e: waits, operations, consultations.
func (s *sim) expr(e ast.Expr, p *path) {
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if s.w.isWaitCall(n) {
				p.waits = append(p.waits, n)
			} else if s.w.handsStop(n) {
				p.held = true
			}
			if s.w.consults(n) {
				p.consult = true
			}
			if t, d := s.rearms(n); t != nil {
				s.setDelay(p, t, d) // the next round's wait on t waits d
			} else if t := s.handsTimer(n); t != nil {
				s.setDelay(p, t, timerHanded) // what it arms is unknown
			}
			if s.self != nil && astq.Callee(s.info, n) == s.self {
				p.out = outNext
			}
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				if s.w.isWaitRecv(n.X) {
					p.waits = append(p.waits, n)
				}
				if s.w.isConsultRecv(n.X) {
					p.consult = true
				}
			}
		}
		return true
	})
}

// commRecv returns the receive of a select case's communication, or nil.
func commRecv(c ast.Stmt) *ast.UnaryExpr {
	var x ast.Expr
	switch c := c.(type) {
	case *ast.ExprStmt:
		x = c.X
	case *ast.AssignStmt:
		if len(c.Rhs) == 1 {
			x = c.Rhs[0]
		}
	}
	if u, ok := ast.Unparen(x).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
		return u
	}
	return nil
}

// consultComm reports whether a select case receives from a context's
// Done or a stop channel.
func (s *sim) consultComm(c ast.Stmt) bool {
	u := commRecv(c)
	return u != nil && s.w.isConsultRecv(u.X)
}

// comm handles a select case's communication.
func (s *sim) comm(c ast.Stmt, sel *ast.SelectStmt, p *path) {
	if u := commRecv(c); u != nil {
		if s.w.isWaitRecv(u.X) {
			p.waits = append(p.waits, sel)
		}
		if s.w.isConsultRecv(u.X) {
			p.consult = true
		}
	}
}

// assign records what an assignment tells about operation outcomes and flags.
func (s *sim) assign(lhs, rhs []ast.Expr, p *path) {
	for _, r := range rhs {
		s.expr(r, p)
	}
	if len(rhs) == 1 && len(lhs) > 1 {
		s.assignTuple(lhs, rhs[0], p)
		return
	}
	for i, l := range lhs {
		if i >= len(rhs) {
			break
		}
		if obj := s.obj(l); obj != nil {
			s.assignOne(l, obj, ast.Unparen(rhs[i]), p)
		}
	}
}

// assignTuple records v, err := call(): for an operation, what each
// result says of its outcome on this path.
func (s *sim) assignTuple(lhs []ast.Expr, rhs ast.Expr, p *path) {
	call, ok := ast.Unparen(rhs).(*ast.CallExpr)
	if !ok {
		s.assertError(lhs, rhs, p)
		return
	}
	if op := s.decider(call, p); op != nil {
		// What the judge says is its verdict on op's outcome.
		for _, l := range lhs {
			if obj := s.obj(l); obj != nil {
				s.set(l, Unknown, p)
				p.tainted[obj] = op
				s.judge(obj)
			}
		}
		return
	}
	isOp := s.ops[call]
	for i, l := range lhs {
		obj := s.obj(l)
		if obj == nil {
			continue
		}
		if isOp {
			p.tainted[obj] = call
			s.opResult(l, obj, i == len(lhs)-1, call, p)
		} else {
			delete(p.tainted, obj)
			s.set(l, Unknown, p)
		}
	}
}

// assertError records pe, ok := err.(*os.PathError) for an outcome's
// error: it looks at the error, and where the error is nil, pe is nil and
// ok false. Any other tuple assignment from a non-call is unknown.
func (s *sim) assertError(lhs []ast.Expr, rhs ast.Expr, p *path) {
	for _, l := range lhs {
		s.set(l, Unknown, p)
	}
	ta, ok := ast.Unparen(rhs).(*ast.TypeAssertExpr)
	if !ok || ta.Type == nil || len(lhs) != 2 {
		return
	}
	o := s.obj(ta.X)
	if o == nil || !isErrorType(o.Type()) {
		return
	}
	if c := p.tainted[o]; c != nil {
		p.observed[c] = true
		p.obs++
	}
	if p.vals[o] != No {
		return
	}
	if v := s.obj(lhs[1]); v != nil && isBool(v.Type()) {
		p.vals[v] = No
	}
	if v := s.obj(lhs[0]); v != nil && (isPointer(v.Type()) || isErrorType(v.Type())) {
		p.vals[v] = No
	}
}

// opResult records one result of an operation in a tuple: the last error
// or ok, the response, or a pointer beside an error.
func (s *sim) opResult(l ast.Expr, obj types.Object, last bool, call *ast.CallExpr, p *path) {
	failing := call == s.fail
	t := obj.Type()
	switch {
	case isErrorType(t) && last:
		if failing {
			s.seenFail = true
			if s.mode == modeErr {
				p.vals[obj] = Yes
			} else {
				p.vals[obj] = No
			}
		} else {
			p.vals[obj] = No
		}
	case isResponse(t):
		p.status[obj] = failing && s.mode == modeStatus
	case last && errCarrier(t):
		s.carry(obj, failing, p)
	case isBool(t) && last:
		if failing {
			s.seenFail = true
			p.vals[obj] = No
		} else {
			p.vals[obj] = Yes
		}
	case (isPointer(t) || isChan(t)) && !last && s.errLast(call):
		// By Go's convention a result beside an error is nil
		// when the call fails: if wm != nil { break } leaves on
		// success (Yes = non-nil).
		p.vals[obj] = b2t(!(failing && s.mode == modeErr))
	case isBool(t) && !last && s.errLast(call) && s.w.retryFlag(call) == Yes:
		// retry, err := op(): a flag the operation sets only beside an
		// error asks for no retry on success.
		if failing && s.mode == modeErr {
			s.set(l, Unknown, p)
		} else {
			p.vals[obj] = No
		}
	default:
		s.set(l, Unknown, p)
	}
}

// assignOne records l = r for a variable obj.
func (s *sim) assignOne(l ast.Expr, obj types.Object, r ast.Expr, p *path) {
	if s.carried(obj) {
		if p.delays == nil {
			p.delays = map[types.Object]ast.Expr{}
		}
		p.delays[obj] = r
	}
	if call, ok := r.(*ast.CallExpr); ok && s.ops[call] {
		failing := call == s.fail
		if failing {
			s.seenFail = true
		}
		p.tainted[obj] = call
		switch {
		case isErrorType(obj.Type()):
			p.vals[obj] = b2t(failing && s.mode == modeErr)
		case isBool(obj.Type()):
			p.vals[obj] = b2t(!failing)
		case errCarrier(obj.Type()):
			s.carry(obj, failing, p)
		default:
			s.set(l, Unknown, p)
		}
		return
	}
	if v, ok := s.w.usedObj(r).(*types.Var); ok && isSignature(obj.Type()) && s.w.nilFuncVar(v) {
		p.vals[obj] = No // f := testHook: nil outside tests
		return
	}
	if eo := s.grpcCodeOf(r); eo != nil {
		// code := status.Code(err): the outcome's gRPC code.
		if s.codeOf == nil {
			s.codeOf = map[types.Object]types.Object{}
		}
		s.codeOf[obj] = eo
		if c := p.tainted[eo]; c != nil {
			p.tainted[obj] = c
		}
		return
	}
	if isBool(obj.Type()) {
		p.vals[obj] = s.eval(r, p)
		if c, ok := r.(*ast.CallExpr); ok && p.vals[obj] == Unknown && s.decider(c, p) != nil {
			s.judge(obj) // retry := shouldRetry(req, res)
		}
		return
	}
	if isErrorType(obj.Type()) {
		if v, ok := s.errorValue(r, p); ok {
			p.vals[obj] = v
			return
		}
	}
	if isChan(obj.Type()) {
		s.set(l, s.chanValue(r), p)
		return
	}
	s.set(l, Unknown, p)
}

// carried reports whether obj is a duration variable declared outside the
// loop: a value the path gives it is there when the next round starts.
func (s *sim) carried(obj types.Object) bool {
	v, ok := obj.(*types.Var)
	if !ok || s.loop == nil || !isDurationType(v.Type()) || v.Parent() == nil || v.Parent() == types.Universe {
		return false
	}
	return v.Pos() < s.loop.Pos() || v.Pos() >= s.loop.End()
}

// rearms returns the timer a call re-arms (t.Reset(d)) and the delay,
// when t is a timer variable declared outside the loop: a select that
// waits on t.C next round waits d.
func (s *sim) rearms(call *ast.CallExpr) (types.Object, ast.Expr) {
	if s.loop == nil && s.handed == nil {
		return nil, nil
	}
	x, d := s.w.timerReset(call)
	switch fn := astq.Callee(s.info, call); {
	case x != nil:
	case astq.IsFunc(fn, "time.AfterFunc") && len(call.Args) == 2:
		return s.signals(call)
	case fn == nil:
		// failure(), a local closure that schedules the signal.
		if lit := s.w.localFunc(call.Fun); lit != nil {
			var ch types.Object
			var after ast.Expr
			ast.Inspect(lit.Body, func(n ast.Node) bool {
				if c, ok := n.(*ast.CallExpr); ok && ch == nil && astq.IsFunc(astq.Callee(s.info, c), "time.AfterFunc") && len(c.Args) == 2 {
					ch, after = s.signals(c)
				}
				return ch == nil
			})
			return ch, after
		}
		return nil, nil
	default:
		return nil, nil
	}
	v, ok := s.obj(x).(*types.Var)
	switch {
	case !ok:
		return nil, nil
	case s.loop == nil:
		if v != s.handed {
			return nil, nil
		}
	case v.Pos() >= s.loop.Pos() && v.Pos() < s.loop.End():
		return nil, nil
	}
	return v, d
}

// timerHanded stands for the delay of a timer handed to a function that
// may re-arm it: unknown (chosenDelay).
var timerHanded = &ast.BadExpr{}

func (s *sim) setDelay(p *path, t types.Object, d ast.Expr) {
	if p.delays == nil {
		p.delays = map[types.Object]ast.Expr{}
	}
	p.delays[t] = d
}

// handsTimer returns the timer variable declared outside the loop that
// a call hands on (schedule(t)), unless the call's fact says how it
// re-arms it (FuncFact.FailRearm).
func (s *sim) handsTimer(call *ast.CallExpr) types.Object {
	if s.loop == nil || s.w.rearmedOnFail(call) != nil {
		return nil
	}
	for _, a := range call.Args {
		v, ok := s.obj(a).(*types.Var)
		if ok && isTimerPtr(v.Type()) && (v.Pos() < s.loop.Pos() || v.Pos() >= s.loop.End()) {
			return v
		}
	}
	return nil
}

// signals returns the channel a time.AfterFunc call's callback signals,
// when only timer callbacks signal it (afterFuncChan), and the delay.
func (s *sim) signals(call *ast.CallExpr) (types.Object, ast.Expr) {
	lit, ok := ast.Unparen(call.Args[1]).(*ast.FuncLit)
	if !ok {
		return nil, nil
	}
	var ch ast.Expr
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		if st, ok := n.(*ast.SendStmt); ok && ch == nil {
			ch = st.Chan
		}
		return ch == nil
	})
	if ch == nil || s.w.afterFuncChan(ch) == nil {
		return nil, nil
	}
	return s.obj(ch), call.Args[0]
}

// chanValue is what is known of a channel assigned: nil, or a channel
// made here (make, time.After, time.Tick).
func (s *sim) chanValue(r ast.Expr) Tri {
	if id, ok := r.(*ast.Ident); ok && s.info.Uses[id] == types.Universe.Lookup("nil") {
		return No
	}
	if c, ok := r.(*ast.CallExpr); ok {
		if id, ok := ast.Unparen(c.Fun).(*ast.Ident); ok && s.info.Uses[id] == types.Universe.Lookup("make") {
			return Yes
		}
		if astq.IsFunc(astq.Callee(s.info, c), "time.After", "time.Tick") {
			return Yes
		}
	}
	return Unknown
}

func isChan(t types.Type) bool {
	_, ok := t.Underlying().(*types.Chan)
	return ok
}

// errorValue is what is known of an error value assigned: nil, an error
// made here, or another error variable's value on this path.
func (s *sim) errorValue(r ast.Expr, p *path) (Tri, bool) {
	if id, ok := r.(*ast.Ident); ok && id.Name == "nil" {
		return No, true
	}
	if s.nonNilError(r) {
		return Yes, true
	}
	if o := s.carriedErr(r, p); o != nil {
		return p.vals[o], true
	}
	if o := s.obj(r); o != nil {
		if v, ok := p.vals[o]; ok {
			return v, true
		}
	}
	return Unknown, false
}

func b2t(b bool) Tri {
	if b {
		return Yes
	}
	return No
}

func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
}

func (s *sim) set(l ast.Expr, v Tri, p *path) {
	if obj := s.obj(l); obj != nil {
		if v == Unknown {
			delete(p.vals, obj)
			delete(p.status, obj)
		} else {
			p.vals[obj] = v
		}
	}
}

func (s *sim) obj(e ast.Expr) types.Object { return identVar(s.info, e) }

// identVar returns what a name defines, or the variable it uses.
func identVar(info *types.Info, e ast.Expr) types.Object {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	if o := info.Defs[id]; o != nil {
		return o
	}
	if o, ok := info.Uses[id].(*types.Var); ok {
		return o
	}
	return nil
}

func not(v Tri) Tri {
	switch v {
	case Yes:
		return No
	case No:
		return Yes
	}
	return Unknown
}

func and(a, b Tri) Tri {
	if a == No || b == No {
		return No
	}
	if a == Yes && b == Yes {
		return Yes
	}
	return Unknown
}

func or(a, b Tri) Tri {
	if a == Yes || b == Yes {
		return Yes
	}
	if a == No && b == No {
		return No
	}
	return Unknown
}

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
	if static && (len(call.Args) < 2 || !isBool(s.info.TypeOf(call)) || !s.w.examinesOutcome(fn)) {
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

// examinesOutcome reports whether fn's body (of this package) tests an
// error or response parameter itself: compares it, reads its StatusCode,
// or asks errors.Is or As of it.
func (w *walker) examinesOutcome(fn *types.Func) bool {
	decl := w.decls[fn]
	if decl == nil || decl.Body == nil {
		return false
	}
	params := map[types.Object]bool{}
	sig := fn.Type().(*types.Signature)
	for i := range sig.Params().Len() {
		if v := sig.Params().At(i); isErrorType(v.Type()) || isResponse(v.Type()) {
			params[v] = true
		}
	}
	param := func(e ast.Expr) bool { return params[identVar(w.info, e)] }
	found := false
	ast.Inspect(decl.Body, func(n ast.Node) bool {
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
	x := ast.Unparen(args[0])
	if id, ok := x.(*ast.Ident); ok {
		x = s.w.statusCopy(id)
	}
	sel, ok := x.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "StatusCode" || !isResponse(s.info.TypeOf(sel.X)) {
		return Unknown
	}
	o := s.obj(sel.X)
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
			if s.self != nil && astq.Callee(s.info, n) == s.self {
				round = true
			}
		}
		return !round
	})
	return !round
}

// simulate walks the body under success and under each op's failure.
func (w *walker) simulate(s *sim, stmts []ast.Stmt) *Site {
	s.kept = keptOps(&ast.BlockStmt{List: stmts}, s.ops)
	for op := range s.ops {
		if w.swallows(op) || w.rearmedOnFail(op) != nil {
			s.kept[op] = true // its failure is its own wait, or chooses one
		}
	}
	if len(s.kept) == 0 {
		return nil
	}
	s.fail = nil
	succ := successPaths(s.run(stmts))
	if s.overflow {
		return nil
	}
	// Waits on the success paths that go round again: a loop that waits
	// the same way after success is periodic (a ticker, a poller), and
	// those waits are not between attempts of a failed call.
	// No success leaves and no round can wait: only a consume loop's
	// error that calls a remote operation again at once can be a retry
	// (tryFailure would find nothing else, and no check reports local
	// work called again), so only those walks are taken.
	atOnceOnly := !w.mayWait(s, stmts) && !slices.ContainsFunc(sortedOps(s.ops), func(op *ast.CallExpr) bool {
		return s.kept[op] && !succ.onlyAborts(op) && succ.exits(op)
	})
	r := &retries{w: w, loop: s.loop, succ: succ, successWaits: succ.waitsRound(), waits: map[ast.Node]bool{}}
	// In source order: what one walk leaves in s and r must not depend
	// on map order.
	for _, op := range sortedOps(s.ops) {
		if !s.kept[op] || succ.onlyAborts(op) {
			continue // its outcome is discarded, or success is the failure
		}
		if atOnceOnly {
			if w.isRemoteCall(op) {
				r.tryFailure(s, stmts, op, modeErr, false)
			}
			continue
		}
		exits := succ.exits(op)
		if exits && s.loop != nil && succ.onlyByContent(op) && (w.endsOnEmpty(s.loop, op) || w.endsOnSentinel(s.loop, op)) {
			// Leaving when the call hands back nothing, or at a
			// stream's sentinel, is the end of a stream read or
			// drained, not a success after failures.
			exits = false
		}
		for _, mode := range []opMode{modeErr, modeStatus} {
			if mode == modeStatus && !w.returnsResponse(op) {
				continue
			}
			r.tryFailure(s, stmts, op, mode, exits)
		}
	}
	if len(r.retried) == 0 {
		if atOnceOnly {
			return nil
		}
		op := w.contentAtOnce(s, succ)
		if op == nil {
			return nil
		}
		r.retried, r.anySuccessExit = []*ast.CallExpr{op}, true
	}
	site := &Site{Consume: !r.anySuccessExit, StatusRetry: r.statusRetry}
	slices.SortFunc(r.retried, func(a, b *ast.CallExpr) int { return int(a.Pos() - b.Pos()) })
	site.Ops = r.retried
	site.Flows = r.flows(site.Ops)
	site.Ctx.Consulted = r.consult
	site.Waits = w.siteWaits(s, r.waits, r.chosen)
	return site
}

// contentAtOnce returns the remote operation a loop calls again at once
// because of what its result says (a false ok: the server handed back
// the token just rejected), when a success that the content decides
// leaves and another goes round with no wait, the same call again: its
// arguments unchanged in the loop. A poll waits between its calls; one
// that does not is not waiting for a condition.
func (w *walker) contentAtOnce(s *sim, succ successPaths) *ast.CallExpr {
	if s.loop == nil || s.headWait != nil {
		return nil
	}
	for _, op := range sortedOps(s.ops) {
		if !s.kept[op] || !succ.roundsByContent(op) || !succ.exits(op) || !w.isRemoteCall(op) {
			continue
		}
		if !w.argsMoved(s.loop, op) && w.discardsResult(s.loop, op) && !w.endsOnEmpty(s.loop, op) &&
			!w.endsOnSentinel(s.loop, op) && !w.blocks(s.loop) {
			return op
		}
	}
	return nil
}

// roundsByContent reports whether a success of op goes round with no
// wait, sent by what op handed back.
func (succ successPaths) roundsByContent(op *ast.CallExpr) bool {
	for _, p := range succ {
		if p.out == outNext && p.observed[op] && p.decided && p.byContent == op && len(p.waits) == 0 {
			return true
		}
	}
	return false
}

// discardsResult reports whether the loop reads op's results only to
// decide (in if conditions) or on a branch that leaves: a round that
// goes on with them (deleted += n, a page's items) makes progress, a
// batch at a time, and is no retry.
func (w *walker) discardsResult(loop ast.Stmt, op *ast.CallExpr) bool {
	results := map[types.Object]bool{}
	var def *ast.AssignStmt
	ast.Inspect(loop, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok && len(as.Rhs) == 1 && ast.Unparen(as.Rhs[0]) == op {
			def = as
			for _, l := range as.Lhs {
				if id := identOf(l); id != nil && id.Name != "_" {
					if o := w.info.ObjectOf(id); o != nil && !isErrorType(o.Type()) {
						results[o] = true
					}
				}
			}
		}
		return def == nil
	})
	if def == nil {
		return false
	}
	kept := true
	var visit func(n ast.Node, leaving bool)
	visit = func(n ast.Node, leaving bool) {
		ast.Inspect(n, func(m ast.Node) bool {
			switch m := m.(type) {
			case *ast.AssignStmt:
				if m == def {
					return false
				}
			case *ast.IfStmt:
				if m.Init != nil {
					visit(m.Init, leaving)
				}
				visit(m.Body, leaving || w.leaves(m.Body))
				if m.Else != nil {
					b, ok := m.Else.(*ast.BlockStmt)
					visit(m.Else, leaving || ok && w.leaves(b))
				}
				return false
			case *ast.Ident:
				if !leaving && results[w.info.Uses[m]] {
					kept = false
				}
			}
			return kept
		})
	}
	visit(loop, false)
	return kept
}

// resultVars returns the variables the loop assigns op's results to,
// its error aside.
func (w *walker) resultVars(loop ast.Stmt, op *ast.CallExpr) (map[types.Object]bool, types.Object) {
	results := map[types.Object]bool{}
	var errVar types.Object
	ast.Inspect(loop, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok && len(as.Rhs) == 1 && ast.Unparen(as.Rhs[0]) == op {
			for _, l := range as.Lhs {
				if id := identOf(l); id != nil && id.Name != "_" {
					if o := w.info.ObjectOf(id); o != nil && isErrorType(o.Type()) {
						errVar = o
					} else if o != nil {
						results[o] = true
					}
				}
			}
		}
		return true
	})
	return results, errVar
}

// endsOnEmpty reports whether the loop leaves when op hands back nothing
// (if n == 0 { return }, else if res == nil { break }): it goes round
// while there is more, a batch or a stream at a time, not a retry.
func (w *walker) endsOnEmpty(loop ast.Stmt, op *ast.CallExpr) bool {
	results, _ := w.resultVars(loop, op)
	found := false
	ast.Inspect(loop, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IfStmt:
			else_, _ := n.Else.(*ast.BlockStmt)
			switch {
			case w.leaves(n.Body):
				found = found || w.emptyTest(n.Cond, results, token.EQL)
			case else_ != nil && w.leaves(else_):
				found = found || w.emptyTest(n.Cond, results, token.NEQ)
			}
		}
		return !found
	})
	return found
}

// emptyTest reports whether cond compares a result (or its length or a
// field of it) with a zero value (0, "", nil) by op.
func (w *walker) emptyTest(cond ast.Expr, results map[types.Object]bool, op token.Token) bool {
	b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || b.Op != op {
		return false
	}
	zero := func(e ast.Expr) bool {
		if astq.IsNil(w.info, e) {
			return true
		}
		tv := w.info.Types[e]
		return tv.Value != nil && (tv.Value.ExactString() == "0" || tv.Value.ExactString() == `""`)
	}
	reads := func(e ast.Expr) bool {
		found := false
		ast.Inspect(e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && results[w.info.Uses[id]] {
				found = true
			}
			return !found
		})
		return found
	}
	return reads(b.X) && zero(b.Y) || reads(b.Y) && zero(b.X)
}

// endsOnSentinel reports whether the loop compares op's error with a
// package's error variable (err == iterator.Done, errors.Is(err,
// io.EOF)): the end of a stream the call reads, item by item.
func (w *walker) endsOnSentinel(loop ast.Stmt, op *ast.CallExpr) bool {
	_, errVar := w.resultVars(loop, op)
	if errVar == nil {
		return false
	}
	found := false
	ast.Inspect(loop, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if n.Op == token.EQL || n.Op == token.NEQ {
				found = found || astq.IsVar(w.info, n.X, errVar) && w.isSentinel(n.Y) || astq.IsVar(w.info, n.Y, errVar) && w.isSentinel(n.X)
			}
		case *ast.CallExpr:
			if astq.IsFunc(astq.Callee(w.info, n), "errors.Is") && len(n.Args) == 2 {
				found = found || astq.IsVar(w.info, n.Args[0], errVar) && w.isSentinel(n.Args[1])
			}
		}
		return !found
	})
	return found
}

// argsMoved reports whether the loop assigns a variable op reads in its
// arguments or receiver: the next call is another (a page cursor moved
// on, an endpoint advanced, a range over items).
func (w *walker) argsMoved(loop ast.Stmt, op *ast.CallExpr) bool {
	read := map[types.Object]bool{}
	ast.Inspect(op, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := w.info.Uses[id].(*types.Var); ok {
				read[v] = true
			}
		}
		return true
	})
	moved := false
	ast.Inspect(loop, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if id := identOf(l); id != nil && read[w.info.ObjectOf(id)] {
					moved = true
				}
			}
		case *ast.IncDecStmt:
			if id := identOf(n.X); id != nil && read[w.info.ObjectOf(id)] {
				moved = true
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if id := identOf(e); id != nil && read[w.info.ObjectOf(id)] {
					moved = true
				}
			}
		}
		return !moved
	})
	return moved
}

// mayWait reports whether a path through stmts can wait: a round that
// starts with a wait, an operation that waits when it fails, or a wait
// call or receive anywhere in them (outside function literals), as the
// walk records them.
func (w *walker) mayWait(s *sim, stmts []ast.Stmt) bool {
	if s.headWait != nil {
		return true
	}
	for op := range s.ops {
		if w.swallows(op) {
			return true
		}
	}
	found := false
	for _, st := range stmts {
		ast.Inspect(st, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.CallExpr:
				found = found || w.isWaitCall(n)
			case *ast.UnaryExpr:
				found = found || n.Op == token.ARROW && w.isWaitRecv(n.X)
			}
			return !found
		})
	}
	return found
}

// successPaths are the paths of the walk under success.
type successPaths []*path

// exits reports whether success of op can leave the site: a path that
// tested op's outcome and left, not by cancellation or abort.
func (succ successPaths) exits(op *ast.CallExpr) bool {
	for _, p := range succ {
		if p.out == outExit && !p.abort && p.observed[op] && p.successDriven() && (p.byContent == nil || p.byContent == op) {
			return true
		}
	}
	return false
}

// onlyByContent reports whether every success exit of op was decided by
// what it handed back, not by its error.
func (succ successPaths) onlyByContent(op *ast.CallExpr) bool {
	for _, p := range succ {
		if p.out == outExit && !p.abort && p.observed[op] && p.successDriven() && p.byContent == nil {
			return false
		}
	}
	return true
}

// onlyAborts reports whether every success path that looked at op aborts
// (t.Fatal, panic): a test repeating a call it expects to fail.
func (succ successPaths) onlyAborts(op *ast.CallExpr) bool {
	seen := false
	for _, p := range succ {
		if p.observed[op] {
			if !p.abort {
				return false
			}
			seen = true
		}
	}
	return seen
}

// waitsRound returns the waits on the success paths that go round again.
func (succ successPaths) waitsRound() map[ast.Node]bool {
	waits := map[ast.Node]bool{}
	for _, p := range succ {
		if p.out == outNext && !p.held {
			for _, wn := range p.waits {
				waits[wn] = true
			}
		}
	}
	return waits
}

// retries gathers what the failure walks find: the operations retried,
// the waits between their attempts, and how the site treats them.
type retries struct {
	w            *walker
	loop         ast.Stmt
	succ         successPaths
	successWaits map[ast.Node]bool // waits that success goes round with too
	// chosen are the delays failure paths choose for a wait success
	// shares (nil where two failures choose differently).
	chosen         map[ast.Node]ast.Expr
	retried        []*ast.CallExpr
	waits          map[ast.Node]bool
	consult        bool
	anySuccessExit bool
	statusRetry    bool
	// failEnds are how the failure walks of each operation ended.
	failEnds map[*ast.CallExpr][]End
}

// tryFailure walks the body under op's failure in mode and records op as
// retried when the failure comes round again.
func (r *retries) tryFailure(s *sim, stmts []ast.Stmt, op *ast.CallExpr, mode opMode, exits bool) {
	s.fail, s.mode, s.seenFail, s.ambiguous = op, mode, false, false
	ps := s.run(stmts)
	if mode == modeStatus && s.seenFail && s.ambiguous {
		r.statusRetry = true // a status test that may let a failure go round
	}
	if s.overflow || !s.seenFail {
		return
	}
	if mode == modeErr {
		r.recordEnds(op, ps)
	}
	if s.ambiguous {
		return
	}
	fp := failurePaths{ps: ps, op: op, mode: mode}
	if fp.pollsRound() {
		r.statusRetry = true
	}
	comesRound, withWait := fp.comesRound(r)
	// A consume loop (success goes on) is a retry only where its
	// error branch calls again: after a wait of its own, or at once
	// (hot while the dependency is down), unless the failure it tests
	// is a timeout the call itself waited out.
	if !comesRound || !exits && !withWait && !(fp.atOnce() && r.w.spinsOn(r.loop, op, s.ops)) {
		return
	}
	for _, p := range ps {
		if fp.round(p) && !fp.polled(p) {
			for _, wn := range p.waits {
				r.waits[wn] = true
				if x := r.chosenDelay(wn, p); x != nil {
					r.choose(wn, x)
				}
			}
		}
		if p.consult {
			r.consult = true
		}
	}
	if exits {
		r.anySuccessExit = true
	}
	if mode == modeStatus {
		r.statusRetry = true
	}
	if !slices.Contains(r.retried, op) {
		r.retried = append(r.retried, op)
	}
}

// recordEnds keeps how the paths of a walk under op's error ended.
func (r *retries) recordEnds(op *ast.CallExpr, ps []*path) {
	if r.failEnds == nil {
		r.failEnds = map[*ast.CallExpr][]End{}
	}
	r.failEnds[op] = appendEnds(r.failEnds[op], ps, nil)
}

// appendEnds appends how the paths ended; with op, an exit its success
// decided is marked so (successPaths.exits).
func appendEnds(ends []End, ps []*path, op *ast.CallExpr) []End {
	for _, p := range ps {
		e := End{Pos: p.stop, Leaves: p.out == outExit}
		if op != nil {
			e.Decided = e.Leaves && !p.abort && p.observed[op] && p.successDriven() && (p.byContent == nil || p.byContent == op)
		}
		if !slices.Contains(ends, e) {
			ends = append(ends, e)
		}
	}
	return ends
}

// flows returns the flow of each retried operation whose failure was
// walked, in the order of ops.
func (r *retries) flows(ops []*ast.CallExpr) []*Flow {
	out := make([]*Flow, len(ops))
	for i, op := range ops {
		if fe, ok := r.failEnds[op]; ok {
			out[i] = &Flow{Op: op, Success: appendEnds(nil, r.succ, op), Failure: fe}
		}
	}
	return out
}

// failurePaths are the paths of the walk under op's failure in mode.
type failurePaths struct {
	ps   []*path
	op   *ast.CallExpr
	mode opMode
}

// round reports whether p goes round again having tested op's outcome.
func (fp failurePaths) round(p *path) bool {
	return p.out == outNext && p.observed[fp.op]
}

// roundOnFailure reports whether p goes round again on op's failure: for
// a failure status, one it tested.
func (fp failurePaths) roundOnFailure(p *path) bool {
	return fp.round(p) && (fp.mode == modeErr || p.statusObs)
}

// polled reports whether p tells a failure status from a 2xx code by
// equality only (!= 200): a poll's "not yet", not a retry.
func (fp failurePaths) polled(p *path) bool {
	return fp.mode == modeStatus && p.pollTest
}

// pollsRound reports whether a polled failure status goes round: not a
// retry, though no fix may take the error for the only failure.
func (fp failurePaths) pollsRound() bool {
	for _, p := range fp.ps {
		if fp.roundOnFailure(p) && fp.polled(p) {
			return true
		}
	}
	return false
}

// atOnce reports whether an error, tested, sends a path round again
// with no wait at all: by a jump (continue), not by falling through the
// round as success does (errors ignored, or only logged).
func (fp failurePaths) atOnce() bool {
	if fp.mode != modeErr {
		return false
	}
	for _, p := range fp.ps {
		if fp.roundOnFailure(p) && len(p.waits) == 0 && p.jumped {
			return true
		}
	}
	return false
}

// comesRound reports whether the failure goes round again, and whether
// it waits on the way with a wait that success does not share.
func (fp failurePaths) comesRound(r *retries) (comesRound, withWait bool) {
	for _, p := range fp.ps {
		if !fp.roundOnFailure(p) || fp.polled(p) {
			continue
		}
		comesRound = true
		for _, wn := range p.waits {
			if !r.successWaits[wn] || r.chosenDelay(wn, p) != nil {
				withWait = true
			}
		}
	}
	return comesRound, withWait
}

// chosenDelay returns the delay failure path p chooses for the wait wn
// that every round starts with, when success chooses another: a loop
// that waits every after success and a second after a failure
// (case <-time.After(wait): if err != nil { wait = time.Second } else {
// wait = every }) retries at a second. Nil when the wait's delay is no
// variable the rounds carry, some round sets it before the wait, the
// failure keeps it, or a success going round with wn keeps it or
// chooses the same.
func (r *retries) chosenDelay(wn ast.Node, p *path) ast.Expr {
	if !r.successWaits[wn] || len(p.delays) == 0 {
		return nil
	}
	v, timer := r.w.waitTimerVar(wn), true
	if v == nil {
		v, timer = r.w.waitDelayVar(wn), false
	}
	x := p.delays[v]
	if x == nil || x == timerHanded || !r.w.assignedAfter(v, wn, r.loop) {
		return nil
	}
	seen := false
	for _, sp := range r.succ {
		if sp.out != outNext || !slices.Contains(sp.waits, wn) {
			continue
		}
		y := sp.delays[v]
		if y == timerHanded {
			return nil // what success arms is unknown
		}
		if y == nil && timer {
			// A timer success does not re-arm does not fire for it
			// again: only the failure's delay brings the case round.
			seen = true
			continue
		}
		if y == nil || types.ExprString(y) == types.ExprString(x) {
			return nil
		}
		seen = true
	}
	if !seen {
		return nil
	}
	return x
}

// choose records x as the delay a failure chooses for wn; two failures
// choosing differently leave it unknown (nil).
func (r *retries) choose(wn ast.Node, x ast.Expr) {
	if r.chosen == nil {
		r.chosen = map[ast.Node]ast.Expr{}
	}
	if old, ok := r.chosen[wn]; ok && (old == nil || types.ExprString(old) != types.ExprString(x)) {
		r.chosen[wn] = nil
		return
	}
	r.chosen[wn] = x
}

func (w *walker) returnsResponse(call *ast.CallExpr) bool {
	tup, ok := w.info.TypeOf(call).(*types.Tuple)
	return ok && tup.Len() >= 2 && isResponse(tup.At(0).Type()) && isErrorType(tup.At(tup.Len()-1).Type())
}

// isResponse reports whether t is *http.Response or a client library's
// own response (a pointer to a struct with an integer StatusCode field,
// sendgrid's *rest.Response): its status can name a failure.
func isResponse(t types.Type) bool {
	if isNamed(t, "net/http", "Response") {
		return true
	}
	p, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	st, ok := p.Elem().Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		if f := st.Field(i); f.Name() == "StatusCode" && isInt(f.Type()) {
			return true
		}
	}
	return false
}
