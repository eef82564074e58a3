package plugin

import (
	"flag"
	"go/token"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers"
)

// build looks the plugin up the way golangci-lint does and constructs it
// from conf, the value golangci-lint decodes from YAML.
func build(t *testing.T, name string, conf any) ([]*analysis.Analyzer, error) {
	t.Helper()
	t.Cleanup(resetAll)
	newPlugin, err := register.GetPlugin(name)
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlugin(conf)
	if err != nil {
		return nil, err
	}
	if got := p.GetLoadMode(); got != register.LoadModeTypesInfo {
		t.Errorf("GetLoadMode() = %q, want %q", got, register.LoadModeTypesInfo)
	}
	return p.BuildAnalyzers()
}

// resetAll undoes what a test did to the plugins' suite and claims.
func resetAll() {
	claimsMu.Lock()
	clear(claims)
	claimsMu.Unlock()
	for _, a := range suite() {
		if err := configure(a, nil); err != nil {
			panic(err)
		}
	}
}

func names(as []*analysis.Analyzer) []string {
	var ns []string
	for _, a := range as {
		ns = append(ns, a.Name)
	}
	return ns
}

func flagOf(t *testing.T, analyzer, name string) string {
	t.Helper()
	for _, a := range suite() {
		if a.Name == analyzer {
			f := a.Flags.Lookup(name)
			if f == nil {
				t.Fatalf("no flag -%s.%s", analyzer, name)
			}
			return f.Value.String()
		}
	}
	t.Fatalf("no analyzer %s", analyzer)
	return ""
}

var allNames = []string{"retrybudget", "retryjitter", "retrysleep", "retryidempotency", "retrydeadline", "retrynested"}

func TestDefaults(t *testing.T) {
	for _, conf := range []any{nil, map[string]any{}} {
		got, err := build(t, "retrylint", conf)
		if err != nil {
			t.Fatalf("conf %#v: %v", conf, err)
		}
		if !slices.Equal(names(got), allNames) {
			t.Errorf("conf %#v: analyzers %v, want %v", conf, names(got), allNames)
		}
		if v := flagOf(t, "retrysleep", "tests"); v != "false" {
			t.Errorf("conf %#v: -retrysleep.tests = %s, want false (test files are off by default)", conf, v)
		}
		resetAll()
	}
}

func TestSettingsSetFlags(t *testing.T) {
	conf := map[string]any{
		"disable": []any{"retrydeadline"},
		"retrybudget": map[string]any{
			"tests":        true,
			"budget-funcs": []any{"example.com/rl.Allow", "example.com/rl.(*Limiter).Take"},
			"remote-pkgs":  []any{"example.com/client"},
		},
		"retryidempotency": map[string]any{"headers": []any{"X-Request-Token"}},
		"retrysleep":       map[string]any{"tests": true},
	}
	got, err := build(t, "retrylint", conf)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"retrybudget", "retryjitter", "retrysleep", "retryidempotency", "retrynested"}; !slices.Equal(names(got), want) {
		t.Errorf("analyzers %v, want %v", names(got), want)
	}
	for _, c := range []struct{ analyzer, flag, want string }{
		{"retrybudget", "tests", "true"},
		{"retrybudget", "budget-funcs", "example.com/rl.Allow,example.com/rl.(*Limiter).Take"},
		{"retrybudget", "remote-pkgs", "example.com/client"},
		{"retryidempotency", "headers", "X-Request-Token"},
		{"retryidempotency", "tests", "false"},
		{"retrysleep", "tests", "true"},
		{"retryjitter", "tests", "false"},
	} {
		if v := flagOf(t, c.analyzer, c.flag); v != c.want {
			t.Errorf("-%s.%s = %q, want %q", c.analyzer, c.flag, v, c.want)
		}
	}

	// The analysis names a method without its receiver's star.
	inForce := suite()[0].Flags.Lookup("budget-funcs").Value.(flag.Getter).Get()
	if got, want := inForce.([]string), []string{"example.com/rl.Allow", "example.com/rl.Limiter.Take"}; !slices.Equal(got, want) {
		t.Errorf("budget functions in force: %q, want %q", got, want)
	}
	// The default suite, go vet's and the retrylint command's, is not the
	// plugins': their settings do not reach it.
	for _, a := range analyzers.All() {
		a.Flags.VisitAll(func(f *flag.Flag) {
			if f.Value.String() != f.DefValue {
				t.Errorf("-%s.%s = %q in analyzers.All after configuring the plugin, want the default", a.Name, f.Name, f.Value)
			}
		})
	}

	// A second construction starts from the defaults again.
	if _, err := build(t, "retrylint", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	if v := flagOf(t, "retrybudget", "budget-funcs"); v != "" {
		t.Errorf("-retrybudget.budget-funcs = %q after reconfiguring, want the default", v)
	}
}

func TestEnable(t *testing.T) {
	got, err := build(t, "retrylint", map[string]any{
		"enable":  []any{"retrysleep", "retryjitter", "retrydeadline"},
		"disable": []any{"retrydeadline"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"retryjitter", "retrysleep"}; !slices.Equal(names(got), want) {
		t.Errorf("analyzers %v, want %v (order of analyzers.All)", names(got), want)
	}
}

func TestSinglePlugins(t *testing.T) {
	for _, name := range allNames {
		got, err := build(t, name, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(names(got), []string{name}) {
			t.Errorf("plugin %s: analyzers %v", name, names(got))
		}
	}
	resetAll()
	if _, err := build(t, "retryidempotency", map[string]any{"headers": []any{"X-A", "X-B"}, "tests": false}); err != nil {
		t.Fatal(err)
	}
	if v := flagOf(t, "retryidempotency", "headers"); v != "X-A,X-B" {
		t.Errorf("-retryidempotency.headers = %q", v)
	}
	if v := flagOf(t, "retryidempotency", "tests"); v != "false" {
		t.Errorf("-retryidempotency.tests = %q", v)
	}
}

func TestErrors(t *testing.T) {
	for _, c := range []struct {
		plugin string
		conf   any
		want   []string // substrings of the error
	}{
		{"retrylint", map[string]any{"bogus": 1}, []string{`"bogus"`, "enable"}},
		{"retrylint", map[string]any{"enable": []any{"retrysleeep"}}, []string{"enable", `"retrysleeep"`, "retrysleep"}},
		{"retrylint", map[string]any{"disable": []any{"retrylint"}}, []string{"disable", `"retrylint"`}},
		{"retrylint", map[string]any{"retrybudget": map[string]any{"budget-func": []any{"x.F"}}}, []string{"retrybudget", `"budget-func"`, "budget-funcs"}},
		// Blocks of disabled analyzers are checked too.
		{"retrylint", map[string]any{"disable": []any{"retrysleep"}, "retrysleep": map[string]any{"headers": []any{"X"}}}, []string{"retrysleep", `"headers"`}},
		{"retrylint", map[string]any{"retryidempotency": map[string]any{"headers": "X-A"}}, []string{"retryidempotency", "headers", "list"}},
		{"retrylint", map[string]any{"retryidempotency": map[string]any{"headers": []any{"X-A,X-B"}}}, []string{"retryidempotency", "headers", "commas"}},
		{"retrylint", map[string]any{"retryjitter": map[string]any{"tests": "no"}}, []string{"retryjitter", "tests", "true or false"}},
		{"retrylint", map[string]any{"retryjitter": true}, []string{"retryjitter", "mapping"}},
		{"retrysleep", map[string]any{"tests": false, "budget-funcs": []any{"x.F"}}, []string{"retrysleep", `"budget-funcs"`}},
		{"retrybudget", map[string]any{"retrybudget": map[string]any{}}, []string{"retrybudget", `"retrybudget"`, "budget-funcs"}},
		// Entries are parsed by the analyzers' flags.
		{"retrylint", map[string]any{"retrybudget": map[string]any{"budget-funcs": []any{"example.com/rl.Allow", "garbage"}}}, []string{"retrybudget", "budget-funcs", `entry "garbage"`, "pkg/path.Func"}},
		{"retrybudget", map[string]any{"budget-funcs": []any{"!!!"}}, []string{"retrybudget", "budget-funcs", `entry "!!!"`}},
		{"retrybudget", map[string]any{"remote-pkgs": []any{"example.com/rpc/..."}}, []string{"retrybudget", "remote-pkgs", `entry "example.com/rpc/..."`}},
		{"retryidempotency", map[string]any{"headers": []any{"X Key"}}, []string{"retryidempotency", "headers", `entry "X Key"`}},
	} {
		resetAll() // a failed construction may have claimed analyzers
		_, err := build(t, c.plugin, c.conf)
		if err == nil {
			t.Errorf("%s %v: no error", c.plugin, c.conf)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s %v: error %q does not mention %s", c.plugin, c.conf, err, w)
			}
		}
	}
}

func TestConfiguredTwice(t *testing.T) {
	if _, err := build(t, "retrylint", map[string]any{"disable": []any{"retrysleep"}}); err != nil {
		t.Fatal(err)
	}
	// retrysleep is free; retryjitter is taken.
	if _, err := build(t, "retrysleep", map[string]any{"tests": false}); err != nil {
		t.Fatal(err)
	}
	_, err := build(t, "retryjitter", nil)
	if err == nil || !strings.Contains(err.Error(), "retryjitter") || !strings.Contains(err.Error(), "retrylint") {
		t.Errorf("retryjitter configured twice: err = %v", err)
	}
	// The settings of retrysleep survived the other plugins.
	if v := flagOf(t, "retrysleep", "tests"); v != "false" {
		t.Errorf("-retrysleep.tests = %s, want false", v)
	}
}

// TestFlagsCovered fails when an analyzer gains a flag that has no setting,
// or a setting names a flag the analyzer does not have, so that the
// golangci-lint settings and the command-line flags stay one set.
func TestFlagsCovered(t *testing.T) {
	for _, a := range analyzers.All() {
		if !slices.Contains(jsonKeys(&Settings{}), a.Name) {
			t.Errorf("analyzer %s has no block in the retrylint settings", a.Name)
		}
		block, err := settingsFor(a.Name, map[string]any{})
		if err != nil {
			t.Fatal(err)
		}
		settings := map[string]bool{}
		bt := reflect.TypeOf(block).Elem()
		for i := range bt.NumField() {
			if j, f := bt.Field(i).Tag.Get("json"), bt.Field(i).Tag.Get("flag"); j != f {
				t.Errorf("%s.%s: setting %q sets flag %q; they must be spelled alike", bt.Name(), bt.Field(i).Name, j, f)
			}
		}
		for _, k := range jsonKeys(block) {
			settings[k] = true
			if a.Flags.Lookup(k) == nil {
				t.Errorf("setting %s.%s: the analyzer has no flag -%s.%s", a.Name, k, a.Name, k)
			}
		}
		a.Flags.VisitAll(func(f *flag.Flag) {
			if !settings[f.Name] {
				t.Errorf("flag -%s.%s has no golangci-lint setting", a.Name, f.Name)
			}
		})
	}
}

// TestFoldRelated checks that the analyzers golangci-lint runs report
// their related positions inside the message, never as Related, which
// golangci-lint would turn into issues of their own.
func TestFoldRelated(t *testing.T) {
	fset := token.NewFileSet()
	a := fset.AddFile("/m/a.go", -1, 100)
	a.SetLines([]int{0, 10, 20, 30})
	b := fset.AddFile("/m/b.go", -1, 100)
	b.SetLines([]int{0, 10})
	var sawAnalyzer *analysis.Analyzer
	inner := &analysis.Analyzer{
		Name: "fake",
		Doc:  "fake",
		Run: func(pass *analysis.Pass) (any, error) {
			sawAnalyzer = pass.Analyzer
			pass.Report(analysis.Diagnostic{Pos: a.Pos(25), Message: "plain"})
			pass.Report(analysis.Diagnostic{
				Pos:     a.Pos(25),
				Message: "fixed delay between attempts",
				Related: []analysis.RelatedInformation{
					{Pos: a.Pos(5), Message: "retry loop"},
					{Pos: b.Pos(12), Message: "delay computed here"},
				},
			})
			return nil, nil
		},
	}
	w := foldRelated(inner)
	if w == inner || w.Name != inner.Name || foldRelated(inner) != w {
		t.Fatalf("foldRelated: want one wrapper named %s per analyzer", inner.Name)
	}
	var got []analysis.Diagnostic
	pass := &analysis.Pass{Analyzer: w, Fset: fset, Report: func(d analysis.Diagnostic) { got = append(got, d) }}
	if _, err := w.Run(pass); err != nil {
		t.Fatal(err)
	}
	if sawAnalyzer != inner {
		t.Errorf("the wrapped Run saw pass.Analyzer %v, want the analyzer itself", sawAnalyzer)
	}
	want := []string{"plain", "fixed delay between attempts (line 1: retry loop; b.go:2: delay computed here)"}
	var msgs []string
	for _, d := range got {
		msgs = append(msgs, d.Message)
		if d.Related != nil {
			t.Errorf("%q: Related still set: %v", d.Message, d.Related)
		}
	}
	if !slices.Equal(msgs, want) {
		t.Errorf("messages:\n got %q\nwant %q", msgs, want)
	}

	// Every analyzer the plugins hand to golangci-lint is wrapped.
	built, err := build(t, "retrylint", nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range suite() {
		if built[i] != foldRelated(a) {
			t.Errorf("BuildAnalyzers()[%d] is not the wrapper of %s", i, a.Name)
		}
	}
}
