package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"
	"golang.org/x/tools/go/types/typeutil"
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
	self     types.Object // recursion mode: calling this (a function, or a variable holding the literal walked) is the next attempt
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

// stopBranch is what an opaque judge of the outcome (a retry policy or
// predicate: SPEC) says on success in st's condition: stop, so the branch
// that leaves is taken, or the branch that goes round is not (if retry {
// continue }). Unknown when neither branch does either.
func (s *sim) stopBranch(st *ast.IfStmt) Tri {
	switch {
	case s.alwaysLeaves(st.Body):
		return Yes
	case st.Else != nil && s.elseLeaves(st.Else):
		return No
	case s.goesRound(st.Body):
		return No
	case st.Else != nil && s.goesRound(st.Else):
		return Yes
	}
	return Unknown
}

// ifPath walks one running path through an if: the branches its
// condition allows, each marked with what decided it.
func (s *sim) ifPath(st *ast.IfStmt, p *path, depth int) []*path {
	var out []*path
	prevDecided, prevAt, prevBy := p.decided, p.decidedAt, p.byContent
	v := s.decide(st.Cond, p)
	if v == Unknown && s.fail == nil && s.judged(st.Cond, p) {
		v = s.stopBranch(st)
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

// isSelfCall reports whether c calls the function walked in recursion
// mode: by name, or through the variable its literal is assigned to.
func (s *sim) isSelfCall(c *ast.CallExpr) bool {
	return s.self != nil && typeutil.Callee(s.info, c) == s.self
}

func (s *sim) callsSelf(r *ast.ReturnStmt) bool {
	found := false
	for _, e := range r.Results {
		ast.Inspect(e, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok && s.isSelfCall(c) {
				found = true
			}
			return !found
		})
	}
	return found
}
