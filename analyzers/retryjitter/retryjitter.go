package retryjitter

import (
	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/retryloop"
)

// Analyzer is the retryjitter check.
var Analyzer = &analysis.Analyzer{
	Name:     "retryjitter",
	Doc:      doc,
	URL:      "https://github.com/retrylint/retrylint/blob/main/docs/retryjitter.md",
	Requires: []*analysis.Analyzer{retryloop.Analyzer},
	Run:      run,
}

const doc = "retryjitter: TODO"

var includeTests = true

func init() {
	Analyzer.Flags.BoolVar(&includeTests, "tests", true, "analyze _test.go files")
}

func run(pass *analysis.Pass) (any, error) {
	_ = pass.ResultOf[retryloop.Analyzer].(*retryloop.Result)
	return nil, nil
}
