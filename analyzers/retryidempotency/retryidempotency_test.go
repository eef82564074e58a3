package retryidempotency_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzers/retryidempotency"
)

func Test(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), retryidempotency.Analyzer, "a", "clean", "handed")
}

func TestFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), retryidempotency.Analyzer, "fix")
}
