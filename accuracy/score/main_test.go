package main

import (
	"strings"
	"testing"
)

// A finding belongs to the innermost labeled span of its analyzer or of
// an "any" row; an outer span does not see it, either rows score nothing,
// and a finding outside every span is unlabeled.
func TestAssignInnermost(t *testing.T) {
	outer := &label{module: "m", path: "a.go", line: 10, end: 40, analyzer: "retrysleep", label: "noflag"}
	inner := &label{module: "m", path: "a.go", line: 20, end: 25, analyzer: "retrysleep", label: "flag"}
	look := &label{module: "m", path: "a.go", line: 50, end: 60, analyzer: "any", label: "noflag"}
	arguable := &label{module: "m", path: "b.go", line: 1, end: 9, analyzer: "retrybudget", label: "either"}
	other := &label{module: "m", path: "a.go", line: 10, end: 40, analyzer: "retrybudget", label: "flag"}
	labels := []*label{outer, inner, look, arguable, other}
	fs := []*finding{
		{module: "m", path: "a.go", line: 21, analyzer: "retrysleep"},  // inner: TP
		{module: "m", path: "a.go", line: 55, analyzer: "retryjitter"}, // any row: FP
		{module: "m", path: "b.go", line: 3, analyzer: "retrybudget"},  // either: nothing
		{module: "m", path: "a.go", line: 99, analyzer: "retrysleep"},  // unlabeled
		{module: "n", path: "a.go", line: 21, analyzer: "retrysleep"},  // other module: unlabeled
	}
	assign(labels, fs)
	if fs[0].row != inner || len(outer.hits) != 0 {
		t.Errorf("the inner flag row must take the finding, not the outer noflag row")
	}
	if fs[1].row != look || fs[2].row != arguable || fs[3].row != nil || fs[4].row != nil {
		t.Errorf("rows: %v %v %v %v", fs[1].row, fs[2].row, fs[3].row, fs[4].row)
	}
	if len(other.hits) != 0 {
		t.Errorf("a row of another analyzer took a retrysleep finding")
	}
	rep := report(labels, fs, nil, "retrylint at abc1234")
	for _, want := range []string{
		"| retrysleep | 1 | 0 | 0 | 1.00 | 1.00 |",
		"| retryjitter | 0 | 1 | 0 | 0.00 | — |",
		"| retrybudget | 0 | 0 | 1 | — | 0.00 |",
		"## Unlabeled findings (2, not scored)",
		"Scored: retrylint at abc1234.",
	} {
		if !strings.Contains(rep, want) {
			t.Errorf("report lacks %q:\n%s", want, rep)
		}
	}
}
