package libmodel_test

import (
	"bytes"
	"go/ast"
	"go/format"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/retrylint/retrylint/analyzers/internal/libmodel"
)

// testAnalyzer reports every Issue libmodel finds as "<check>: <message>".
var testAnalyzer = &analysis.Analyzer{
	Name: "libmodeltest",
	Doc:  "reports the issues libmodel finds at library retry sites",
	Run:  run,
}

func run(pass *analysis.Pass) (any, error) {
	env := &libmodel.Env{
		Info:     pass.TypesInfo,
		Pkg:      pass.Pkg,
		Fset:     pass.Fset,
		Files:    pass.Files,
		IsBudget: func(call *ast.CallExpr) bool { return isBudget(pass.TypesInfo, call) },
	}
	env.Remote = func(op ast.Expr) bool { return reachesNetwork(pass, op) }
	if h, ok := pass.Analyzer.Flags.Lookup("headers").Value.(interface{ Get() any }); ok {
		if hs, _ := h.Get().(string); hs != "" {
			env.KeyHeaders = strings.Split(hs, ",")
		}
	}
	// The minimal environment must not panic either.
	bare := &libmodel.Env{Info: pass.TypesInfo, Pkg: pass.Pkg}
	for _, file := range pass.Files {
		report := func(i libmodel.Finding) {
			c := checks[i.Prop()]
			pass.Report(analysis.Diagnostic{
				Pos: i.Pos, End: i.End, Category: i.Category,
				Message:        c + ": " + i.Shows + ": " + consequences[i.Category],
				Related:        i.Related,
				SuggestedFixes: i.Fixes(),
			})
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch n.(type) {
			case *ast.FuncDecl, *ast.FuncLit:
				libmodel.Sites(bare, file, n)
				for _, site := range libmodel.Sites(env, file, n) {
					if site.Call == nil || site.Library == "" {
						pass.Reportf(n.Pos(), "internal error: site without call or library")
					}
					// As the reporters do: one finding per check and site.
					seen := map[string]bool{}
					for _, i := range site.Findings {
						if c := checks[i.Prop()]; !seen[c] {
							seen[c] = true
							report(i)
						}
					}
				}
			}
			return true
		})
		for _, i := range libmodel.ServiceConfigFindings(env, file) {
			report(i)
		}
	}
	return nil, nil
}

// checks stands in for the reporters' choice of the properties each
// speaks for, and consequences for their words.
var checks = map[libmodel.Prop]string{
	libmodel.PropWait: "retrysleep", libmodel.PropJitter: "retryjitter",
	libmodel.PropCap: "retrybudget", libmodel.PropBudget: "retrybudget", libmodel.PropConfig: "retrybudget",
	libmodel.PropDeadline: "retrydeadline", libmodel.PropKey: "retryidempotency",
}

var consequences = map[string]string{
	libmodel.CatNoJitter:        "clients that failed together retry together",
	libmodel.CatFixedDelay:      "clients that failed together retry in lockstep at the same pace",
	libmodel.CatNoDelay:         "a failing dependency is hit again at once, with no pause to recover",
	libmodel.CatUnbounded:       "a persistent failure is retried forever",
	libmodel.CatNoBudget:        "under an outage every caller retries and multiplies load",
	libmodel.CatGRPCThrottling:  "under an outage every caller retries and multiplies load",
	libmodel.CatGRPCInvalid:     "grpc.Dial fails or the retry policy is silently ignored",
	libmodel.CatGRPCMaxAttempts: "grpc-go silently caps it at 5, so the config promises attempts that never happen",
	libmodel.CatNoContext:       "cancellation and deadlines of the caller do not stop the retries",
	libmodel.CatBackground:      "nothing bounds the retries in time",
	libmodel.CatNoKey:           "a retried write that reached the server is applied twice",
}

// isBudget stands in for retryloop's judgement: x/time/rate limiters.
func isBudget(info *types.Info, call *ast.CallExpr) bool {
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	switch fn.Pkg().Path() {
	case "golang.org/x/time/rate":
		return slices.Contains([]string{"Allow", "AllowN", "Wait", "WaitN"}, fn.Name())
	case "github.com/sony/gobreaker":
		return fn.Name() == "Execute"
	}
	return false
}

// reachesNetwork stands in for retryloop's judgement: the operation calls
// into net/http or libs/remote.Fetch, directly or through a function of the
// package.
func reachesNetwork(pass *analysis.Pass, op ast.Expr) bool {
	var body ast.Node
	switch op := ast.Unparen(op).(type) {
	case *ast.FuncLit:
		body = op.Body
	case *ast.Ident, *ast.SelectorExpr:
		var id *ast.Ident
		if sel, ok := op.(*ast.SelectorExpr); ok {
			id = sel.Sel
		} else {
			id = op.(*ast.Ident)
		}
		fn, _ := pass.TypesInfo.Uses[id].(*types.Func)
		if fn == nil {
			return false
		}
		if fn.Pkg() != nil && fn.Pkg().Path() == "libs/remote" {
			return fn.Name() == "Fetch"
		}
		for _, f := range pass.Files {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && pass.TypesInfo.Defs[fd.Name] == fn {
					body = fd.Body
				}
			}
		}
	}
	if body == nil {
		return false
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if fn, _ := typeutil.Callee(pass.TypesInfo, call).(*types.Func); fn != nil && fn.Pkg() != nil {
				p := fn.Pkg().Path()
				if p == "net/http" || p == "libs/remote" && fn.Name() == "Fetch" {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

func init() {
	testAnalyzer.Flags.String("headers", "", "idempotency key headers")
}

// TestKeyHeaders runs with a configured header list: X-Request-Key counts,
// the defaults no longer do.
func TestKeyHeaders(t *testing.T) {
	dir := filepath.Join(analysistest.TestData(), "src", "libs")
	if err := testAnalyzer.Flags.Set("headers", "x-request-key"); err != nil {
		t.Fatal(err)
	}
	defer testAnalyzer.Flags.Set("headers", "")
	analysistest.Run(t, dir, testAnalyzer, "libs/keyheaders")
}

var packages = []string{
	"libs/backoffv2", "libs/backoffv3", "libs/backoffv4", "libs/backoffv5", "libs/backoffv7", "libs/avast", "libs/avastv5", "libs/goretry",
	"libs/retryablehttp", "libs/restyv2", "libs/restyv3", "libs/restyheld", "libs/restyheldmethod", "libs/restyheldhelper", "libs/failsafe",
	"libs/k8s", "libs/grpcmw", "libs/grpcmwv1", "libs/eapache", "libs/awssdk", "libs/grpcconfig",
}

func TestLibraries(t *testing.T) {
	dir := filepath.Join(analysistest.TestData(), "src", "libs")
	if _, err := os.Stat(filepath.Join(dir, "go.sum")); err != nil {
		t.Fatal(err)
	}
	pkgs := packages
	if p := os.Getenv("LIBMODEL_PKGS"); p != "" {
		pkgs = strings.Split(p, ",")
	}
	results := analysistest.RunWithSuggestedFixes(t, dir, testAnalyzer, pkgs...)
	if os.Getenv("LIBMODEL_UPDATE_GOLDEN") != "" {
		writeGolden(t, results)
	}
}

// writeGolden writes the .golden file of every file with fixes, for review.
func writeGolden(t *testing.T, results []*analysistest.Result) {
	edits := make(map[string][]analysis.TextEdit)
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				for _, e := range f.TextEdits {
					name := r.Pass.Fset.File(e.Pos).Name()
					if !slices.ContainsFunc(edits[name], func(x analysis.TextEdit) bool { return x.Pos == e.Pos && bytes.Equal(x.NewText, e.NewText) }) {
						edits[name] = append(edits[name], e)
					}
				}
			}
		}
		for name, es := range edits {
			src, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			tf := r.Pass.Fset.File(es[0].Pos)
			slices.SortFunc(es, func(a, b analysis.TextEdit) int { return tf.Offset(b.Pos) - tf.Offset(a.Pos) })
			out := src
			for _, e := range es {
				start, end := tf.Offset(e.Pos), tf.Offset(e.End)
				out = append(append(append([]byte(nil), out[:start]...), e.NewText...), out[end:]...)
			}
			if f, err := format.Source(out); err == nil {
				out = f
			}
			if err := os.WriteFile(name+".golden", out, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		clear(edits)
	}
}
