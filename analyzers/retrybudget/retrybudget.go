package retrybudget

import (
	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/retryloop"
)

// Analyzer is the retrybudget check.
var Analyzer = &analysis.Analyzer{
	Name:     "retrybudget",
	Doc:      doc,
	URL:      "https://github.com/retrylint/retrylint/blob/main/docs/retrybudget.md",
	Requires: []*analysis.Analyzer{retryloop.Analyzer},
	Run:      run,
}

const doc = "retrybudget: TODO"

var (
	includeTests = true
	budgetFuncs  string
	remotePkgs   string
)

func init() {
	Analyzer.Flags.BoolVar(&includeTests, "tests", true, "analyze _test.go files")
	Analyzer.Flags.StringVar(&budgetFuncs, "budget-funcs", "", "comma-separated functions that count as a retry budget check (pkg/path.Func or pkg/path.Type.Method)")
	Analyzer.Flags.StringVar(&remotePkgs, "remote-pkgs", "", "comma-separated import path prefixes whose calls count as remote calls")
}

func run(pass *analysis.Pass) (any, error) {
	_ = pass.ResultOf[retryloop.Analyzer].(*retryloop.Result)
	return nil, nil
}
