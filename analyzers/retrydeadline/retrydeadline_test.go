package retrydeadline_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzers/retrydeadline"
)

// TestShared runs over the negatives every analyzer shares: loops of the
// excluded kinds, and careful retries (analyzers/testdata).
func TestShared(t *testing.T) {
	analysistest.Run(t, filepath.Join(analysistest.TestData(), "..", "..", "testdata"), retrydeadline.Analyzer, "excluded", "clean")
}

func Test(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), retrydeadline.Analyzer, "a", "settled", "through/...")
}

func TestFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), retrydeadline.Analyzer, "fix")
}
