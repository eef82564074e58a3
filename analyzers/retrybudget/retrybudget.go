package retrybudget

import (
	"go/ast"
	"slices"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/internal/diag"
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

var includeTests = true

func init() {
	Analyzer.Flags.BoolVar(&includeTests, "tests", true, "analyze _test.go files")
	Analyzer.Flags.Var(&retryloop.Opts.BudgetFuncs, "budget-funcs", "comma-separated functions that count as a retry budget check (pkg/path.Func or pkg/path.Type.Method)")
	Analyzer.Flags.Var(&retryloop.Opts.RemotePkgs, "remote-pkgs", "comma-separated import path prefixes whose calls count as remote calls")
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

func check(pass *analysis.Pass, r *diag.Reporter, s *retryloop.Site, decl *decls) {
	if s.Consume || len(s.Budget) > 0 || s.FuncBudget {
		return
	}
	// A loop that watches a context or stop channel is cancellable; not
	// knowing its deadline, we stay silent on boundedness.
	// Only a loop that waits between attempts or retries a remote call is
	// surely a retry; a bare loop re-running local work stays silent.
	unbounded := s.Bound == retryloop.BoundNone && !s.Ctx.Consulted && (s.Remote != nil || len(s.Waits) > 0)
	switch {
	case unbounded:
		d := analysis.Diagnostic{
			Pos: s.Pos, End: s.End, Category: CategoryUnbounded,
			Message: s.Subject() + " has no attempt cap, deadline or retry budget: a persistent failure retries forever; cap the attempts and guard retries with budget.Allow",
		}
		if s.Remote != nil {
			d.Related = append(d.Related, diag.Related(s.Remote.Pos(), "remote call retried here"))
		}
		d.SuggestedFixes = budgetFix(pass, s, decl, true)
		r.Report(d)
	case s.Remote != nil:
		r.Report(analysis.Diagnostic{
			Pos: s.Pos, End: s.End, Category: CategoryNoBudget,
			Message:        s.Subject() + " has no retry budget: under an outage every caller retries and multiplies load; guard retries with budget.Allow",
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

// budgetDecls chooses the one file that declares the budget variables the
// fixes need (the first by name among files with a site) and the names to
// declare there. Every fix carries the same declaration block, so each
// variable is declared once however many loops use it, and any subset of
// the fixes compiles.
func budgetDecls(pass *analysis.Pass, res *retryloop.Result) *decls {
	d := &decls{}
	seen := map[string]bool{}
	for _, s := range res.Sites {
		if s.Shape == retryloop.ShapeLibrary || s.File == nil || s.Consume || s.Remote == nil {
			continue
		}
		name, exists := budgetVar(pass, s)
		if name == "" {
			continue
		}
		if d.file == nil || pass.Fset.File(s.File.Pos()).Name() < pass.Fset.File(d.file.Pos()).Name() {
			d.file = s.File
		}
		if !exists && !seen[name] {
			seen[name] = true
			d.names = append(d.names, name)
		}
	}
	slices.Sort(d.names)
	return d
}

type decls struct {
	file  *ast.File
	names []string
}
