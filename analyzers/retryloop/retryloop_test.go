package retryloop_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzers/retryloop"
)

// printer reports each retry site's classification, pinning the model.
var printer = &analysis.Analyzer{
	Name:     "printsites",
	Doc:      "test only: print the classification of every retry site",
	Requires: []*analysis.Analyzer{retryloop.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		res := pass.ResultOf[retryloop.Analyzer].(*retryloop.Result)
		for _, s := range res.Sites {
			pass.Reportf(s.Pos, "%s", s)
		}
		return nil, nil
	},
}

func TestModel(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), printer, "shapes", "usehelpers", "ifaces/use", "xpkg/use")
	analysistest.Run(t, filepath.Join(analysistest.TestData(), "..", "..", "testdata"), printer, "excluded")
}

// TestFacts pins the facts exported for helper functions.
func TestFacts(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), retryloop.Analyzer, "helpers")
}
