package retrysleep_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzers/retrysleep"
)

func Test(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), retrysleep.Analyzer, "a", "clean")
}
