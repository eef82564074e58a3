package retryidempotency_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzers/internal/diag/diagtest"
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

// TestLibs runs over an API client whose writes are built by a request
// builder and re-sent by a retryablehttp client in a wrapper's Do method,
// in its own package and in an importer. The writes a client re-sends
// are one finding per package, at the client's construction when in view
// (at the first write otherwise), each write a related position.
func TestLibs(t *testing.T) {
	diagtest.Related(t, analysistest.Run(t, analysistest.TestData()+"/src/libs", retryidempotency.Analyzer, "./..."))
}
