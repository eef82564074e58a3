package retrybudget_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzers/retrybudget"
)

func Test(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), retrybudget.Analyzer, "a", "clean")
}

func TestFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), retrybudget.Analyzer, "fix", "fixexisting")
}
