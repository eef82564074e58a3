package retrysleep_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzers/retrysleep"
)

// TestShared runs over the negatives every analyzer shares: loops of the
// excluded kinds, and careful retries (analyzers/testdata).
func TestShared(t *testing.T) {
	analysistest.Run(t, filepath.Join(analysistest.TestData(), "..", "..", "testdata"), retrysleep.Analyzer, "excluded", "clean")
}

func Test(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), retrysleep.Analyzer, "a", "retryhelper", "handed", "settled")
}

func TestFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), retrysleep.Analyzer, "fix", "fixabsent")
}

func TestFixReusesImport(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), retrysleep.Analyzer, "fiximported")
}
