package retrybudget

import (
	"go/ast"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/internal/diag"
	"github.com/retrylint/retrylint/analyzers/internal/optlist"
	"github.com/retrylint/retrylint/analyzers/retryloop"
)

// Analyzer reports retry loops around remote calls that consult no retry
// budget, and retry loops with neither an attempt cap nor a deadline.
var Analyzer = &analysis.Analyzer{
	Name:     "retrybudget",
	Doc:      doc,
	URL:      "https://github.com/retrylint/retrylint/blob/main/docs/retrybudget.md",
	Requires: []*analysis.Analyzer{retryloop.Analyzer},
	Run:      run,
}

// Categories of retrybudget diagnostics.
const (
	CategoryNoBudget  = "no-budget"
	CategoryUnbounded = "unbounded"
)

var includeTests = false

func init() {
	Analyzer.Flags.BoolVar(&includeTests, "tests", false, "analyze _test.go files (a test process does not form a fleet: off by default)")
	Analyzer.Flags.Var(optlist.NewFuncs((*[]string)(&retryloop.Opts.BudgetFuncs)), "budget-funcs", "comma-separated functions that count as a retry budget check (pkg/path.Func, pkg/path.Type.Method or pkg/path.(*Type).Method)")
	Analyzer.Flags.Var(optlist.NewPkgs((*[]string)(&retryloop.Opts.RemotePkgs)), "remote-pkgs", "comma-separated import path prefixes whose calls count as remote calls")
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[retryloop.Analyzer].(*retryloop.Result)
	r := diag.New(pass, includeTests)
	decl := budgetDecls(pass, res)
	for _, s := range res.Sites {
		if s.Shape == retryloop.ShapeLibrary {
			r.ReportLibrary(s.LibraryIssues("retrybudget"))
			continue
		}
		check(pass, r, s, decl)
	}
	return nil, nil
}

// unbounded reports whether a site has neither an attempt cap nor a
// deadline it watches, and is surely a retry: it waits between attempts or
// retries a remote call (a bare loop re-running local work stays silent).
func unbounded(s *retryloop.Site) bool {
	return s.Bound == retryloop.BoundNone && !s.Ctx.Consulted && (s.Remote != nil || len(s.Waits) > 0)
}

func check(pass *analysis.Pass, r *diag.Reporter, s *retryloop.Site, decl *decls) {
	if s.Consume || len(s.Budget) > 0 || s.FuncBudget {
		return
	}
	// A loop that watches a context or stop channel is cancellable; not
	// knowing its deadline, we stay silent on boundedness.
	switch {
	case unbounded(s):
		d := analysis.Diagnostic{
			Pos: s.Pos, End: s.End, Category: CategoryUnbounded,
			Message: s.Subject() + " has no attempt cap, deadline or retry budget: a persistent failure retries forever; cap the attempts and guard retries with Budget.Allow",
		}
		if s.Remote != nil {
			d.Related = append(d.Related, diag.Related(s.Remote.Pos(), "remote call retried here"))
		}
		d.SuggestedFixes = budgetFix(pass, s, decl, true)
		r.Report(d)
	case s.Remote != nil:
		r.Report(analysis.Diagnostic{
			Pos: s.Pos, End: s.End, Category: CategoryNoBudget,
			Message:        s.Subject() + " has no retry budget: under an outage every caller retries and multiplies load; guard retries with Budget.Allow",
			Related:        []analysis.RelatedInformation{diag.Related(s.Remote.Pos(), "remote call retried here")},
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
		if budgetFix(pass, s, probe, unbounded(s)) == nil {
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
