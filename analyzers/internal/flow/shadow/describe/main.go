// Command describe runs the suite and, beside its findings, reports what
// each model found of every site: the v2 model's description
// ("retry site: shape=counted bound=counter ...", local, repair) and, for
// the loop sites v3 finds, its evidence. The scorer joins them with the
// labels and counts them by property at each check's misses, in
// aggregate only (accuracy/score -failmodes):
//
//	go build -o /tmp/describe ./analyzers/internal/flow/shadow/describe
//	ACCURACY_BIN=/tmp/describe ACCURACY_FAILMODES=1 accuracy/run.sh /tmp/desc '' accuracy/test/modules.tsv
package main

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/multichecker"

	"github.com/retrylint/retrylint/analyzers"
	"github.com/retrylint/retrylint/analyzers/internal/astq"
	"github.com/retrylint/retrylint/analyzers/internal/libmodel"
	"github.com/retrylint/retrylint/analyzers/internal/sites"
	"github.com/retrylint/retrylint/analyzers/retryloop"
)

var describe = &analysis.Analyzer{
	Name:      "describe",
	Doc:       "describe every site of both models",
	Requires:  []*analysis.Analyzer{retryloop.Analyzer, sites.Analyzer},
	Run:       run,
	FactTypes: []analysis.Fact{new(helperLoop)},
}

// helperLoop is the instrument's own summary of a retry helper's loop, by
// kind only, read at the calls of the helper in other packages: how it
// waits and what it stops on.
type helperLoop struct{ Words string }

func (*helperLoop) AFact()           {}
func (h *helperLoop) String() string { return h.Words }

// exportHelperLoops records, for each function of the package that v2
// summarises as a retry helper, the kinds of its loop's waits and stops.
func exportHelperLoops(pass *analysis.Pass, res *retryloop.Result) {
	if res.FactOf == nil {
		return // a package the model found nothing to read in
	}
	words := map[*types.Func]string{} // a helper with several loops: all of them
	var order []*types.Func
	for _, s := range res.Sites {
		fd, ok := s.Func.(*ast.FuncDecl)
		if !ok {
			continue
		}
		fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func)
		if !ok {
			continue
		}
		if f := res.FactOf(fn); f == nil || f.Retrier == nil {
			continue
		}
		w := ""
		for _, wt := range s.Waits {
			w += " hwait=" + wt.Kind.String()
			if wt.Kind == retryloop.WaitHelper && wt.Call != nil {
				w += waitStopWords(pass, res, wt.Call)
			}
		}
		if len(s.Waits) == 0 {
			w += " hwait=none"
		}
		w += fmt.Sprintf(" hconsulted=%t hctxinscope=%s hstopchan=%t", s.Ctx.Consulted, varKind(pass, s.Ctx.InScope), s.Ctx.StopChan != nil)
		if _, seen := words[fn]; !seen {
			order = append(order, fn)
		}
		words[fn] += w
	}
	for _, fn := range order {
		pass.ExportObjectFact(fn, &helperLoop{Words: words[fn]})
	}
}

// waitStopWords says where the stop of a wait helper's cancellable wait
// comes from (hwstop=own, recv, param, unknown, several joined by +) and,
// for a method, whether its receiver's type can hold a context or channel
// (hwrecv=hold, nohold).
func waitStopWords(pass *analysis.Pass, res *retryloop.Result, call *ast.CallExpr) string {
	fn, _ := typeutil.Callee(pass.TypesInfo, call).(*types.Func)
	if fn == nil {
		return " hwstop=novalue"
	}
	f := res.FactOf(fn)
	if f == nil || f.Wait == nil || !f.Wait.Cancellable {
		return " hwstop=notcancellable"
	}
	var parts []string
	for _, p := range []struct {
		bit  retryloop.StopFrom
		word string
	}{{retryloop.StopOwn, "own"}, {retryloop.StopRecv, "recv"}, {retryloop.StopParam, "param"}, {retryloop.StopUnknown, "unknown"}} {
		if f.Wait.StopFrom&p.bit != 0 {
			parts = append(parts, p.word)
		}
	}
	if len(parts) == 0 {
		parts = append(parts, "unset")
	}
	w := " hwstop=" + strings.Join(parts, "+")
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && fn.Type().(*types.Signature).Recv() != nil {
		if t := pass.TypesInfo.TypeOf(sel.X); t != nil && !retryloop.MayHoldStop(t) {
			w += " hwrecv=nohold"
		} else {
			w += " hwrecv=hold"
		}
	}
	return w
}

// varKind says what kind of variable v is: none, a parameter, a package
// variable, a local (a field reached through a receiver is "local" here:
// the model names the variable it reads).
func varKind(pass *analysis.Pass, v *types.Var) string {
	switch {
	case v == nil:
		return "none"
	case v.Parent() == pass.Pkg.Scope():
		return "pkgvar"
	case v.IsField():
		return "field"
	case isParam(pass, v):
		return "param"
	}
	return "local"
}

func main() { multichecker.Main(append(analyzers.All(), describe)...) }

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[retryloop.Analyzer].(*retryloop.Result)
	exportHelperLoops(pass, res)
	for _, s := range res.Sites {
		report(pass, s.Pos, s.End, "v2 "+desc(pass, s))
	}
	for _, s := range res.Quiet {
		report(pass, s.Pos, s.End, "v2quiet "+desc(pass, s))
	}
	describeLibCalls(pass)
	describeSyntax(pass)
	describeMakers(pass)
	v3 := pass.ResultOf[sites.Analyzer].(*sites.Result)
	for _, s := range v3.Loops {
		pos, end := s.Op.Pos(), s.Hi
		if s.Lo.IsValid() {
			pos = s.Lo
		}
		report(pass, pos, end, fmt.Sprintf("v3 %s status=%t %s op=%s@%d", s.Kind, s.Status, s.Evidence, opName(s.Op), pass.Fset.Position(s.Op.Pos()).Line))
	}
	for _, h := range v3.Helpers {
		pass.Reportf(h.Call.Pos(), "v3 helper deadline=%s%s", h.Deadline, helperKind(pass, res, h))
	}
	return nil, nil
}

func desc(pass *analysis.Pass, s *retryloop.Site) string {
	d := strings.TrimPrefix(s.String(), "retry site: ")
	if s.Local {
		d += " local"
	}
	if s.Repair {
		d += " repair"
	}
	if s.StatusRetry {
		d += " status"
	}
	if s.Ctx.AttemptTimeout {
		d += " attempttimeout"
	}
	if s.Ctx.InScope != nil {
		d += " ctxinscope"
	}
	if s.Remote == nil {
		d += opKinds(pass, s)
	}
	if s.Library != "" {
		// which library, and the kinds of what its model found there
		d += " libsite=" + repoOf(s.Library)
		if len(s.LibFindings) == 0 {
			d += " libcat=none" + recvKind(pass, s.Node) + madeKind(pass, s.Node)
		}
		for _, f := range s.LibFindings {
			d += " libcat=" + f.Category
		}
	}
	ev := s.Evidence()
	for _, p := range []struct {
		name string
		e    retryloop.Evidence
	}{{"Wait", ev.Wait}, {"Jitter", ev.Jitter}, {"Remote", ev.Remote}, {"Handed", ev.Handed}, {"Budget", ev.Budget},
		{"Cap", ev.Cap}, {"Stop", ev.Stop}, {"Deadline", ev.Deadline}, {"Cancel", ev.Cancel}} {
		d += " " + p.name + "=" + p.e.State.String()
	}
	return d + " Delay=" + ev.Delay.String()
}

// report reports msg over pos..end (the scorer joins a description to
// every labeled span it overlaps); an invalid or earlier end is pos.
func report(pass *analysis.Pass, pos, end token.Pos, msg string) {
	if end < pos {
		end = token.NoPos
	}
	pass.Report(analysis.Diagnostic{Pos: pos, End: end, Message: msg})
}

// opKinds names, for a site whose operation is not known remote, the
// kind of each of its calls: through an interface or a static function
// of this module ("own"), another module ("lib") or the standard library
// ("std"), or through a function value. Kinds only, no names.
func opKinds(pass *analysis.Pass, s *retryloop.Site) string {
	own := ownModule(pass)
	kinds := map[string]bool{}
	for _, c := range s.Ops {
		switch fn := typeutil.Callee(pass.TypesInfo, c).(type) {
		case *types.Func:
			where := "own"
			switch path := fn.Pkg().Path(); {
			case !strings.Contains(strings.Split(path, "/")[0], "."):
				where = "std"
			case !strings.HasPrefix(path+"/", own+"/"):
				where = "lib"
			}
			kind := "static"
			if isIfaceMethod(fn) {
				kind = "iface"
			}
			kinds[" opk="+kind+"-"+where] = true
			if where == "lib" {
				kinds[" opk="+kind+"-lib:"+repoOf(fn.Pkg().Path())] = true // which library
			}
		default:
			kinds[" opk=value"] = true
		}
	}
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(kinds)) {
		b.WriteString(k)
	}
	return b.String()
}

func isIfaceMethod(fn *types.Func) bool {
	recv := fn.Type().(*types.Signature).Recv()
	return recv != nil && types.IsInterface(recv.Type())
}

func ownModule(pass *analysis.Pass) string {
	if pass.Module != nil && pass.Module.Path != "" {
		return pass.Module.Path
	}
	return repoOf(pass.Pkg.Path())
}

// recvKind says where the client a library send goes through comes
// from, by kind: a field (of this package's type or another's, exported
// or not), a parameter, a package variable, a local variable (and the kind
// of call that made it), or a call.
func recvKind(pass *analysis.Pass, n ast.Node) string {
	call, ok := n.(*ast.CallExpr)
	if !ok {
		return " recv=notcall"
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return " recv=func"
	}
	switch x := ast.Unparen(sel.X).(type) {
	case *ast.SelectorExpr:
		v, ok := pass.TypesInfo.Uses[x.Sel].(*types.Var)
		switch {
		case !ok:
			return " recv=other"
		case v.Pkg() != pass.Pkg:
			return " recv=field-otherpkg"
		case v.Exported():
			return " recv=field-exported"
		}
		return " recv=field-unexported"
	case *ast.Ident:
		v, ok := pass.TypesInfo.Uses[x].(*types.Var)
		if !ok {
			return " recv=pkgname" // a package-level function
		}
		if v.Parent() == pass.Pkg.Scope() {
			return " recv=pkgvar"
		}
		if isParam(pass, v) {
			return " recv=param"
		}
		if init := initOf(pass, v); init != nil {
			return " recv=local-" + exprKind(pass, init)
		}
		return " recv=local"
	case *ast.CallExpr:
		return " recv=" + exprKind(pass, x)
	}
	return " recv=other"
}

// madeKind says, for a send through a client a function of another
// package made, whether that function has a summary of the client
// (made=fact) or not, and if not, why: reported at the function by
// describeMakers (its words are counted over the whole run).
func madeKind(pass *analysis.Pass, n ast.Node) string {
	res := pass.ResultOf[retryloop.Analyzer].(*retryloop.Result)
	call, ok := n.(*ast.CallExpr)
	if !ok || res.FactOf == nil {
		return ""
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	x := ast.Unparen(sel.X)
	if id, ok := x.(*ast.Ident); ok {
		if v, ok := pass.TypesInfo.Uses[id].(*types.Var); ok {
			x = initOf(pass, v)
		}
	}
	c, ok := x.(*ast.CallExpr)
	if !ok {
		return ""
	}
	fn, ok := typeutil.Callee(pass.TypesInfo, c).(*types.Func)
	if !ok || fn.Pkg() == pass.Pkg {
		return ""
	}
	if f := res.FactOf(fn); f != nil && f.MadeClient != nil {
		return " made=fact"
	}
	if strings.HasPrefix(fn.Pkg().Path()+"/", ownModule(pass)+"/") {
		return " made=nofact-samemodule"
	}
	return " made=nofact-othermodule"
}

// isParam reports whether v is a parameter (or result) of a function
// of the package.
func isParam(pass *analysis.Pass, v *types.Var) bool {
	found := false
	for _, f := range pass.Files {
		ast.Inspect(f, func(m ast.Node) bool {
			if fl, ok := m.(*ast.Field); ok {
				for _, id := range fl.Names {
					found = found || pass.TypesInfo.Defs[id] == v
				}
			}
			return !found
		})
	}
	return found
}

// initOf is the expression a local variable is defined with, or nil.
func initOf(pass *analysis.Pass, v *types.Var) ast.Expr {
	var init ast.Expr
	for _, f := range pass.Files {
		if f.FileStart > v.Pos() || v.Pos() >= f.FileEnd {
			continue
		}
		ast.Inspect(f, func(m ast.Node) bool {
			as, ok := m.(*ast.AssignStmt)
			if !ok || init != nil {
				return init == nil
			}
			for i, l := range as.Lhs {
				if id, ok := l.(*ast.Ident); ok && pass.TypesInfo.Defs[id] == v {
					init = as.Rhs[min(i, len(as.Rhs)-1)]
				}
			}
			return true
		})
	}
	return init
}

// describeMakers says of each function of the package returning a
// retryablehttp client whether the library model summarises the client
// it makes, and if not why, by kind ("rhmaker why=two-clients").
func describeMakers(pass *analysis.Pass) {
	res := pass.ResultOf[retryloop.Analyzer].(*retryloop.Result)
	env := &libmodel.Env{Info: pass.TypesInfo, Pkg: pass.Pkg, Fset: pass.Fset, Files: pass.Files}
	if res.FactOf != nil {
		env.MadeClient = func(fn *types.Func) *libmodel.MadeClient {
			if f := res.FactOf(fn); f != nil {
				return f.MadeClient
			}
			return nil
		}
	}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			if why := libmodel.ClientMadeWhy(env, f, fd); why != "returns-none" {
				if why == "" {
					why = "ok"
				}
				report(pass, fd.Name.Pos(), fd.Name.End(), "rhmaker why="+why)
			}
		}
	}
}

func exprKind(pass *analysis.Pass, e ast.Expr) string {
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return "value"
	}
	fn, ok := typeutil.Callee(pass.TypesInfo, c).(*types.Func)
	switch {
	case !ok:
		return "call-value"
	case fn.Pkg() == pass.Pkg:
		return "call-samepkg"
	case strings.HasPrefix(fn.Pkg().Path()+"/", ownModule(pass)+"/"):
		return "call-samemodule"
	}
	return "call-lib"
}

// opName names a site's operation: its callee, its method, or "value".
func opName(c *ssa.Call) string {
	if c.Call.IsInvoke() {
		return c.Call.Method.Name()
	}
	if f := c.Call.StaticCallee(); f != nil {
		return f.Name()
	}
	return "value"
}

// describeLibCalls reports the calls into other modules that could hold
// or be a retry: one taking a function (a helper handed the operation),
// or any made inside a loop (an SDK call a hand-written loop repeats), as
// "lib repo=REPO" with "fnarg=PKG.NAME" for the former; any other call
// into another module as "lib any=REPO" (a client built with retries);
// each call not taking a function names its API, "fn=PKG.TYPE.NAME". Only the
// library is named, never the calling code, so that the fail-mode counts
// of the frozen test split stay aggregate.
func describeLibCalls(pass *analysis.Pass) {
	own := ownModule(pass)
	for _, f := range pass.Files {
		if strings.HasSuffix(pass.Fset.Position(f.Pos()).Filename, "_test.go") {
			continue
		}
		var visit func(n ast.Node, inLoop bool)
		visit = func(n ast.Node, inLoop bool) {
			ast.Inspect(n, func(m ast.Node) bool {
				switch m := m.(type) {
				case *ast.ForStmt:
					visit(m.Body, true)
					return false
				case *ast.RangeStmt:
					visit(m.Body, true)
					return false
				case *ast.FuncLit:
					visit(m.Body, false)
					return false
				case *ast.CallExpr:
					fn, _ := typeutil.Callee(pass.TypesInfo, m).(*types.Func)
					if fn == nil || fn.Pkg() == nil {
						return true
					}
					path := fn.Pkg().Path()
					if !strings.Contains(strings.Split(path, "/")[0], ".") || strings.HasPrefix(path+"/", own+"/") {
						return true // the standard library, or this module
					}
					fnarg := takesFunc(fn)
					d := "lib repo=" + repoOf(path)
					if !inLoop && !fnarg {
						d = "lib any=" + repoOf(path) // the library of any other call
					}
					if fnarg {
						d += " fnarg=" + path + "." + fn.Name()
					} else {
						d += " fn=" + astq.FuncPath(fn)
					}
					pass.Reportf(m.Pos(), "%s", d)
				}
				return true
			})
		}
		visit(f, false)
	}
}

// repoOf names the repository of an import path: host/owner/name on the
// code hosts, host/name elsewhere.
func repoOf(path string) string {
	parts := strings.Split(path, "/")
	n := 2
	switch parts[0] {
	case "github.com", "gitlab.com", "bitbucket.org":
		n = 3
	}
	return strings.Join(parts[:min(n, len(parts))], "/")
}

func takesFunc(fn *types.Func) bool {
	sig := fn.Type().(*types.Signature)
	for i := range sig.Params().Len() {
		if _, ok := sig.Params().At(i).Type().Underlying().(*types.Signature); ok {
			return true
		}
	}
	return false
}

// helperKind says, by kind only, what the callee of a v3 helper call is:
// where it lives (this package, this module, another module, a library
// the library model knows), what v2's summary of it says (none, a
// retrier and how it waits and stops, only a layer), whether v2 has a
// site at the call, and whether a context is in scope there.
func helperKind(pass *analysis.Pass, res *retryloop.Result, h *sites.Helper) string {
	d := ""
	switch {
	case h.Callee == nil:
		return " hcallee=library"
	case h.Callee.Pkg() == pass.Pkg:
		d += " hcallee=samepkg"
	case strings.HasPrefix(h.Callee.Pkg().Path()+"/", ownModule(pass)+"/"):
		d += " hcallee=samemodule"
	default:
		d += " hcallee=othermodule"
	}
	var f *retryloop.FuncFact
	if res.FactOf != nil {
		f = res.FactOf(h.Callee)
	}
	switch {
	case f == nil:
		d += " hfact=none"
	case f.Retrier == nil:
		d += " hfact=noretrier"
		if f.Layer != nil {
			d += " hfact=layer"
		}
	default:
		r := f.Retrier
		d += fmt.Sprintf(" hfact=retrier hsleeps=%t hctxparam=%t hpoll=%t hbound=%s", r.Sleeps, r.CtxParam >= 0, r.Poll, r.Bound)
		var hl helperLoop
		if pass.ImportObjectFact(h.Callee, &hl) {
			d += hl.Words
		} else {
			d += " hloop=nofact"
		}
	}
	v2 := false
	for _, s := range res.Sites {
		v2 = v2 || (s.Pos <= h.Call.Pos() && h.Call.Pos() < s.End) || s.Pos == h.Call.Pos()
	}
	d += fmt.Sprintf(" hv2site=%t hctxarg=%t", v2, ctxInSig(h.Call.Parent().Signature))
	return d
}

// ctxInSig reports whether a function (the caller) takes a context.
func ctxInSig(sig *types.Signature) bool {
	for v := range sig.Params().Variables() {
		if astq.IsNamed(v.Type(), "context", "Context") {
			return true
		}
	}
	return false
}
