package flow_test

import (
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/passes/buildssa"

	"github.com/retrylint/retrylint/analyzers/internal/flow"
)

// reporter reports each site the engine finds at its operation, so that
// the testdata pins both the sites and the silence of the look-alikes.
var reporter = &analysis.Analyzer{
	Name:     "flowsites",
	Doc:      "report the v3 engine's sites (test only)",
	Requires: []*analysis.Analyzer{buildssa.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		for _, fn := range pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA).SrcFuncs {
			for _, s := range flow.Sites(fn) {
				pass.Reportf(s.Op.Pos(), "%s site", s.Kind)
			}
		}
		return nil, nil
	},
}

func TestShapes(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), reporter, "shapes")
}

// evidencer reports each retry site's evidence at its operation.
var evidencer = &analysis.Analyzer{
	Name:     "flowevidence",
	Doc:      "report the v3 engine's evidence of each retry site (test only)",
	Requires: []*analysis.Analyzer{buildssa.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		for _, fn := range pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA).SrcFuncs {
			for _, s := range flow.Sites(fn) {
				if s.Kind == flow.Retry && s.Header != nil {
					pass.Reportf(s.Op.Pos(), "%s", s.Evidence)
				}
			}
		}
		return nil, nil
	},
}

func TestEvidence(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), evidencer, "evidence")
}
