package retryloop_test

import (
	"fmt"
	"go/types"
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

// counters reports the counter the model records for each counted loop.
var counters = &analysis.Analyzer{
	Name:     "printcounters",
	Doc:      "test only: print the counter of every counted retry loop",
	Requires: []*analysis.Analyzer{retryloop.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		res := pass.ResultOf[retryloop.Analyzer].(*retryloop.Result)
		for _, s := range res.Sites {
			c := s.Counter
			if c == nil {
				continue
			}
			v, limit := "-", "-"
			if c.Var != nil {
				v = c.Var.Name()
			}
			if c.Limit != nil {
				limit = types.ExprString(c.Limit)
			}
			pass.Reportf(s.Pos, "counter var=%s limit=%s n=%d plain=%t", v, limit, c.N, c.Plain)
		}
		return nil, nil
	},
}

// TestCounters pins the counters of counted loops, which the fixes read.
func TestCounters(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), counters, "counters")
}

// evidence reports what the model records of each property of a site.
var evidence = &analysis.Analyzer{
	Name:     "printevidence",
	Doc:      "test only: print the evidence of every retry site",
	Requires: []*analysis.Analyzer{retryloop.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		res := pass.ResultOf[retryloop.Analyzer].(*retryloop.Result)
		for _, s := range res.Sites {
			ev := s.Evidence()
			show := func(name string, e retryloop.Evidence) string {
				out := name + "=" + e.State.String()
				if e.Why != "" {
					out += "(" + e.Why + ")"
				}
				return out
			}
			msg := fmt.Sprintf("evidence %s delay=%s %s %s %s %s %s %s %s", show("wait", ev.Wait), ev.Delay,
				show("jitter", ev.Jitter), show("remote", ev.Remote), show("budget", ev.Budget), show("cap", ev.Cap), show("stop", ev.Stop),
				show("deadline", ev.Deadline), show("cancel", ev.Cancel))
			if ev.Handed.State != retryloop.StateAbsent {
				msg += " " + show("handed", ev.Handed)
			}
			for _, r := range s.Requests {
				rev := s.RequestEvidence(r, res.KeyHeaders)
				msg += fmt.Sprintf("; request %s %s %s %s", show("resent", rev.Resent), show("write", rev.Write), show("key", rev.Key), show("fresh", rev.FreshKey))
			}
			pass.Reportf(s.Pos, "%s", msg)
		}
		return nil, nil
	},
}

// TestEvidence pins the evidence the checks read: present, absent or
// unknown, and why.
func TestEvidence(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), evidence, "evidence")
}

// TestFacts pins the facts exported for helper functions.
func TestFacts(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), retryloop.Analyzer, "helpers")
}
