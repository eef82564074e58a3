package analyzers_test

import (
	"go/ast"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/retrylint/retrylint/analyzers"
)

// TestSuitesIndependent runs three suites with different settings at once
// in one process over testdata/src/settings, where each option turns one
// verdict: every suite must see its own settings and no other's, and the
// default suite, analyzers.All, none of theirs.
func TestSuitesIndependent(t *testing.T) {
	pkgs := loadSettings(t)

	budgeted := analyzers.New()
	set(t, budgeted, "retrybudget", "budget-funcs", "settings.limiter.Allow")
	keyed := analyzers.New()
	set(t, keyed, "retryidempotency", "headers", "X-Request-Token")

	suites := []struct {
		name  string
		suite []*analysis.Analyzer
		want  []string // of the two findings the options turn, those expected
	}{
		{"default", analyzers.All(), []string{"retrybudget in fetch", "retryidempotency in charge"}},
		{"budget-funcs", budgeted, []string{"retryidempotency in charge"}},
		{"headers", keyed, []string{"retrybudget in fetch"}},
	}
	got := make([][]string, len(suites))
	var wg sync.WaitGroup
	for i, s := range suites {
		wg.Go(func() { got[i] = turned(t, s.suite, pkgs) })
	}
	wg.Wait()
	for i, s := range suites {
		if !slices.Equal(got[i], s.want) {
			t.Errorf("%s suite: findings %q, want %q", s.name, got[i], s.want)
		}
	}
}

// TestNewMatchesAll checks that New builds the suite All lists, so that an
// analyzer added to one is not missing from the other.
func TestNewMatchesAll(t *testing.T) {
	all, fresh := analyzers.All(), analyzers.New()
	if len(all) != len(fresh) {
		t.Fatalf("New has %d analyzers, All %d", len(fresh), len(all))
	}
	for i := range all {
		if fresh[i].Name != all[i].Name || fresh[i] == all[i] {
			t.Errorf("New()[%d] = %s (%p), want a fresh %s", i, fresh[i].Name, fresh[i], all[i].Name)
		}
	}
}

// set sets -analyzer.name=value in suite.
func set(t *testing.T, suite []*analysis.Analyzer, analyzer, name, value string) {
	t.Helper()
	i := slices.IndexFunc(suite, func(a *analysis.Analyzer) bool { return a.Name == analyzer })
	if i < 0 {
		t.Fatalf("no analyzer %s", analyzer)
	}
	if err := suite[i].Flags.Set(name, value); err != nil {
		t.Fatal(err)
	}
}

// loadSettings loads testdata/src/settings the way analysistest does: from
// a GOPATH, with its dependencies' syntax for the facts.
func loadSettings(t *testing.T) []*packages.Package {
	t.Helper()
	gopath, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedImports | packages.NeedDeps |
			packages.NeedTypes | packages.NeedTypesSizes | packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedModule,
		Dir: filepath.Join(gopath, "src", "settings"),
		Env: append(os.Environ(), "GOPATH="+gopath, "GO111MODULE=off", "GOWORK=off", "GOFLAGS=", "GOPROXY=off"),
	}
	pkgs, err := packages.Load(cfg, "settings")
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatal("testdata/src/settings does not load")
	}
	return pkgs
}

// turned runs suite over pkgs and returns which of the findings the
// options turn it reports: "retrybudget in fetch" (a limiter only
// budget-funcs names), "retryidempotency in charge" (a key header only
// headers names).
func turned(t *testing.T, suite []*analysis.Analyzer, pkgs []*packages.Package) []string {
	graph, err := checker.Analyze(suite, pkgs, nil)
	if err != nil {
		t.Error(err)
		return nil
	}
	var out []string
	for act := range graph.All() {
		if act.Err != nil {
			t.Errorf("%s on %s: %v", act.Analyzer, act.Package, act.Err)
		}
		if !act.IsRoot {
			continue
		}
		for _, d := range act.Diagnostics {
			for _, f := range act.Package.Syntax {
				for _, decl := range f.Decls {
					fd, ok := decl.(*ast.FuncDecl)
					if !ok || d.Pos < fd.Pos() || fd.End() <= d.Pos {
						continue
					}
					key := act.Analyzer.Name + " in " + fd.Name.Name
					if (key == "retrybudget in fetch" || key == "retryidempotency in charge") && !slices.Contains(out, key) {
						out = append(out, key)
					}
				}
			}
		}
	}
	slices.Sort(out)
	return out
}
