package retrysleep

import (
	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/retryloop"
)

// Analyzer is the retrysleep check.
var Analyzer = &analysis.Analyzer{
	Name:     "retrysleep",
	Doc:      doc,
	URL:      "https://github.com/retrylint/retrylint/blob/main/docs/retrysleep.md",
	Requires: []*analysis.Analyzer{retryloop.Analyzer},
	Run:      run,
}

const doc = "retrysleep: TODO"

var includeTests = true

func init() {
	Analyzer.Flags.BoolVar(&includeTests, "tests", true, "analyze _test.go files")
}

func run(pass *analysis.Pass) (any, error) {
	_ = pass.ResultOf[retryloop.Analyzer].(*retryloop.Result)
	return nil, nil
}
