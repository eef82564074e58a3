package inventory

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/retrylint/retrylint/analyzers/retryloop"
)

// This file words a site's delay, attempts and deadline as a reader
// says them ("fixed 1 s", "200–400 ms jittered", "exponential 100 ms →
// 10 s, full jitter", "unknown (set by cfg.RetryDelay)"), from the
// model's classification and the delay expression's shape. Calls are
// recognised by the callee's package path and name, never by how the
// code spells them.

// randFuncs are the functions of math/rand and math/rand/v2 that draw a
// uniform value in [0, n) from their one argument n.
var randFuncs = map[string][]string{
	"math/rand":    {"Int63n", "Int31n", "Intn"},
	"math/rand/v2": {"N", "Int64N", "Int32N", "IntN", "Uint64N", "Uint32N", "UintN"},
}

// delayWords describes the waits of s. A site that waits in several
// places gets each distinct description, joined by "; ".
func delayWords(info *types.Info, s *retryloop.Site, d Delay) string {
	if len(s.Waits) == 0 {
		if s.Shape == retryloop.ShapeLibrary {
			return "unknown (set by the library's options)"
		}
		return "none: retries at once"
	}
	var parts []string
	for _, w := range s.Waits {
		if t := waitWords(info, s, w, d); !slices.Contains(parts, t) {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, "; ")
}

func waitWords(info *types.Info, s *retryloop.Site, w *retryloop.Wait, d Delay) string {
	if w.Growth == retryloop.GrowthServer {
		return "server-directed"
	}
	if w.Delay == nil {
		if w.Call != nil {
			return "unknown (set by " + short(w.Call) + ")"
		}
		return "unknown"
	}
	e := resolveOnce(info, s, w.Delay)
	if t := shapeWords(info, s, e); t != "" {
		return t
	}
	switch {
	case w.Growth == retryloop.GrowthGrowing:
		return growthWords(info, s, w.Delay, d.Base, d.Cap) + jitterWords(w.Jitter)
	case w.Growth == retryloop.GrowthFixed && !w.Jitter:
		return "fixed, set by " + short(w.Delay)
	case w.Growth == retryloop.GrowthFixed:
		return "jittered, around " + short(w.Delay)
	}
	return "unknown (set by " + short(e) + ")"
}

func jitterWords(jitter bool) string {
	if jitter {
		return ", jittered"
	}
	return ", no jitter"
}

// shapeWords describes a delay whose expression shows its whole shape:
// a constant, a random draw over a constant or a capped exponential, a
// constant plus such a draw, or a sequence of the bundled budget
// package's Backoff. It returns "" for any other.
func shapeWords(info *types.Info, s *retryloop.Site, e ast.Expr) string {
	e = ast.Unparen(e)
	if v, ok := constDuration(info, e); ok {
		return "fixed " + durationWords(v)
	}
	if t := backoffWords(info, s, e); t != "" {
		return t
	}
	if over := randomOver(info, e); over != nil {
		if v, ok := constDuration(info, over); ok {
			return rangeWords(0, v) + " jittered"
		}
		if g := exponentialWords(info, over); g != "" {
			return g + ", full jitter"
		}
		return ""
	}
	b, ok := e.(*ast.BinaryExpr)
	if !ok || b.Op != token.ADD {
		return ""
	}
	for _, pair := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
		lo, ok := constDuration(info, pair[0])
		over := randomOver(info, ast.Unparen(pair[1]))
		if !ok || over == nil {
			continue
		}
		if width, ok := constDuration(info, over); ok {
			return rangeWords(lo, lo+width) + " jittered"
		}
		if g := exponentialWords(info, over); g != "" {
			return g + ", jittered"
		}
	}
	return ""
}

// randomOver returns n of a uniform draw in [0, n): rand.N(n) and its
// math/rand kin, or the budget package's Jitter(n); else nil.
func randomOver(info *types.Info, e ast.Expr) ast.Expr {
	c, ok := e.(*ast.CallExpr)
	if !ok || len(c.Args) != 1 {
		return nil
	}
	fn, _ := typeutil.Callee(info, c).(*types.Func)
	if fn == nil || fn.Pkg() == nil || fn.Type().(*types.Signature).Recv() != nil {
		return nil
	}
	path, name := fn.Pkg().Path(), fn.Name()
	if slices.Contains(randFuncs[path], name) || path == retryloop.BudgetPath && name == "Jitter" {
		return c.Args[0]
	}
	return nil
}

// exponentialWords describes min(C, B<<n) (either order) or B<<n as
// "exponential B → C", else "".
func exponentialWords(info *types.Info, e ast.Expr) string {
	e = ast.Unparen(e)
	capText := ""
	if c, ok := e.(*ast.CallExpr); ok && len(c.Args) == 2 && isBuiltin(info, c.Fun, "min") {
		for i, a := range c.Args {
			if v, ok := constDuration(info, a); ok {
				capText, e = durationWords(v), ast.Unparen(c.Args[1-i])
				break
			}
		}
	}
	b, ok := e.(*ast.BinaryExpr)
	if !ok || b.Op != token.SHL {
		return ""
	}
	base, ok := constDuration(info, b.X)
	if !ok {
		return ""
	}
	if capText == "" {
		return "exponential from " + durationWords(base) + ", no cap"
	}
	return "exponential " + durationWords(base) + " → " + capText
}

// growthWords describes a delay the model found growing: exponential
// when the site doubles it (d *= 2, d = d * 2, d <<= 1, a shift or
// math.Pow in its expression), else "growing"; with its first value and
// cap when constants show them.
func growthWords(info *types.Info, s *retryloop.Site, e ast.Expr, base, capText string) string {
	kind := "growing"
	if doubles(info, s, e) {
		kind = "exponential"
	}
	if base == "" {
		return kind
	}
	if d, err := time.ParseDuration(base); err == nil {
		base = durationWords(d)
	}
	if capText == "" {
		return kind + " from " + base + ", no cap"
	}
	if d, err := time.ParseDuration(capText); err == nil {
		capText = durationWords(d)
	}
	return kind + " " + base + " → " + capText
}

// doubles reports whether the delay e grows geometrically: a shift or
// math.Pow in it, or, for a variable, an assignment in the site that
// multiplies it by a constant or shifts it.
func doubles(info *types.Info, s *retryloop.Site, e ast.Expr) bool {
	if geometric(info, e) {
		return true
	}
	v := varOf(info, e)
	if v == nil {
		return false
	}
	found := false
	ast.Inspect(s.Node, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || found || len(as.Lhs) != 1 || len(as.Rhs) != 1 || !refersTo(info, as.Lhs[0], v) {
			return !found
		}
		switch as.Tok {
		case token.MUL_ASSIGN, token.SHL_ASSIGN:
			found = true
		case token.ASSIGN:
			found = geometric(info, as.Rhs[0])
		}
		return !found
	})
	return found
}

// geometric reports whether e holds a shift, a product with a constant
// of a variable, or a math.Pow call.
func geometric(info *types.Info, e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BinaryExpr:
			if n.Op == token.SHL {
				found = true
			}
			if n.Op == token.MUL {
				_, xc := constDuration(info, n.X)
				_, yc := constDuration(info, n.Y)
				found = found || xc != yc
			}
		case *ast.CallExpr:
			if fn, _ := typeutil.Callee(info, n).(*types.Func); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "math" && fn.Name() == "Pow" {
				found = true
			}
		}
		return !found
	})
	return found
}

// backoffWords describes seq.Next() of a sequence started from a
// budget.Backoff literal in the site's function, or b.Delay(n) of such a
// literal: "exponential 100 ms → 10 s, full jitter".
func backoffWords(info *types.Info, s *retryloop.Site, e ast.Expr) string {
	c, ok := e.(*ast.CallExpr)
	if !ok {
		return ""
	}
	fn, _ := typeutil.Callee(info, c).(*types.Func)
	sel, isSel := ast.Unparen(c.Fun).(*ast.SelectorExpr)
	if fn == nil || !isSel || fn.Pkg() == nil || fn.Pkg().Path() != retryloop.BudgetPath {
		return ""
	}
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil {
		return ""
	}
	x := resolveOnce(info, s, sel.X)
	switch {
	case isNamed(recv.Type(), retryloop.BudgetPath, "Sequence") && fn.Name() == "Next":
		start, ok := ast.Unparen(x).(*ast.CallExpr)
		if !ok {
			return ""
		}
		if sfn, _ := typeutil.Callee(info, start).(*types.Func); sfn == nil || sfn.Name() != "Start" || !isNamed(sfnRecv(sfn), retryloop.BudgetPath, "Backoff") {
			return ""
		}
		startSel, ok := ast.Unparen(start.Fun).(*ast.SelectorExpr)
		if !ok {
			return ""
		}
		x = resolveOnce(info, s, startSel.X)
	case isNamed(recv.Type(), retryloop.BudgetPath, "Backoff") && fn.Name() == "Delay":
	default:
		return ""
	}
	lit, ok := ast.Unparen(x).(*ast.CompositeLit)
	if !ok || !isNamed(info.TypeOf(lit), retryloop.BudgetPath, "Backoff") {
		return ""
	}
	return backoffLiteralWords(info, lit, fn.Pkg())
}

func sfnRecv(fn *types.Func) types.Type {
	if r := fn.Type().(*types.Signature).Recv(); r != nil {
		return r.Type()
	}
	return nil
}

// backoffLiteralWords reads Base, Cap and Jitter of a budget.Backoff
// literal, with the package's defaults for fields left out; "" when a
// field is set to something that is not a constant.
func backoffLiteralWords(info *types.Info, lit *ast.CompositeLit, pkg *types.Package) string {
	base, limit := defaultOf(pkg, "DefaultBase"), defaultOf(pkg, "DefaultCap")
	mode := "full jitter"
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		key, isID := kv.Key.(*ast.Ident)
		if !ok || !isID {
			return ""
		}
		switch key.Name { // a field of budget.Backoff, the literal's type
		case "Base", "Cap":
			v, ok := constDuration(info, kv.Value)
			if !ok {
				return ""
			}
			if v > 0 && key.Name == "Base" {
				base = v
			} else if v > 0 {
				limit = v
			}
		case "Jitter":
			tv := info.Types[kv.Value]
			if tv.Value == nil {
				return ""
			}
			mode = jitterModeWords(pkg, tv.Value)
		case "Rand":
		default:
			return ""
		}
	}
	if base <= 0 || limit <= 0 {
		return ""
	}
	return "exponential " + durationWords(min(base, limit)) + " → " + durationWords(limit) + ", " + mode
}

// jitterModeWords names a budget.JitterMode value by the package's own
// constants.
func jitterModeWords(pkg *types.Package, v constant.Value) string {
	for _, m := range []struct{ name, words string }{
		{"NoJitter", "no jitter"}, {"EqualJitter", "equal jitter"}, {"DecorrelatedJitter", "decorrelated jitter"},
	} {
		if c, ok := pkg.Scope().Lookup(m.name).(*types.Const); ok && constant.Compare(c.Val(), token.EQL, v) {
			return m.words
		}
	}
	return "full jitter" // the zero value and unknown modes, as the package documents
}

func defaultOf(pkg *types.Package, name string) time.Duration {
	c, ok := pkg.Scope().Lookup(name).(*types.Const)
	if !ok {
		return 0
	}
	n, _ := constant.Int64Val(constant.ToInt(c.Val()))
	return time.Duration(n)
}

// resolveOnce returns the initial value of a local variable that nothing
// in its function assigns again, else e.
func resolveOnce(info *types.Info, s *retryloop.Site, e ast.Expr) ast.Expr {
	v := varOf(info, e)
	if v == nil || s.Func == nil {
		return e
	}
	init := initOf(info, s.File, v)
	if init == nil {
		return e
	}
	assigned := 0
	ast.Inspect(s.Func, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if id, ok := l.(*ast.Ident); ok && (info.Uses[id] == v || info.Defs[id] == v) {
					assigned++
				}
			}
		case *ast.IncDecStmt:
			if refersTo(info, n.X, v) {
				assigned += 2
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND && refersTo(info, n.X, v) {
				assigned += 2 // its address is taken: anything may set it
			}
		}
		return true
	})
	if assigned > 1 {
		return e
	}
	return init
}

func isBuiltin(info *types.Info, fun ast.Expr, name string) bool {
	id, ok := ast.Unparen(fun).(*ast.Ident)
	if !ok {
		return false
	}
	b, ok := info.Uses[id].(*types.Builtin)
	return ok && b.Name() == name
}

// constDuration returns the value of a constant expression of type
// time.Duration.
func constDuration(info *types.Info, e ast.Expr) (time.Duration, bool) {
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil || !isDuration(tv.Type) {
		return 0, false
	}
	n, exact := constant.Int64Val(constant.ToInt(tv.Value))
	return time.Duration(n), exact
}

// durationWords writes d as a reader does: "1 s", "200 ms", "1.5 s",
// "2 min", "90 s".
func durationWords(d time.Duration) string {
	switch {
	case d == 0:
		return "0"
	case d%time.Minute == 0:
		return strconv.FormatInt(int64(d/time.Minute), 10) + " min"
	case d >= time.Second:
		return trimFloat(d.Seconds()) + " s"
	case d >= time.Millisecond:
		return trimFloat(float64(d)/float64(time.Millisecond)) + " ms"
	case d >= time.Microsecond:
		return trimFloat(float64(d)/float64(time.Microsecond)) + " µs"
	}
	return strconv.FormatInt(int64(d), 10) + " ns"
}

func trimFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// rangeWords writes [lo, hi) as "200–400 ms", or "500 ms–1.5 s" when the
// two take different units.
func rangeWords(lo, hi time.Duration) string {
	l, h := durationWords(lo), durationWords(hi)
	ln, lu, _ := strings.Cut(l, " ")
	hn, hu, _ := strings.Cut(h, " ")
	switch {
	case lo == 0:
		return "0–" + h
	case lu == hu:
		return ln + "–" + hn + " " + hu
	}
	return l + "–" + h
}

// attemptsWords describes how many attempts one run of s makes: the
// count, "unbounded", "until stopped" for a consume loop, "until the
// deadline", or "unknown (set by cfg.MaxRetries)".
func attemptsWords(info *types.Info, s *retryloop.Site, c Count) string {
	switch {
	case s.Consume:
		return "until stopped"
	case c.Unbounded:
		return "unbounded"
	case c.N > 0:
		return itoa(c.N)
	}
	switch s.Bound {
	case retryloop.BoundDeadline:
		return "until the deadline"
	case retryloop.BoundElapsed:
		return "until its time limit"
	}
	if s.Counter != nil && s.Counter.Limit != nil {
		return "unknown (set by " + short(s.Counter.Limit) + ")"
	}
	if s.Shape == retryloop.ShapeLibrary {
		return "unknown (set by the library's options)"
	}
	return "unknown"
}

// deadlineWords describes the deadline the attempts run under, whether
// the site checks it between attempts, and a wait that ignores it.
func deadlineWords(s *retryloop.Site, d Delay) string {
	var t string
	switch s.Ctx.Attempts {
	case retryloop.DeadlineNone:
		t = "none"
		if c := s.Ctx.BackgroundCall; c != nil {
			t += " (" + types.ExprString(c.Fun) + ")"
		}
	case retryloop.DeadlineCaller:
		t = "the caller's"
	case retryloop.DeadlineSet:
		t = "its own (a context timeout)"
	default:
		t = "unknown"
	}
	if s.Ctx.Consulted {
		t += ", checked between attempts"
	}
	if s.Ctx.AttemptTimeout {
		t += ", a timeout per attempt"
	}
	if d.Kind != "" && d.Kind != "library" && !d.Cancellable && (s.Ctx.InScope != nil || s.Ctx.StopChan != nil) {
		t += ", waits ignore cancellation"
	}
	return t
}
