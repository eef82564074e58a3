// Package sleeptest defines a tiny analyzer for testing the driver:
// it reports every call to time.Sleep and suggests a fix, so that the
// driver's output, fixing and baseline logic can be tested without
// depending on what the real analyzers report.
package sleeptest

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"strconv"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

var Analyzer = &analysis.Analyzer{
	Name:     "sleeptest",
	Doc:      "report calls to time.Sleep (a driver test analyzer)\n\nEach call is reported with a fix that waits on time.After instead.",
	URL:      "https://example.com/sleeptest",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		if !group {
			return (*Groups)(nil), run(pass, pass.Report)
		}
		var sites []analysis.Diagnostic
		if err := run(pass, func(d analysis.Diagnostic) { sites = append(sites, d) }); err != nil {
			return nil, err
		}
		return reportGroup(pass, sites), nil
	},
	ResultType: reflect.TypeFor[*Groups](),
}

// Groups gives the sites of the grouped finding, as the real analyzers'
// result does (the driver reads it through these two methods).
type Groups struct {
	pos   token.Pos
	name  string
	sites []analysis.RelatedInformation
}

func (g *Groups) GroupSites(pos token.Pos, category string) []analysis.RelatedInformation {
	if g == nil || pos != g.pos {
		return nil
	}
	return g.sites
}

func (g *Groups) GroupName(pos token.Pos, category string) string {
	if g == nil || pos != g.pos {
		return ""
	}
	return g.name
}

// reportGroup reports the sites as one finding: at func root when the
// package declares one, else at the first site, named "time.Sleep".
func reportGroup(pass *analysis.Pass, sites []analysis.Diagnostic) *Groups {
	if len(sites) == 0 {
		return nil
	}
	g := &Groups{pos: sites[0].Pos, name: "time.Sleep"}
	if root, ok := pass.Pkg.Scope().Lookup("root").(*types.Func); ok {
		g.pos, g.name = root.Pos(), ""
	}
	d := analysis.Diagnostic{Pos: g.pos, Category: "sleep", Message: fmt.Sprintf("time.Sleep at %d call sites", len(sites))}
	for _, s := range sites {
		g.sites = append(g.sites, analysis.RelatedInformation{Pos: s.Pos, End: s.End, Message: "sleeps here"})
		if s.Pos != g.pos && len(d.Related) < 10 {
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: s.Pos, End: s.End, Message: "sleeps here"})
		}
	}
	pass.Report(d)
	return g
}

// Options, off by default; tests switch them on with flags.
var (
	dup    bool // report each call twice, with identical fixes
	zero   bool // also report time.Sleep(0), with a conflicting fix
	budget bool // fix by calling budget.Sleep, adding an import
	panics bool // panic in Run
	broken bool // suggest a fix that breaks the syntax
	// editable offers fixes only in files fixes may edit, as the real
	// analyzers do: none in generated files (cgo output among them).
	editable bool
	// group reports a package's calls as one grouped finding, as the
	// real analyzers report a root cause: at the package's func root
	// when it has one, else at the first call.
	group bool
)

func init() {
	Analyzer.Flags.BoolVar(&dup, "dup", false, "report each call twice with the same fix")
	Analyzer.Flags.BoolVar(&zero, "zero", false, "also report time.Sleep(0) with a conflicting fix")
	Analyzer.Flags.BoolVar(&budget, "budget", false, "fix with budget.Sleep")
	Analyzer.Flags.BoolVar(&panics, "panic", false, "panic")
	Analyzer.Flags.BoolVar(&broken, "broken", false, "suggest a fix that breaks the syntax")
	Analyzer.Flags.BoolVar(&editable, "editable", false, "offer no fix in generated files")
	Analyzer.Flags.BoolVar(&group, "group", false, "report a package's calls as one grouped finding")
}

const budgetPath = "github.com/retrylint/retrylint/budget"

func run(pass *analysis.Pass, report func(analysis.Diagnostic)) error {
	if panics {
		panic("sleeptest: boom\nsecond line")
	}
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	for cur := range ins.Root().Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		fn, ok := typeutil.Callee(pass.TypesInfo, call).(*types.Func)
		if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "time" || fn.Name() != "Sleep" {
			continue
		}
		arg := types.ExprString(call.Args[0])
		fix := analysis.SuggestedFix{
			Message:   "Wait on time.After",
			TextEdits: []analysis.TextEdit{{Pos: call.Pos(), End: call.End(), NewText: []byte("<-time.After(" + arg + ")")}},
		}
		if broken {
			fix.TextEdits[0].NewText = []byte("time.Sleep(")
		}
		if budget {
			file := enclosingFile(pass, call)
			fix = analysis.SuggestedFix{
				Message: "Call budget.Sleep",
				TextEdits: []analysis.TextEdit{
					{Pos: call.Pos(), End: call.End(), NewText: []byte("budget.Sleep(" + arg + ")")},
					{Pos: file.Name.End(), End: file.Name.End(), NewText: []byte("\n\nimport " + strconv.Quote(budgetPath))},
				},
			}
		}
		diag := analysis.Diagnostic{
			Pos:            call.Pos(),
			End:            call.End(),
			Category:       "sleep",
			Message:        "call to time.Sleep",
			SuggestedFixes: []analysis.SuggestedFix{fix, {Message: "Delete the call"}},
		}
		for c := range cur.Enclosing((*ast.ForStmt)(nil)) {
			loop := c.Node().(*ast.ForStmt)
			diag.Related = []analysis.RelatedInformation{{Pos: loop.For, End: loop.For + 3, Message: "enclosing loop"}}
			break
		}
		if editable && ast.IsGenerated(enclosingFile(pass, call)) {
			diag.SuggestedFixes = nil
		}
		report(diag)
		if dup {
			diag.Message = "call to time.Sleep again"
			report(diag)
		}
		if lit, ok := call.Args[0].(*ast.BasicLit); ok && zero && lit.Value == "0" {
			report(analysis.Diagnostic{
				Pos:     call.Pos(),
				End:     call.End(),
				Message: "zero sleep",
				SuggestedFixes: []analysis.SuggestedFix{{
					Message:   "Yield instead",
					TextEdits: []analysis.TextEdit{{Pos: call.Pos(), End: call.End(), NewText: []byte("_ = 0")}},
				}},
			})
		}
	}
	return nil
}

func enclosingFile(pass *analysis.Pass, n ast.Node) *ast.File {
	for _, f := range pass.Files {
		if f.FileStart <= n.Pos() && n.Pos() < f.FileEnd {
			return f
		}
	}
	panic("internal error: node outside the package's files")
}
