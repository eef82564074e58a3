package main

import (
	"os"
	"slices"
	"strconv"
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
		"| retrysleep | 1 | 0 | 0 | 0 | 1.00 | 1.00 |",
		"| retryjitter | 0 | 0 | 1 | 0 | 0.00 | — |",
		"| retrybudget | 0 | 0 | 0 | 1 | — | 0.00 |",
		"## Unlabeled findings (2, not scored)",
		"Scored: retrylint at abc1234.",
	} {
		if !strings.Contains(rep, want) {
			t.Errorf("report lacks %q:\n%s", want, rep)
		}
	}
}

// The sample holds only findings outside every labeled span, at most n,
// and one seed draws one sample.
func TestWriteSample(t *testing.T) {
	row := &label{module: "m", path: "a.go", line: 1, end: 5, analyzer: "retrysleep", label: "flag"}
	var fs []*finding
	for i := range 30 {
		fs = append(fs, &finding{module: "m", path: "a.go", line: 10 + i, analyzer: "retrybudget", message: "x"})
	}
	fs = append(fs, &finding{module: "m", path: "a.go", line: 2, analyzer: "retrysleep", message: "labeled"})
	assign([]*label{row}, fs)
	dir := t.TempDir()
	draw := func(name string, n int, seed uint64) string {
		file := dir + "/" + name
		got, err := writeSample(file, fs, n, seed)
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if lines := strings.Count(string(data), "\n"); lines != got {
			t.Fatalf("wrote %d lines, said %d", lines, got)
		}
		return string(data)
	}
	a, b := draw("a", 10, 7), draw("b", 10, 7)
	if a != b {
		t.Errorf("one seed drew two samples:\n%s\n%s", a, b)
	}
	if strings.Count(a, "\n") != 10 || strings.Contains(a, "labeled") {
		t.Errorf("want 10 unlabeled findings, have:\n%s", a)
	}
	if all := draw("c", 100, 7); strings.Count(all, "\n") != 30 {
		t.Errorf("asked for more than there are: want all 30, have %d", strings.Count(all, "\n"))
	}
	if c := draw("d", 10, 8); c == a {
		t.Errorf("two seeds drew the same sample")
	}
}

// A post-hoc flag row with a finding counts for precision, not recall;
// without one it is listed as lost, not counted as a false negative.
func TestPosthocRows(t *testing.T) {
	blind := &label{module: "m", path: "a.go", line: 1, end: 9, analyzer: "retrysleep", label: "flag"}
	post := &label{module: "m", path: "b.go", line: 5, end: 5, analyzer: "retrysleep", label: "flag", note: "[post-hoc] judged"}
	gone := &label{module: "m", path: "c.go", line: 7, end: 7, analyzer: "retrysleep", label: "flag", note: "[post-hoc] judged"}
	wrong := &label{module: "m", path: "d.go", line: 3, end: 3, analyzer: "retrysleep", label: "noflag", note: "[post-hoc] judged"}
	fs := []*finding{
		{module: "m", path: "b.go", line: 5, analyzer: "retrysleep"},
		{module: "m", path: "d.go", line: 3, analyzer: "retrysleep"},
	}
	labels := []*label{blind, post, gone, wrong}
	assign(labels, fs)
	rep := report(labels, fs, nil, "")
	// TP 0, TP+ 1, FP 1, FN 1 (the blind row): precision 1/2, recall 0/1.
	if want := "| retrysleep | 0 | 1 | 1 | 1 | 0.50 | 0.00 |"; !strings.Contains(rep, want) {
		t.Errorf("report lacks %q:\n%s", want, rep)
	}
	if !strings.Contains(rep, "lost (post-hoc, not in recall) retrysleep m c.go:7-7") {
		t.Errorf("the lost post-hoc row is not listed:\n%s", rep)
	}
}

// A grouped finding is scored at each site it stands for, not at the
// root cause where it stands: a site that moved from a finding of its
// own to a related position (or past the ten listed) still counts.
func TestGroupedSites(t *testing.T) {
	dir := t.TempDir()
	root := "/src/m"
	base := dir + "/" + Slug("m", "v1")
	if err := os.WriteFile(base+".root", []byte(root+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	json := `{"m": {"retryidempotency": [
		{"posn": "/src/m/client.go:5:2", "message": "retrying client re-sends writes (POST) without an idempotency key at 3 request sites",
		 "sites": ["/src/m/a.go:10:3", "/src/m/a.go:20:3", "/src/m/b.go:7:3"]},
		{"posn": "/src/m/c.go:3:1", "message": "POST request is re-sent by a retry loop without an idempotency key"}
	]}}`
	if err := os.WriteFile(base+".json", []byte(json), 0o644); err != nil {
		t.Fatal(err)
	}
	fs, err := readFindings(dir, "m", "v1")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range fs {
		got = append(got, f.path+":"+strconv.Itoa(f.line))
	}
	slices.Sort(got)
	if want := []string{"a.go:10", "a.go:20", "b.go:7", "c.go:3"}; !slices.Equal(got, want) {
		t.Errorf("scored at %v, want %v (the sites, never the root cause)", got, want)
	}
	if n, groups := reported(fs); n != 2 || groups != 1 {
		t.Errorf("reported: %d diagnostics, %d grouped; want 2, 1", n, groups)
	}
	if got, want := perModule(fs), []string{"m | 2 | 4 | 3 (retryidempotency)"}; !slices.Equal(got, want) {
		t.Errorf("per module: %q, want %q", got, want)
	}
}

// The fail-mode counts name what the models found in the spans of false
// negatives and false positives, once per row, and nothing of the rows
// themselves (no path, no line).
func TestFailmodes(t *testing.T) {
	fn := &label{module: "m", path: "secret/a.go", line: 10, end: 20, analyzer: "retrysleep", label: "flag"}
	fn2 := &label{module: "m", path: "secret/b.go", line: 1, end: 5, analyzer: "retrysleep", label: "flag"}
	fp := &label{module: "m", path: "secret/c.go", line: 1, end: 5, analyzer: "retrybudget", label: "noflag"}
	tp := &label{module: "m", path: "secret/d.go", line: 1, end: 5, analyzer: "retrysleep", label: "flag"}
	labels := []*label{fn, fn2, fp, tp}
	assign(labels, []*finding{
		{module: "m", path: "secret/c.go", line: 2, analyzer: "retrybudget"},
		{module: "m", path: "secret/d.go", line: 2, analyzer: "retrysleep"},
	})
	descs := []*finding{
		{module: "m", path: "secret/a.go", line: 12, analyzer: describer, message: "v2 shape=bare delay=unknown"},
		{module: "m", path: "secret/a.go", line: 14, analyzer: describer, message: "v2quiet shape=bare delay=fixed"},
		{module: "m", path: "secret/c.go", line: 3, analyzer: describer, message: "v3 retry bound=none op=secretOp@3"},
		{module: "m", path: "secret/d.go", line: 3, analyzer: describer, message: "v2 shape=counted"},
		{module: "m", path: "secret/b.go", line: 2, analyzer: describer, message: "ast loop=bare errtest"},
		{module: "m", path: "secret/c.go", line: 0, endLine: 2, analyzer: describer, message: "ast loop=cond"},
		{module: "m", path: "secret/c.go", line: 0, endLine: 0, analyzer: describer, message: "ast loop=range"},
	}
	got := failmodes(labels, descs)
	for _, want := range []string{
		"- retrysleep FN: ", "v2:shape=bare 1,", "v2:delay=unknown 1,", "v2:delay=fixed 1,", "v2:no-site 1,", "v3:no-site 2",
		"- retrysleep FN (no site): ast:errtest 1, ast:loop=bare 1, v2:no-site 1, v3:no-site 1\n",
		"- retrybudget FP: ", "v3:bound=none 1", "v2:no-site 1", "ast:encloses 1", "ast:loop=cond 1",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("failmodes lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "secret") || strings.Contains(got, ":op=") || strings.Contains(got, "shape=counted") || strings.Contains(got, "loop=range") || strings.Contains(got, "retrysleep TP") {
		t.Errorf("failmodes names a site or counts a true positive:\n%s", got)
	}
}
