// Package diag holds what the reporting analyzers share: suppression
// directives, test-file filtering, the edits of suggested fixes, and the
// grouping of findings by root cause (group.go).
package diag

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/internal/libmodel"
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
	groups  []*Group
}

// Names are the analyzers a //retrylint:ignore directive can name, in
// the order of analyzers.All (a test there keeps the two in step).
var Names = []string{"retrybudget", "retryjitter", "retrysleep", "retryidempotency", "retrydeadline", "retrynested"}

// directiveReporter is the analyzer that reports the problems of a
// directive as a whole (no analyzer named, an unknown name, a misspelled
// directive), so that each is reported once, not once per analyzer.
const directiveReporter = "retrybudget"

// Reporting completes a, given its Name, Doc and URL, as a reporting
// analyzer over model, the retryloop model it requires: its Run hands run
// the model's result R and the -tests option (whether _test.go files are
// analysed), and reports the package's Groups (Reporter.Flush) as its
// result. The option is a flag of a's, kept in Run's closure rather
// than a package variable, so that no two analyzers share it.
func Reporting[R any](a, model *analysis.Analyzer, run func(pass *analysis.Pass, res R, tests bool) (any, error)) *analysis.Analyzer {
	var tests bool
	a.Requires = []*analysis.Analyzer{model}
	a.ResultType = reflect.TypeFor[*Groups]()
	a.Run = func(pass *analysis.Pass) (any, error) {
		res, err := run(pass, pass.ResultOf[model].(R), tests)
		if res == nil {
			res = (*Groups)(nil)
		}
		return res, err
	}
	a.Flags.BoolVar(&tests, "tests", false, "analyze _test.go files (a test process does not form a fleet: off by default)")
	return a
}

// New returns a Reporter for the analyzer running pass, given the
// package's directive comments (Directives, collected once for all six
// analyzers by the model). It reports directives naming this analyzer
// that give no reason; the reporter of directive problems (retrybudget)
// also reports directives that suppress nothing: no analyzer named, a
// name that is no analyzer, the spaced form "// retrylint:ignore" (a
// comment, not a directive: Go directives have no space after the
// slashes) and an unknown //retrylint: verb.
func New(pass *analysis.Pass, tests bool, directives []*ast.Comment) *Reporter {
	r := &Reporter{pass: pass, name: pass.Analyzer.Name, tests: tests, ignores: map[string]map[int][]string{}}
	for _, c := range directives {
		p := pass.Fset.Position(c.Pos())
		if !tests && strings.HasSuffix(p.Filename, "_test.go") {
			continue
		}
		if names := r.directive(c); names != nil {
			m := r.ignores[p.Filename]
			if m == nil {
				m = map[int][]string{}
				r.ignores[p.Filename] = m
			}
			m[p.Line] = append(m[p.Line], names...)
		}
	}
	return r
}

// Directives returns the comments of files that may be retrylint
// directives, well formed or not (//retrylint:..., // retrylint:...), in
// file order: what New reads.
func Directives(files []*ast.File) []*ast.Comment {
	var out []*ast.Comment
	for _, f := range files {
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if body, ok := strings.CutPrefix(c.Text, "//"); ok && strings.HasPrefix(strings.TrimLeft(body, " \t"), "retrylint:") {
					out = append(out, c)
				}
			}
		}
	}
	return out
}

// directive parses c. It returns the analyzers c silences among those
// this Reporter reports for (r.name or nothing), and reports what is
// wrong with c.
func (r *Reporter) directive(c *ast.Comment) []string {
	body, ok := strings.CutPrefix(c.Text, "//")
	if !ok {
		return nil
	}
	trimmed := strings.TrimLeft(body, " \t")
	if !strings.HasPrefix(trimmed, "retrylint:") {
		return nil
	}
	verb, text := trimmed, ""
	if i := strings.IndexAny(trimmed, " \t"); i >= 0 {
		verb, text = trimmed[:i], trimmed[i:]
	}
	whole := r.name == directiveReporter
	report := func(msg string, fixes ...analysis.SuggestedFix) {
		r.pass.Report(analysis.Diagnostic{Pos: c.Pos(), End: c.End(), Category: "directive", Message: msg, SuggestedFixes: fixes})
	}
	if len(trimmed) < len(body) { // "// retrylint:…"
		if whole && verb == "retrylint:ignore" {
			report("retrylint:ignore after a space is a comment, not a directive: it suppresses nothing; write //retrylint:ignore",
				analysis.SuggestedFix{
					Message:   "Remove the space after //",
					TextEdits: []analysis.TextEdit{{Pos: c.Pos() + 2, End: c.Pos() + token.Pos(2+len(body)-len(trimmed))}},
				})
		}
		return nil // prose that happens to start with "retrylint:"
	}
	if verb != "retrylint:ignore" {
		if whole {
			report(fmt.Sprintf("unknown directive //%s: it suppresses nothing; the directive is //retrylint:ignore <analyzer> <reason>", verb))
		}
		return nil
	}
	// A trailing comment is not a reason.
	text, _, _ = strings.Cut(text, "//")
	fields := strings.Fields(text)
	if len(fields) == 0 {
		if whole {
			report("retrylint:ignore directive names no analyzer and gives no reason: it suppresses nothing")
		}
		return nil
	}
	mine := false
	for _, n := range strings.Split(fields[0], ",") {
		switch {
		case n == r.name:
			mine = true
		case whole && !slices.Contains(Names, n):
			msg := fmt.Sprintf("retrylint:ignore directive names %q, which is no analyzer: it suppresses nothing", n)
			if near := nearest(n); near != "" {
				msg += "; did you mean " + near + "?"
			} else {
				msg += " (analyzers: " + strings.Join(Names, ", ") + ")"
			}
			report(msg)
		}
	}
	if !mine {
		return nil
	}
	if len(fields) < 2 {
		report("retrylint:ignore directive gives no reason: say why " + r.name + " does not apply")
		return nil
	}
	return []string{r.name}
}

// nearest returns the analyzer name within two edits of s, if one is.
func nearest(s string) string {
	best, bestDist := "", 3
	for _, n := range Names {
		if d := editDistance(s, n); d < bestDist {
			best, bestDist = n, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
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

// ReportLibrary reports library findings in the check's words: what the
// finding shows, then the consequence the check gives its category. Once
// per position and category: a client shared by several sites is one
// finding.
func (r *Reporter) ReportLibrary(findings []libmodel.Finding, consequence map[string]string) {
	for _, f := range findings {
		k := libKey{f.Pos, f.Category}
		if r.seen[k] {
			continue
		}
		if r.seen == nil {
			r.seen = map[libKey]bool{}
		}
		r.seen[k] = true
		d := analysis.Diagnostic{
			Pos: f.Pos, End: f.End, Category: f.Category,
			Message: f.Shows + ": " + consequence[f.Category], Related: f.Related, SuggestedFixes: f.Fixes(),
		}
		if len(d.SuggestedFixes) > 0 || f.Root == nil && f.Maker == nil {
			r.Report(d)
			continue
		}
		// A client configured elsewhere: fixed at its construction, once
		// for every send through it (a finding with a fix of its own is
		// fixed where it stands). Made by a function of another package,
		// the construction is out of view: the sends of this package
		// through the clients it makes stand at the first of them.
		var key any
		var root analysis.Range
		var through string
		if f.Root != nil {
			key, root, through = libKey{f.Root.Pos(), f.Category}, f.Root, "this client"
		} else {
			key, through = makerKey{f.Maker, f.Category}, "clients "+f.Maker.FullName()+" makes"
		}
		f := f
		r.Group(key, root, func(g *Group) analysis.Diagnostic {
			return analysis.Diagnostic{
				Category: f.Category,
				Message:  fmt.Sprintf("%s, at %s through %s: %s", f.Shows, Count(len(g.Sites), "send", "sends"), through, consequence[f.Category]),
			}
		}, Site{Diag: d, As: "sent here"})
	}
}

// makerKey groups the findings of sends through clients one function of
// another package makes.
type makerKey struct {
	maker    *types.Func
	category string
}

// Count returns "1 send" or "3 sends".
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

type libKey struct {
	pos token.Pos
	cat string
}
