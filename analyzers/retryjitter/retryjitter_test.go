package retryjitter_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzers/retryjitter"
)

// TestShared runs over the negatives every analyzer shares: loops of the
// excluded kinds, and careful retries (analyzers/testdata).
func TestShared(t *testing.T) {
	analysistest.Run(t, filepath.Join(analysistest.TestData(), "..", "..", "testdata"), retryjitter.Analyzer, "excluded", "clean")
}

func Test(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), retryjitter.Analyzer, "a", "settled")
}

// TestLibraries runs over a module requiring the real libraries (TestMain
// fetches them: analysistest runs with GOPROXY=off).
func TestLibraries(t *testing.T) {
	analysistest.Run(t, analysistest.TestData()+"/src/libs", retryjitter.Analyzer, "./...")
}

func TestFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), retryjitter.Analyzer, "fix")
}

func TestFixAliasesImport(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), retryjitter.Analyzer, "fixalias")
}
