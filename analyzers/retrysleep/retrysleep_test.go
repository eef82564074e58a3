package retrysleep_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzers/retrysleep"
)

func Test(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), retrysleep.Analyzer, "a", "clean", "retryhelper")
}

func TestFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), retrysleep.Analyzer, "fix")
}

func TestFixReusesImport(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), retrysleep.Analyzer, "fiximported")
}
