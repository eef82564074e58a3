package retrynested_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzers/retrynested"
)

// TestShared runs over the negatives every analyzer shares: loops of the
// excluded kinds, and careful retries (analyzers/testdata).
func TestShared(t *testing.T) {
	analysistest.Run(t, filepath.Join(analysistest.TestData(), "..", "..", "testdata"), retrynested.Analyzer, "excluded", "clean")
}

// TestLayers: handler → client → transport, each retrying, the facts
// crossing three packages.
func TestLayers(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), retrynested.Analyzer, "layers/...")
}

// TestTickLayers: a client whose requests retry on a source of retry
// ticks (an iterator that waits between yields) is an inner layer of a
// retry in another package.
func TestTickLayers(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), retrynested.Analyzer, "ticklayers/...")
}

// TestLibraries: clients with built-in retries and retry libraries as
// either layer.
func TestLibraries(t *testing.T) {
	analysistest.Run(t, analysistest.TestData()+"/src/libs", retrynested.Analyzer, "./...")
}

// TestSettled: the cases settled on 2026-12-06 (consume loops, local work).
func TestSettled(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), retrynested.Analyzer, "settled")
}
