package retrybudget_test

import (
	"go/ast"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzers/internal/diag/diagtest"
	"github.com/retrylint/retrylint/analyzers/retrybudget"
)

// TestShared runs over the negatives every analyzer shares: loops of the
// excluded kinds, and careful retries (analyzers/testdata).
func TestShared(t *testing.T) {
	analysistest.Run(t, filepath.Join(analysistest.TestData(), "..", "..", "testdata"), retrybudget.Analyzer, "excluded", "clean")
}

func Test(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), retrybudget.Analyzer, "a", "handed", "settled")
}

// TestDirectives pins the directives that suppress nothing, and the fix
// of the spaced form: it removes the space and nothing else.
func TestDirectives(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), retrybudget.Analyzer, "directives")
	fixed := 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			if d.Category != "directive" || !strings.Contains(d.Message, "after a space") {
				continue
			}
			if len(d.SuggestedFixes) != 1 || len(d.SuggestedFixes[0].TextEdits) != 1 {
				t.Fatalf("spaced directive: fixes %+v, want one edit", d.SuggestedFixes)
			}
			e := d.SuggestedFixes[0].TextEdits[0]
			if e.Pos != d.Pos+2 || e.End != d.Pos+3 || len(e.NewText) != 0 {
				t.Errorf("spaced directive: edit [%d,%d) %q, want the one space after // deleted", e.Pos-d.Pos, e.End-d.Pos, e.NewText)
			}
			fixed++
		}
	}
	if fixed != 1 {
		t.Errorf("%d spaced directives reported, want 1", fixed)
	}
}

func TestFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), retrybudget.Analyzer, "fix", "fixexisting", "fixdo", "fixcap")
}

// TestHelpers: one finding per generic helper (SPEC), at its loop when a
// call in its own package passes it a remote operation, otherwise at the
// first such call of each calling package.
func TestHelpers(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), retrybudget.Analyzer, "helpers/lib", "helpers/use")
}

// TestLibraryHelpers: a helper handing its parameter to a retry library
// is a generic retry helper like a hand-rolled one.
func TestLibraryHelpers(t *testing.T) {
	analysistest.Run(t, analysistest.TestData()+"/src/libhelpers", retrybudget.Analyzer, "./...")
}

// TestLibraryClients: a client configured in another function is fixed
// at its construction, once for every send through it: one finding
// there, each send a related position.
func TestLibraryClients(t *testing.T) {
	diagtest.Related(t, analysistest.Run(t, analysistest.TestData()+"/src/libclients", retrybudget.Analyzer, "./..."))
}

// TestTestsOff: _test.go files are not analysed by default (SPEC).
func TestTestsOff(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), retrybudget.Analyzer, "testsoff")
}

// TestFixTests: with -retrybudget.tests a test's retry is reported and
// fixed onto the package's budget.
func TestFixTests(t *testing.T) {
	setFlag(t, "tests", "true")
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), retrybudget.Analyzer, "fixtests")
}

func setFlag(t *testing.T, name, value string) {
	t.Helper()
	f := retrybudget.Analyzer.Flags.Lookup(name)
	old := f.Value.String()
	if err := f.Value.Set(value); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Value.Set(old) })
}

// TestDoFixOffered pins where the budget.Do alternative is offered: in
// testdata/src/fixdo, exactly on the loops of the functions named
// replace*, always second after the budget guard. The golden archives
// check only the fixes they name, so a stray alternative would go
// unnoticed there.
func TestDoFixOffered(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), retrybudget.Analyzer, "fixdo")
	offered := map[string]bool{}
	for _, r := range results {
		for _, d := range r.Diagnostics {
			var fn string
			for _, f := range r.Pass.Files {
				for _, decl := range f.Decls {
					switch decl := decl.(type) {
					case *ast.FuncDecl:
						if decl.Pos() <= d.Pos && d.Pos < decl.End() {
							fn = decl.Name.Name
						}
					case *ast.GenDecl: // var name = func(...) {...}
						for _, spec := range decl.Specs {
							if vs, ok := spec.(*ast.ValueSpec); ok && vs.Pos() <= d.Pos && d.Pos < vs.End() {
								fn = vs.Names[0].Name
							}
						}
					}
				}
			}
			var alt bool
			for i, f := range d.SuggestedFixes {
				if strings.HasPrefix(f.Message, "Replace the loop with budget.Do") {
					alt = true
					if i != 1 {
						t.Errorf("%s: the alternative is fix %d, want 1 (the guard first)", fn, i)
					}
				}
			}
			if want := strings.HasPrefix(fn, "replace"); alt != want {
				t.Errorf("%s: alternative offered = %v, want %v", fn, alt, want)
			}
			offered[fn] = alt
		}
	}
	for _, fn := range []string{"replaceFetch", "replacePing", "replaceConn", "replaceHead", "keepLoopVarUsed", "keepExtraStatement",
		"keepNoContext", "keepTooMany", "keepNoErrorResult", "keepLocalError", "keepWorkAfter", "keepWaitEffect", "keepAssigned", "replaceInLiteral", "keepDoneWork", "keepContextShadowed", "keepLabeled"} {
		if _, ok := offered[fn]; !ok {
			t.Errorf("%s: no diagnostic", fn)
		}
	}
}
