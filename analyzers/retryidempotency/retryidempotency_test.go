package retryidempotency_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzers/retryidempotency"
)

// TestShared runs over the negatives every analyzer shares: loops of the
// excluded kinds, and careful retries (analyzers/testdata).
func TestShared(t *testing.T) {
	analysistest.Run(t, filepath.Join(analysistest.TestData(), "..", "..", "testdata"), retryidempotency.Analyzer, "excluded", "clean")
}

func Test(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), retryidempotency.Analyzer, "a", "handed")
}

func TestFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), retryidempotency.Analyzer, "fix")
}
