package retrydeadline_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzers/retrydeadline"
)

func Test(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), retrydeadline.Analyzer, "a", "clean")
}

func TestFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), retrydeadline.Analyzer, "fix")
}
