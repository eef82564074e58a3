package sites_test

import (
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzers/internal/sites"
)

// reporter reports the model's helper calls and its summaries of named
// functions (SSA indices: a method's receiver is 0), so that the testdata
// pins both; the summaries reach another package as facts.
var reporter = &analysis.Analyzer{
	Name:     "sitestest",
	Doc:      "report the v3 model's helper calls (test only)",
	Requires: []*analysis.Analyzer{sites.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		res := pass.ResultOf[sites.Analyzer].(*sites.Result)
		for _, h := range res.Helpers {
			pass.Reportf(h.Call.Pos(), "helper call deadline=%s", h.Deadline)
		}
		for fn, idx := range res.Summaries {
			if fn.Object() != nil {
				pass.Reportf(fn.Pos(), "retries params %v", idx)
			}
		}
		return nil, nil
	},
}

func TestSummaries(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), reporter, "helper", "user")
}

// loops reports the model's loop sites at their operations.
var loops = &analysis.Analyzer{
	Name:     "sitesloops",
	Doc:      "report the v3 model's loop sites (test only)",
	Requires: []*analysis.Analyzer{sites.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		for _, s := range pass.ResultOf[sites.Analyzer].(*sites.Result).Loops {
			pass.Reportf(s.Op.Pos(), "%s", s.Kind)
		}
		return nil, nil
	},
}

func TestLoops(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), loops, "tries")
}
