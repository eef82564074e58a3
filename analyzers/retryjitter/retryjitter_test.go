package retryjitter_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzers/retryjitter"
)

func Test(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), retryjitter.Analyzer, "a", "clean")
}
