package retrydeadline

import (
	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/retryloop"
)

// Analyzer is the retrydeadline check.
var Analyzer = &analysis.Analyzer{
	Name:     "retrydeadline",
	Doc:      doc,
	URL:      "https://github.com/retrylint/retrylint/blob/main/docs/retrydeadline.md",
	Requires: []*analysis.Analyzer{retryloop.Analyzer},
	Run:      run,
}

const doc = "retrydeadline: TODO"

var includeTests = true

func init() {
	Analyzer.Flags.BoolVar(&includeTests, "tests", true, "analyze _test.go files")
}

func run(pass *analysis.Pass) (any, error) {
	_ = pass.ResultOf[retryloop.Analyzer].(*retryloop.Result)
	return nil, nil
}
