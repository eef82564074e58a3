package retryloop_test

import (
	"fmt"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
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
			pass.Reportf(s.Pos, "counter var=%s limit=%s n=%d plain=%t steps=%t", v, limit, c.N, c.Plain, c.Steps)
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

// flows reports what the model records of each retried operation's
// outcomes, and the statement after the loop.
var flows = &analysis.Analyzer{
	Name:     "printflows",
	Doc:      "test only: print the flow of every retried operation",
	Requires: []*analysis.Analyzer{retryloop.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		res := pass.ResultOf[retryloop.Analyzer].(*retryloop.Result)
		for _, s := range res.Sites {
			// Lines are counted from the site's.
			line := func(p token.Pos, atEnd string) string {
				if !p.IsValid() {
					return atEnd
				}
				return "+" + strconv.Itoa(pass.Fset.Position(p).Line-pass.Fset.Position(s.Pos).Line)
			}
			after := "-"
			if s.After != nil {
				after = strings.TrimPrefix(fmt.Sprintf("%T", s.After), "*ast.") + line(s.After.Pos(), "")
			}
			for _, f := range s.Flows {
				if f == nil {
					pass.Reportf(s.Pos, "flow unwalked")
					continue
				}
				var exits, reach, giveUps, rounds []string
				for _, p := range f.Exits() {
					exits = append(exits, line(p, "cond"))
				}
				for _, e := range f.Success {
					if !e.Pos.IsValid() {
						reach = []string{"end"}
					}
				}
				for _, e := range f.Failure {
					if e.Leaves {
						giveUps = append(giveUps, line(e.Pos, "cond"))
					} else {
						rounds = append(rounds, line(e.Pos, "end"))
					}
				}
				for _, l := range [][]string{exits, giveUps, rounds} {
					slices.Sort(l)
				}
				var kept []string
				for _, k := range s.Kept {
					kept = append(kept, k.Var.Name()+line(k.Pos, ""))
				}
				pass.Reportf(s.Pos, "flow op=%s exits=%v success=%v giveup=%v round=%v after=%s labeled=%t kept=%v",
					types.ExprString(f.Op.Fun), exits, reach, slices.Compact(giveUps), slices.Compact(rounds), after, s.Labeled, kept)
			}
		}
		return nil, nil
	},
}

// TestFlows pins the flows the fixes read: where a success leaves, where
// a failure gives up or goes round, and what follows the loop.
func TestFlows(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), flows, "flows")
}
