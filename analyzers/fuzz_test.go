package analyzers_test

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/retrylint/retrylint/analyzers"
	"github.com/retrylint/retrylint/internal/testmods"
)

// FuzzSuite wraps fuzzed Go source into a file with a hand-rolled retry
// loop and retry-library calls, and runs the whole suite over it: no
// input that parses and type-checks may make an analyzer panic, fail, or
// run past fuzzTimeout (a resolver following a value defined by itself
// recurses until the stack overflows, a fatal error that no recover
// catches and that ends the fuzzing process itself).
//
// An input is DECLS, a line "----", then BODY: DECLS go at the file's top
// level, BODY at the start of func target, whose parameters (ctx, url, c,
// d, n) and retries follow it. The seeds are testdata/cycles/*.txt: the
// self-referential shapes each resolver must survive, named for them. In
// CI only the seeds run; to fuzz:
//
//	go test ./analyzers -run '^$' -fuzz FuzzSuite -fuzztime 10m
func FuzzSuite(f *testing.F) {
	seeds, err := filepath.Glob(filepath.Join("testdata", "cycles", "*.txt"))
	if err != nil || len(seeds) == 0 {
		f.Fatalf("no seeds in testdata/cycles: %v", err)
	}
	for _, s := range seeds {
		data, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
	base := fuzzBase(f)
	f.Fuzz(func(t *testing.T, input string) {
		pkg, ok := fuzzPackage(base, input)
		if !ok {
			t.Skip("does not parse or type-check")
		}
		if err := analyzeBounded(pkg); err != nil {
			t.Fatalf("%v\ninput:\n%s", err, input)
		}
	})
}

// TestCycleSeedsTypeCheck keeps the seeds honest: a seed that no longer
// type-checks would be skipped by FuzzSuite and guard nothing, and one on
// which the suite finds nothing (the template's loop and library call
// retry without a budget) is not analysed at all.
func TestCycleSeedsTypeCheck(t *testing.T) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "cycles", "*.txt"))
	if len(seeds) == 0 {
		t.Fatal("no seeds in testdata/cycles")
	}
	base := fuzzBase(t)
	for _, s := range seeds {
		data, err := os.ReadFile(s)
		if err != nil {
			t.Fatal(err)
		}
		pkg, err := fuzzCheck(base, string(data))
		if err != nil {
			t.Errorf("%s does not type-check: %v", s, err)
			continue
		}
		if n, err := analyzeCount(pkg); err != nil || n == 0 {
			t.Errorf("%s: %d findings, error %v; want findings and no error", s, n, err)
		}
	}
}

// fuzzTimeout bounds one input's analysis. It is no speed target (those
// are benchmarks): a resolver that loops without end is what it catches.
const fuzzTimeout = 2 * time.Minute

var (
	fuzzBaseOnce sync.Once
	fuzzBasePkg  *packages.Package
	fuzzBaseErr  error
)

// fuzzBase loads testdata/fuzz/base once: the types of every package a
// generated file may import.
func fuzzBase(tb testing.TB) *packages.Package {
	tb.Helper()
	fuzzBaseOnce.Do(func() {
		dir := filepath.Join("testdata", "fuzz")
		if fuzzBaseErr = testmods.Download(dir); fuzzBaseErr != nil {
			return
		}
		cfg := &packages.Config{
			Mode: packages.NeedName | packages.NeedTypes | packages.NeedTypesSizes |
				packages.NeedImports | packages.NeedDeps | packages.NeedModule,
			Dir: dir,
			Env: append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOPROXY=off"),
		}
		var pkgs []*packages.Package
		pkgs, fuzzBaseErr = packages.Load(cfg, "./base")
		if fuzzBaseErr == nil && packages.PrintErrors(pkgs) > 0 {
			fuzzBaseErr = errors.New("testdata/fuzz/base does not load")
		}
		if fuzzBaseErr == nil {
			fuzzBasePkg = pkgs[0]
		}
	})
	if fuzzBaseErr != nil {
		tb.Fatal(fuzzBaseErr)
	}
	return fuzzBasePkg
}

const fuzzHeader = `package target

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand"
	"net"
	"net/http"
	"strings"
	"time"

	retryv4 "github.com/avast/retry-go/v4"
	retryv5 "github.com/avast/retry-go/v5"
	backoffv4 "github.com/cenkalti/backoff/v4"
	"github.com/cenkalti/backoff/v5"
	goretry "github.com/sethvargo/go-retry"
	"k8s.io/apimachinery/pkg/util/wait"
)

var (
	_ = context.Background
	_ = sql.Open
	_ = errors.New
	_ = fmt.Sprint
	_ = rand.Int
	_ = net.Dial
	_ = strings.Cut
	_ = retryv4.Do
	_ = retryv5.New
	_ = backoffv4.Retry
	_ = goretry.Do
	_ = wait.ExponentialBackoff
)

`

const fuzzTarget = `
func target(ctx context.Context, url string, c *http.Client, d time.Duration, n int) (int, error) {
%s
	_, _, _, _, _ = ctx, url, c, d, n
	for attempt := 0; attempt < n; attempt++ {
		resp, err := c.Get(url)
		if err == nil {
			resp.Body.Close()
			break
		}
		time.Sleep(d)
	}
	return backoff.Retry(ctx, func() (int, error) {
		resp, err := c.Get(url)
		if err != nil {
			return 0, err
		}
		defer resp.Body.Close()
		return resp.StatusCode, nil
	}, backoff.WithBackOff(backoff.NewExponentialBackOff()))
}
`

// fuzzSource is the file an input makes.
func fuzzSource(input string) string {
	decls, body, found := strings.Cut(input, "\n----\n")
	if !found {
		decls, body = "", input
	}
	return fuzzHeader + decls + "\n" + fmt.Sprintf(fuzzTarget, body)
}

// fuzzCheck parses and type-checks the file an input makes.
func fuzzCheck(base *packages.Package, input string) (*packages.Package, error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "target.go", fuzzSource(input), parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	imports := map[string]*packages.Package{}
	for path, p := range base.Imports {
		imports[path] = p
	}
	info := &types.Info{
		Types:        map[ast.Expr]types.TypeAndValue{},
		Defs:         map[*ast.Ident]types.Object{},
		Uses:         map[*ast.Ident]types.Object{},
		Implicits:    map[ast.Node]types.Object{},
		Instances:    map[*ast.Ident]types.Instance{},
		Scopes:       map[ast.Node]*types.Scope{},
		Selections:   map[*ast.SelectorExpr]*types.Selection{},
		FileVersions: map[*ast.File]string{},
	}
	conf := types.Config{
		Importer:  importerFunc(func(path string) (*types.Package, error) { return importOf(imports, path) }),
		Sizes:     base.TypesSizes,
		GoVersion: "go1.26",
	}
	tpkg, err := conf.Check("example.com/fuzz/target", fset, []*ast.File{file}, info)
	if err != nil {
		return nil, err
	}
	return &packages.Package{
		ID: "example.com/fuzz/target", Name: "target", PkgPath: "example.com/fuzz/target",
		Fset: fset, Syntax: []*ast.File{file}, Types: tpkg, TypesInfo: info,
		TypesSizes: base.TypesSizes, Imports: imports, Module: base.Module,
		CompiledGoFiles: []string{"target.go"}, GoFiles: []string{"target.go"},
	}, nil
}

func fuzzPackage(base *packages.Package, input string) (*packages.Package, bool) {
	p, err := fuzzCheck(base, input)
	return p, err == nil
}

func importOf(imports map[string]*packages.Package, path string) (*types.Package, error) {
	if p, ok := imports[path]; ok {
		return p.Types, nil
	}
	return nil, fmt.Errorf("%s is not imported by testdata/fuzz/base", path)
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// analyzeBounded runs a fresh suite over pkg; its error names an analyzer
// that failed or panicked (the checker turns a panic into the action's
// error), or the time bound.
func analyzeBounded(pkg *packages.Package) error {
	_, err := analyzeCount(pkg)
	return err
}

// analyzeCount is analyzeBounded that also counts the findings on pkg.
func analyzeCount(pkg *packages.Package) (int, error) {
	type result struct {
		n   int
		err error
	}
	done := make(chan result, 1)
	go func() {
		graph, err := checker.Analyze(analyzers.New(), []*packages.Package{pkg}, &checker.Options{})
		if err != nil {
			done <- result{0, err}
			return
		}
		var errs []error
		n := 0
		for act := range graph.All() {
			if act.Package != pkg {
				continue
			}
			n += len(act.Diagnostics)
			if act.Err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", act.Analyzer.Name, act.Err))
			}
		}
		done <- result{n, errors.Join(errs...)}
	}()
	select {
	case r := <-done:
		return r.n, r.err
	case <-time.After(fuzzTimeout):
		return 0, fmt.Errorf("analysis still running after %s", fuzzTimeout)
	}
}
