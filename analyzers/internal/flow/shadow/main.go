// Command shadow runs the model v3 engine (analyzers/internal/flow) beside
// the v2 model (analyzers/retryloop) and reports, as diagnostics, where
// they agree and where they differ about the loop-shaped retry sites
// (for, goto, select-paced, recursive): one diagnostic per site, its message saying
// which model found it ("both retry counted", "v3 only consume",
// "v2 only bare"); and about the calls that hand an operation to a
// retrying function (a helper of the code base, a wrapper of one, a retry
// library): "both helper library", "v3 only helper", "v2 only helper".
// Recursion counts with the loops (a cycle of the call graph).
//
//	go build -o /tmp/shadow ./analyzers/internal/flow/shadow
//	ACCURACY_BIN=/tmp/shadow ACCURACY_NOSCORE=1 accuracy/run.sh /tmp/shadow-dev
//	analyzers/internal/flow/shadow/summary.sh /tmp/shadow-dev
//
// On the frozen test split read only summary.sh's totals.
package main

import (
	"fmt"
	"go/token"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/retrylint/retrylint/analyzers/internal/flow"
	"github.com/retrylint/retrylint/analyzers/internal/sites"
	"github.com/retrylint/retrylint/analyzers/retryloop"
)

var analyzer = &analysis.Analyzer{
	Name:     "shadow",
	Doc:      "compare the v3 engine's retry sites with the v2 model's",
	Requires: []*analysis.Analyzer{retryloop.Analyzer, sites.Analyzer},
	Run:      run,
}

func main() { singlechecker.Main(analyzer) }

// loopShape reports whether a v2 site is one the v3 engine models today.
func loopShape(s *retryloop.Site) bool {
	switch s.Shape {
	case retryloop.ShapeCounted, retryloop.ShapeBare, retryloop.ShapeFlag, retryloop.ShapeGoto, retryloop.ShapeRecursion:
		return true
	}
	return false
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[retryloop.Analyzer].(*retryloop.Result)
	var loops2, calls2 []*retryloop.Site
	for _, s := range append(append([]*retryloop.Site(nil), res.Sites...), res.Quiet...) {
		switch {
		case isTest(pass, s.Pos):
		case loopShape(s):
			loops2 = append(loops2, s)
		case s.Shape == retryloop.ShapeHelper || s.Shape == retryloop.ShapeLibrary:
			calls2 = append(calls2, s)
		default:
			pass.Reportf(s.Pos, "v2 only %s", s.Shape)
		}
	}
	v3 := pass.ResultOf[sites.Analyzer].(*sites.Result)
	matched := map[*retryloop.Site]bool{}
	for _, s := range v3.Loops {
		if isTest(pass, s.Op.Pos()) {
			continue
		}
		if m := innermost(loops2, s.Op.Pos()); m != nil {
			matched[m] = true
			pass.Reportf(s.Op.Pos(), "both %s %s", s.Kind, kind2(m))
			if s.Kind == flow.Retry && s.Header != nil && !m.Consume {
				pass.Reportf(s.Op.Pos(), "evidence %s", compare(s.Evidence, m))
			}
			continue
		}
		if s.Evidence.Local {
			pass.Reportf(s.Op.Pos(), "v3 only %s local", s.Kind)
			continue
		}
		pass.Reportf(s.Op.Pos(), "v3 only %s", s.Kind)
	}
	for _, h := range v3.Helpers {
		if isTest(pass, h.Call.Pos()) {
			continue
		}
		if m := innermost(calls2, h.Call.Pos()); m != nil {
			matched[m] = true
			pass.Reportf(h.Call.Pos(), "both helper %s", m.Shape)
			continue
		}
		pass.Reportf(h.Call.Pos(), "v3 only helper")
	}
	for _, s := range append(loops2, calls2...) {
		if !matched[s] {
			pass.Reportf(s.Pos, "v2 only %s", kind2(s))
		}
	}
	return nil, nil
}

// compare says whether v3's evidence of a retry loop agrees with what v2
// found of the same site: "bound agree, delay v2 fixed v3 unknown, jitter
// agree". Counted in aggregate, it measures how far v3's values are from
// carrying the checks.
func compare(ev flow.Evidence, s *retryloop.Site) string {
	b2 := map[retryloop.Bound]flow.Bound{
		retryloop.BoundNone: flow.BoundNone, retryloop.BoundCounter: flow.BoundCounter,
		retryloop.BoundElapsed: flow.BoundDeadline, retryloop.BoundDeadline: flow.BoundDeadline,
		retryloop.BoundUnknown: flow.BoundUnknown,
	}[s.Bound]
	d2 := map[retryloop.Growth]flow.Delay{
		retryloop.GrowthAbsent: flow.DelayNone, retryloop.GrowthFixed: flow.DelayFixed,
		retryloop.GrowthGrowing: flow.DelayGrowing, retryloop.GrowthUnknown: flow.DelayUnknown,
		retryloop.GrowthServer: flow.DelayUnknown,
	}[s.Delay()]
	return agree("bound", b2.String(), ev.Bound.String()) + ", " +
		agree("delay", d2.String(), ev.Delay.String()) + ", " +
		agree("jitter", fmt.Sprint(s.Jittered()), fmt.Sprint(ev.Jitter))
}

func agree(what, v2, v3 string) string {
	if v2 == v3 {
		return what + " agree"
	}
	return what + " v2 " + v2 + " v3 " + v3
}

func kind2(s *retryloop.Site) string {
	if s.Consume {
		return "consume"
	}
	return s.Shape.String()
}

// innermost returns the v2 site that retries the operation at pos, or
// else the one with the smallest node holding pos (a goto site's node need
// not hold its operation).
func innermost(sites []*retryloop.Site, pos token.Pos) *retryloop.Site {
	for _, s := range sites {
		for _, op := range s.Ops {
			if op.Lparen == pos {
				return s
			}
		}
	}
	var best *retryloop.Site
	for _, s := range sites {
		n := s.Node
		if n == nil || pos < n.Pos() || pos >= n.End() {
			continue
		}
		if best == nil || n.End()-n.Pos() < best.Node.End()-best.Node.Pos() {
			best = s
		}
	}
	return best
}

func isTest(pass *analysis.Pass, pos token.Pos) bool {
	f := pass.Fset.File(pos)
	return f == nil || len(f.Name()) > 8 && f.Name()[len(f.Name())-8:] == "_test.go"
}
