package retrybudget

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/internal/diag"
	"github.com/retrylint/retrylint/analyzers/internal/libmodel"
	"github.com/retrylint/retrylint/analyzers/retryloop"

	"github.com/retrylint/retrylint/analyzers/internal/astq"
)

// Analyzer reports retry loops around remote calls that consult no retry
// budget, and retry loops with neither an attempt cap nor a deadline.
// It reads the default model, retryloop.Analyzer.
var Analyzer = New(retryloop.Analyzer)

// New returns a retrybudget analyzer that reads the retry sites of model,
// an analyzer made by retryloop.New. Its -tests flag is its own;
// -budget-funcs and -remote-pkgs set model's options, so they steer every
// analyzer reading model and no other.
func New(model *analysis.Analyzer) *analysis.Analyzer {
	a := diag.Reporting(&analysis.Analyzer{
		Name: "retrybudget",
		Doc:  doc,
		URL:  "https://github.com/retrylint/retrylint/blob/main/docs/retrybudget.md",
	}, model, run)
	// The options that tune this check are the model's; exposed here they
	// keep the names users know (-retrybudget.budget-funcs).
	retryloop.Flag(a, model, "budget-funcs")
	retryloop.Flag(a, model, "remote-pkgs")
	return a
}

// Categories of retrybudget diagnostics.
const (
	CategoryNoBudget  = "no-budget"
	CategoryUnbounded = "unbounded"
)

func run(pass *analysis.Pass, res *retryloop.Result, tests bool) (any, error) {
	r := diag.New(pass, tests, res.Directives)
	decl := budgetDecls(pass, res)
	helpers := helperGroups(pass, res, tests)
	for _, s := range res.Sites {
		if s.Repair {
			continue // a repair is not a retry
		}
		if g := helpers.at[s]; g != nil {
			reportHelper(r, s, g)
			continue
		}
		if s.Shape == retryloop.ShapeLibrary {
			if ev := s.Evidence(); ev.Cap.State == retryloop.StateAbsent || ev.Budget.State == retryloop.StateAbsent || len(s.LibraryFindings(libmodel.PropConfig)) > 0 {
				r.ReportLibrary(budgetFindings(s), libConsequences)
			}
			continue
		}
		if s.Shape == retryloop.ShapeHelper && (helpers.grouped[s] || s.HelperReported) {
			continue // reported once for its helper
		}
		check(pass, r, s, decl)
	}
	return r.Flush(), nil
}

// helperGroups gathers the calls of each generic retry helper that pass it
// a remote operation with no budget on either side: the helper gets one
// finding (SPEC), not one per caller. It stands at the helper's own loop
// when the helper is in this package, otherwise at its first call here.
type helperSet struct {
	at      map[*retryloop.Site][]*retryloop.Site // where a finding stands -> the calls it covers
	grouped map[*retryloop.Site]bool              // calls covered by a finding elsewhere
}

func helperGroups(pass *analysis.Pass, res *retryloop.Result, tests bool) helperSet {
	hs := helperSet{at: map[*retryloop.Site][]*retryloop.Site{}, grouped: map[*retryloop.Site]bool{}}
	calls := map[*types.Func][]*retryloop.Site{}
	var order []*types.Func
	for _, s := range res.Sites {
		if s.Shape != retryloop.ShapeHelper || s.Consume || s.HelperReported || unbounded(s.Evidence()) {
			continue
		}
		if ev := s.Evidence(); ev.Remote.State != retryloop.StatePresent || ev.Budget.State == retryloop.StatePresent {
			continue
		}
		if !tests && strings.HasSuffix(pass.Fset.File(s.Pos).Name(), "_test.go") {
			continue
		}
		call, ok := s.Node.(*ast.CallExpr)
		if !ok {
			continue
		}
		fn := astq.Callee(pass.TypesInfo, call)
		if fn == nil {
			continue
		}
		fn = fn.Origin()
		if calls[fn] == nil {
			order = append(order, fn)
		}
		calls[fn] = append(calls[fn], s)
	}
	for _, fn := range order {
		cs := calls[fn]
		// The first call in source order (file name, then offset):
		// where the finding stands must not depend on how sites were
		// found.
		slices.SortStableFunc(cs, func(a, b *retryloop.Site) int {
			pa, pb := pass.Fset.Position(a.Pos), pass.Fset.Position(b.Pos)
			return cmp.Or(cmp.Compare(pa.Filename, pb.Filename), cmp.Compare(pa.Offset, pb.Offset))
		})
		home := cs[0]
		if own := helperLoop(pass, res, fn); own != nil {
			if len(own.Budget) > 0 || own.FuncBudget || unbounded(own.Evidence()) {
				continue // budgeted inside, or reported as unbounded there
			}
			if own.Shape == retryloop.ShapeLibrary && (!own.LibBudgetless || len(budgetFindings(own)) > 0) {
				continue // the library's budget, or its own finding there
			}
			home = own
		}
		hs.at[home] = cs
		for _, c := range cs {
			if c != home {
				hs.grouped[c] = true
			}
		}
	}
	return hs
}

// helperLoop returns the retry site inside fn, a function of this package.
func helperLoop(pass *analysis.Pass, res *retryloop.Result, fn *types.Func) *retryloop.Site {
	if fn.Pkg() != pass.Pkg {
		return nil
	}
	for _, s := range res.Sites {
		if d, ok := s.Func.(*ast.FuncDecl); ok && s.Shape != retryloop.ShapeHelper && pass.TypesInfo.Defs[d.Name] == fn {
			return s
		}
	}
	return nil
}

// reportHelper reports one missing budget for a helper and all its calls.
func reportHelper(r *diag.Reporter, home *retryloop.Site, calls []*retryloop.Site) {
	d := analysis.Diagnostic{Pos: home.Pos, End: home.End, Category: CategoryNoBudget}
	n := "1 call passes"
	if len(calls) > 1 {
		n = fmt.Sprintf("%d calls pass", len(calls))
	}
	if home.Shape == retryloop.ShapeHelper {
		d.Message = "retry helper has no retry budget (" + n + " it a remote call here): under an outage every caller retries and multiplies load; guard retries with Budget.Allow inside the helper"
	} else {
		d.Message = "retry helper has no retry budget (" + n + " it a remote call): under an outage every caller retries and multiplies load; guard retries with Budget.Allow"
	}
	for _, c := range calls {
		if c == home {
			d.Related = append(d.Related, diag.Related(c.Remote.Pos(), "remote call retried here"))
			continue
		}
		d.Related = append(d.Related, diag.Related(c.Pos, "called with a remote operation here"))
	}
	r.Report(d)
}

// unbounded reports whether a site has neither an attempt cap nor a
// deadline it watches, and is surely a retry: it waits between attempts or
// retries a remote call (a bare loop re-running local work stays silent).
// A stop channel it watches (shutdown) is not a deadline: with no context
// in scope, watching one leaves the loop unbounded (SPEC: neither an
// attempt cap nor a deadline).
func unbounded(ev retryloop.Evidences) bool {
	return ev.Cap.State == retryloop.StateAbsent && ev.Stop.State == retryloop.StateAbsent &&
		(ev.Remote.State == retryloop.StatePresent || ev.Wait.State == retryloop.StatePresent || handed(ev))
}

// handed reports whether a site is a generic helper judged on what it
// shows: the work it retries is unseen, in a function value its callers
// hand it (retryloop.JudgedAlone).
func handed(ev retryloop.Evidences) bool {
	return ev.Remote.State == retryloop.StateUnknown && retryloop.JudgedAlone(ev)
}

func check(pass *analysis.Pass, r *diag.Reporter, s *retryloop.Site, decl *decls) {
	ev := s.Evidence()
	if ev.Consume || ev.Budget.State == retryloop.StatePresent {
		return
	}
	if ev.Shape == retryloop.ShapeHelper && ev.Remote.State != retryloop.StatePresent && ev.Background == nil {
		// A helper handed work not known remote: its bounds are its
		// own loop's, judged where that loop is.
		return
	}
	// A loop that watches a context or stop channel is cancellable; not
	// knowing its deadline, we stay silent on boundedness.
	switch {
	case unbounded(ev):
		d := analysis.Diagnostic{
			Pos: s.Pos, End: s.End, Category: CategoryUnbounded,
			Message: ev.Subject + " has no attempt cap, deadline or retry budget: a persistent failure retries forever; cap the attempts and guard retries with Budget.Allow",
		}
		switch {
		case ev.Remote.State == retryloop.StatePresent:
			d.Related = append(d.Related, diag.Related(ev.Remote.Pos[0], "remote call retried here"))
			d.SuggestedFixes = budgetFix(pass, s, decl, true)
		case handed(ev) && ev.Wait.State != retryloop.StatePresent:
			// A cap on work the callers hand it is theirs to size.
			d.Related = append(d.Related, diag.Related(s.HandedOp.Pos(), "retries the operation its callers hand it"))
		default:
			d.SuggestedFixes = budgetFix(pass, s, decl, true)
		}
		r.Report(d)
	case ev.Remote.State == retryloop.StatePresent:
		r.Report(analysis.Diagnostic{
			Pos: s.Pos, End: s.End, Category: CategoryNoBudget,
			Message:        ev.Subject + " has no retry budget: under an outage every caller retries and multiplies load; guard retries with Budget.Allow",
			Related:        []analysis.RelatedInformation{diag.Related(ev.Remote.Pos[0], "remote call retried here")},
			SuggestedFixes: fixesFor(pass, s, decl),
		})
	}
}

// fixesFor returns the budget guard and, for the plain shape, the
// rewrite onto budget.Do as an alternative. The guard stays first (go vet
// -fix and retrylint -fix apply the first fix) and the alternative comes
// only with it, so it is never the one applied unasked.
func fixesFor(pass *analysis.Pass, s *retryloop.Site, decl *decls) []analysis.SuggestedFix {
	fs := budgetFix(pass, s, decl, false)
	if len(fs) == 0 {
		return nil
	}
	if alt := doFix(pass, s); alt != nil {
		fs = append(fs, *alt)
	}
	return fs
}

// budgetDecls decides where the budget variables the fixes need are
// declared: each name in the file (first by name) of the loops whose fix
// uses it, so it sits next to its first use, and only names some fix
// uses. Every fix using a file's names carries that file's whole
// declaration block, so each variable is declared once however many loops
// use it, and any subset of the fixes compiles.
func budgetDecls(pass *analysis.Pass, res *retryloop.Result) *decls {
	d := &decls{home: map[string]*ast.File{}, names: map[*ast.File][]string{}}
	for _, s := range res.Sites {
		if s.Shape == retryloop.ShapeLibrary || s.File == nil || s.Consume || s.Remote == nil {
			continue
		}
		name, exists := budgetVar(pass, s)
		if name == "" || exists {
			continue
		}
		// Would the fix be offered, wherever the name ends up?
		probe := &decls{home: map[string]*ast.File{name: s.File}, names: map[*ast.File][]string{s.File: {name}}}
		if budgetFix(pass, s, probe, unbounded(s.Evidence())) == nil {
			continue
		}
		if f, ok := d.home[name]; !ok || homeBefore(pass, s.File, f) {
			d.home[name] = s.File
		}
	}
	for name, f := range d.home {
		d.names[f] = append(d.names[f], name)
	}
	for _, ns := range d.names {
		slices.Sort(ns)
	}
	return d
}

// homeBefore orders candidate files for a declaration: files of the
// package proper first, then its _test.go files, each by name. The package
// is analysed with and without its tests; a name its non-test code uses
// must land in the same file both times, or it is declared twice.
func homeBefore(pass *analysis.Pass, a, b *ast.File) bool {
	na, nb := pass.Fset.File(a.Pos()).Name(), pass.Fset.File(b.Pos()).Name()
	ta, tb := strings.HasSuffix(na, "_test.go"), strings.HasSuffix(nb, "_test.go")
	if ta != tb {
		return tb
	}
	return na < nb
}

// decls says where each budget variable to declare goes (home) and which
// names each of those files declares.
type decls struct {
	home  map[string]*ast.File
	names map[*ast.File][]string
}

// budgetFindings are a library site's findings this check speaks for: no
// attempt cap, no budget, a service config grpc-go reads otherwise.
func budgetFindings(s *retryloop.Site) []libmodel.Finding {
	return s.LibraryFindings(libmodel.PropCap, libmodel.PropBudget, libmodel.PropConfig)
}

// libConsequences word what a library finding's category does.
var libConsequences = map[string]string{
	libmodel.CatUnbounded:       "a persistent failure is retried forever",
	libmodel.CatNoBudget:        "under an outage every caller retries and multiplies load",
	libmodel.CatGRPCThrottling:  "under an outage every caller retries and multiplies load",
	libmodel.CatGRPCInvalid:     "grpc.Dial fails or the retry policy is silently ignored",
	libmodel.CatGRPCMaxAttempts: "grpc-go silently caps it at 5, so the config promises attempts that never happen",
}
