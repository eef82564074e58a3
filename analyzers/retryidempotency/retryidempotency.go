package retryidempotency

import (
	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/retryloop"
)

// Analyzer is the retryidempotency check.
var Analyzer = &analysis.Analyzer{
	Name:     "retryidempotency",
	Doc:      doc,
	URL:      "https://github.com/retrylint/retrylint/blob/main/docs/retryidempotency.md",
	Requires: []*analysis.Analyzer{retryloop.Analyzer},
	Run:      run,
}

const doc = "retryidempotency: TODO"

var (
	includeTests = true
	extraHeaders string
)

func init() {
	Analyzer.Flags.BoolVar(&includeTests, "tests", true, "analyze _test.go files")
	Analyzer.Flags.StringVar(&extraHeaders, "headers", "", "comma-separated extra idempotency key header names (Idempotency-Key and X-Idempotency-Key are always recognised)")
}

func run(pass *analysis.Pass) (any, error) {
	_ = pass.ResultOf[retryloop.Analyzer].(*retryloop.Result)
	return nil, nil
}
