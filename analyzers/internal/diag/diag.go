// Package diag holds what the reporting analyzers share: suppression
// directives, test-file filtering, and the edits of suggested fixes.
package diag

import (
	"go/ast"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Reporter reports one analyzer's diagnostics, honouring
// //retrylint:ignore directives and the analyzer's test-file setting.
type Reporter struct {
	pass  *analysis.Pass
	name  string
	tests bool
	// ignores maps file name -> line -> analyzers ignored there.
	ignores map[string]map[int][]string
	seen    map[libKey]bool
}

// New returns a Reporter for the analyzer running pass. It reports
// directives naming this analyzer that give no reason.
func New(pass *analysis.Pass, tests bool) *Reporter {
	r := &Reporter{pass: pass, name: pass.Analyzer.Name, tests: tests, ignores: map[string]map[int][]string{}}
	for _, f := range pass.Files {
		fname := pass.Fset.File(f.Pos()).Name()
		if !tests && strings.HasSuffix(fname, "_test.go") {
			continue
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				text, ok := strings.CutPrefix(c.Text, "//retrylint:ignore")
				if !ok {
					continue
				}
				// A trailing comment is not a reason.
				text, _, _ = strings.Cut(text, "//")
				fields := strings.Fields(text)
				if len(fields) == 0 {
					if r.name == "retrybudget" { // report a bare directive once
						pass.Report(analysis.Diagnostic{Pos: c.Pos(), End: c.End(), Category: "directive",
							Message: "retrylint:ignore directive names no analyzer and gives no reason: it suppresses nothing"})
					}
					continue
				}
				names := strings.Split(fields[0], ",")
				mine := false
				for _, n := range names {
					if n == r.name {
						mine = true
					}
				}
				if !mine {
					continue
				}
				if len(fields) < 2 {
					pass.Report(analysis.Diagnostic{Pos: c.Pos(), End: c.End(), Category: "directive",
						Message: "retrylint:ignore directive gives no reason: say why " + r.name + " does not apply"})
					continue
				}
				line := pass.Fset.Position(c.Pos()).Line
				m := r.ignores[fname]
				if m == nil {
					m = map[int][]string{}
					r.ignores[fname] = m
				}
				m[line] = append(m[line], r.name)
			}
		}
	}
	return r
}

// Wants reports whether a diagnostic at pos should be reported: its
// file is analysed and no directive on its line or the line above
// silences it.
func (r *Reporter) Wants(pos token.Pos) bool {
	p := r.pass.Fset.Position(pos)
	if !r.tests && strings.HasSuffix(p.Filename, "_test.go") {
		return false
	}
	m := r.ignores[p.Filename]
	return len(m[p.Line]) == 0 && len(m[p.Line-1]) == 0
}

// Report reports d unless it is suppressed.
func (r *Reporter) Report(d analysis.Diagnostic) {
	if r.Wants(d.Pos) {
		r.pass.Report(d)
	}
}

// Related builds related information.
func Related(pos token.Pos, msg string) analysis.RelatedInformation {
	return analysis.RelatedInformation{Pos: pos, Message: msg}
}

// IsGenerated reports whether f is a generated file (fixes never edit them).
func IsGenerated(f *ast.File) bool { return ast.IsGenerated(f) }

// ReportLibrary reports the library issues of one check, once per
// position and category (a client shared by several sites is one finding).
func (r *Reporter) ReportLibrary(issues []LibIssue) {
	for _, is := range issues {
		k := libKey{is.Pos, is.Category}
		if r.seen[k] {
			continue
		}
		if r.seen == nil {
			r.seen = map[libKey]bool{}
		}
		r.seen[k] = true
		r.Report(analysis.Diagnostic{Pos: is.Pos, End: is.End, Category: is.Category, Message: is.Message, Related: is.Related, SuggestedFixes: is.Fixes})
	}
}

// LibIssue is a library finding ready to report.
type LibIssue struct {
	Pos, End token.Pos
	Category string
	Message  string
	Related  []analysis.RelatedInformation
	Fixes    []analysis.SuggestedFix
}

type libKey struct {
	pos token.Pos
	cat string
}
