package main_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/retrylint/retrylint/internal/testmods"
)

// End-to-end tests of the built binaries: retrylint itself, with the
// real analyzers, and sleeplint (testdata/cli/cmd/sleeplint), the same
// driver with only the sleeptest analyzer, whose findings do not
// depend on the analyzers' progress. Both are built once.

var (
	retrylint, sleeplint string
	buildErr             = map[string]error{}
	testdata, _          = filepath.Abs(filepath.Join("..", "..", "testdata", "cli"))
)

func TestMain(m *testing.M) {
	flag.Parse()
	if testing.Short() {
		os.Exit(m.Run()) // every test here skips
	}
	dir, err := os.MkdirTemp("", "retrylint-e2e")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// The ctxidiom fixture imports real retry libraries; the runs below
	// load it with the module cache alone.
	if err := testmods.Download(filepath.Join(testdata, "ctxidiom")); err != nil {
		fmt.Fprintln(os.Stderr, "FAIL:", err)
		os.Exit(1)
	}
	retrylint = build(dir, "retrylint", ".")
	sleeplint = build(dir, "sleeplint", "../../testdata/cli/cmd/sleeplint")
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// build builds pkg into dir/name and records any failure for need.
func build(dir, name, pkg string) string {
	exe := filepath.Join(dir, name)
	if out, err := exec.Command("go", "build", "-o", exe, pkg).CombinedOutput(); err != nil {
		buildErr[exe] = fmt.Errorf("go build %s: %v\n%s", pkg, err, out)
	}
	return exe
}

func need(t *testing.T, exe string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds binaries and runs go vet; skipped with -short")
	}
	if err := buildErr[exe]; err != nil {
		t.Fatal(err)
	}
}

// fixture copies the fixture module testdata/cli/name to a temporary
// directory.
func fixture(t *testing.T, name string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), name)
	if err := os.CopyFS(dst, os.DirFS(filepath.Join(testdata, name))); err != nil {
		t.Fatal(err)
	}
	return dst
}

type result struct {
	code           int
	stdout, stderr string
}

// run runs a command in dir and returns its exit code and output.
func run(t *testing.T, dir, name string, args ...string) result {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	return result{cmd.ProcessState.ExitCode(), stdout.String(), stderr.String()}
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// vetJSON decodes go vet -json output: package → analyzer → diagnostics.
func vetJSON(t *testing.T, out string) map[string]map[string][]struct{ Posn, Message string } {
	t.Helper()
	tree := map[string]map[string][]struct{ Posn, Message string }{}
	// go vet prints one JSON object per package; decode them all.
	dec := json.NewDecoder(strings.NewReader(out))
	for dec.More() {
		var part map[string]map[string][]struct{ Posn, Message string }
		if err := dec.Decode(&part); err != nil {
			t.Fatalf("bad JSON: %v\n%s", err, out)
		}
		for pkg, m := range part {
			if tree[pkg] == nil {
				tree[pkg] = m
				continue
			}
			for a, ds := range m {
				tree[pkg][a] = append(tree[pkg][a], ds...)
			}
		}
	}
	return tree
}

// TestVetTool runs the driver as go vet -vettool and go fix -fixtool:
// the unitchecker protocol, analyzer flags, -json, -fix and -diff.
func TestVetTool(t *testing.T) {
	need(t, sleeplint)
	t.Parallel()
	vettool := "-vettool=" + sleeplint
	dir := fixture(t, "sleepy")
	retryGo := filepath.Join(dir, "retry", "retry.go")
	orig := readFile(t, retryGo)

	r := run(t, dir, "go", "vet", vettool, "./...")
	if r.code != 1 || !strings.Contains(r.stderr, "retry/retry.go:18:3: call to time.Sleep") ||
		!strings.Contains(r.stderr, "retry/retry_test.go:9:2: call to time.Sleep") {
		t.Errorf("go vet: got %+v, want exit 1 and the findings", r)
	}

	r = run(t, dir, "go", "vet", vettool, "-json", "./retry")
	posns := map[string]bool{} // vet reports p and "p [p.test]" apart
	for _, d := range vetJSON(t, r.stdout+r.stderr)["example.com/sleepy/retry"]["sleeptest"] {
		posns[d.Posn] = true
	}
	if r.code != 0 || len(posns) != 3 {
		t.Errorf("go vet -json: got exit %d, %d positions, want 0 and 3:\n%s%s", r.code, len(posns), r.stdout, r.stderr)
	}

	r = run(t, dir, "go", "vet", vettool, "-sleeptest.dup", "./retry")
	if !strings.Contains(r.stderr, "call to time.Sleep again") {
		t.Errorf("go vet -sleeptest.dup: the option did not reach the analyzer:\n%s", r.stderr)
	}

	r = run(t, dir, "go", "vet", vettool, "-fix", "-diff", "./retry")
	if !strings.Contains(r.stdout, "+\t\t<-time.After(time.Second)") || readFile(t, retryGo) != orig {
		t.Errorf("go vet -fix -diff: got %+v, or the file changed", r)
	}

	r = run(t, dir, "go", "vet", vettool, "-fix", "./retry")
	if r.code != 0 || !strings.Contains(readFile(t, retryGo), "<-time.After(time.Second)") {
		t.Errorf("go vet -fix: got %+v, file:\n%s", r, readFile(t, retryGo))
	}

	dir = fixture(t, "sleepy")
	r = run(t, dir, "go", "fix", "-fixtool="+sleeplint, "./retry")
	if r.code != 0 || !strings.Contains(readFile(t, filepath.Join(dir, "retry", "retry.go")), "<-time.After(time.Second)") {
		t.Errorf("go fix -fixtool: got %+v", r)
	}
}

// TestStandalone checks the exit codes of the built binary.
func TestStandalone(t *testing.T) {
	need(t, sleeplint)
	t.Parallel()
	dir := fixture(t, "sleepy")
	if r := run(t, dir, sleeplint, "./retry"); r.code != 3 || !strings.Contains(r.stdout, "retry/retry.go:18:3: call to time.Sleep (sleeptest)") {
		t.Errorf("findings: got %+v, want exit 3", r)
	}
	if r := run(t, dir, sleeplint, "-format", "sarif", "./retry"); r.code != 3 || !strings.Contains(r.stdout, `"ruleId": "sleeptest"`) {
		t.Errorf("sarif: got exit %d", r.code)
	}
	if r := run(t, dir, sleeplint, "-nosuch", "./..."); r.code != 1 || r.stderr != "retrylint: flag provided but not defined: -nosuch\n" {
		t.Errorf("bad flag: got %+v", r)
	}
	if r := run(t, fixture(t, "clean"), sleeplint, "./..."); r.code != 0 || r.stdout+r.stderr != "" {
		t.Errorf("clean: got %+v", r)
	}
	if r := run(t, dir, sleeplint, "-h"); r.code != 0 || !strings.Contains(r.stderr, "-sleeptest.dup") {
		t.Errorf("-h: got %+v", r)
	}
}

// TestOutsideModule: the go command's own words, not go/packages' wrapping.
func TestOutsideModule(t *testing.T) {
	need(t, retrylint)
	t.Parallel()
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "main.go"), []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := run(t, outside, retrylint, "."); r.code != 1 || !strings.HasPrefix(r.stderr, "retrylint: go: go.mod file not found") || strings.Contains(r.stderr, "stderr:") {
		t.Errorf("outside a module: got %+v", r)
	}
}

// TestProtocol checks what go vet asks before running a vet tool.
func TestProtocol(t *testing.T) {
	need(t, retrylint)
	t.Parallel()
	r := run(t, t.TempDir(), retrylint, "-V=full")
	if r.code != 0 || !strings.Contains(r.stdout, "retrylint version devel") {
		t.Errorf("-V=full: got %+v", r)
	}
	r = run(t, t.TempDir(), retrylint, "-flags")
	var flags []struct{ Name string }
	if err := json.Unmarshal([]byte(r.stdout), &flags); err != nil || r.code != 0 {
		t.Fatalf("-flags: got %+v (%v)", r, err)
	}
	var names []string
	for _, f := range flags {
		names = append(names, f.Name)
	}
	for _, want := range []string{"retrybudget", "retrybudget.budget-funcs", "retryidempotency.headers", "json", "c"} {
		if !slices.Contains(names, want) {
			t.Errorf("-flags lacks %s: %v", want, names)
		}
	}
	if r := run(t, t.TempDir(), retrylint, "-version"); r.code != 0 || !strings.HasPrefix(r.stdout, "retrylint version ") {
		t.Errorf("-version: got %+v", r)
	}
}

// The tests below depend on what the real analyzers report.

// TestRealAnalyzers runs retrylint on an unmistakable anti-pattern: an
// unbounded loop re-posting without a key, budget or deadline, with a
// fixed sleep.
func TestRealAnalyzers(t *testing.T) {
	need(t, retrylint)
	t.Parallel()
	dir := fixture(t, "antipattern")
	r := run(t, dir, retrylint, "-json", "./...")
	if r.code != 3 {
		t.Errorf("exit %d, want 3; stderr: %s", r.code, r.stderr)
	}
	got := vetJSON(t, r.stdout)["example.com/antipattern/post"]
	for _, name := range []string{"retrybudget", "retrysleep", "retryidempotency", "retrydeadline"} {
		if len(got[name]) == 0 {
			t.Errorf("no %s finding; got:\n%s", name, r.stdout)
		}
	}

	// Their SARIF, with related locations and fixes, is valid.
	r = run(t, dir, retrylint, "-format", "sarif", "./...")
	if r.code != 3 {
		t.Errorf("sarif: exit %d, want 3", r.code)
	}
	validateSARIF(t, r.stdout)

	// Options are the analyzers' own flags. A function the loaded
	// packages do not have is worth a warning, not a failure.
	r = run(t, fixture(t, "clean"), retrylint, "-retrybudget.budget-funcs=example.com/lim.Allow",
		"-retryidempotency.headers=PayPal-Request-Id", "./...")
	if r.code != 0 || r.stdout != "" ||
		r.stderr != "retrylint: warning: -retrybudget.budget-funcs: example.com/lim.Allow: package example.com/lim is neither loaded nor imported by a loaded package\n" {
		t.Errorf("clean with options: got %+v, want exit 0 and one warning", r)
	}
}

// TestOptionValidation checks the list options through both doors: a
// malformed entry fails the run (exit code 1, one line naming the entry,
// under go vet one line per package), pkg.(*T).Method names a method
// with a pointer receiver, and an entry that names nothing loaded is
// warned about.
func TestOptionValidation(t *testing.T) {
	need(t, retrylint)
	dir := fixture(t, "budgetfuncs")
	vetted := map[string]bool{}
	for _, c := range []struct{ flag, value, want string }{
		{"retrybudget.budget-funcs", "!!!", `entry "!!!"`},
		{"retrybudget.budget-funcs", "garbage", `entry "garbage": want pkg/path.Func`},
		{"retrybudget.budget-funcs", ",,", `empty entry`},
		{"retrybudget.budget-funcs", "%%%", `entry "%%%"`},
		{"retrybudget.budget-funcs", "example.com/budgetfuncs/lim.(*Limiter.Permit", `entry "example.com/budgetfuncs/lim.(*Limiter.Permit"`},
		{"retrybudget.remote-pkgs", "example.com/rpc/...", `entry "example.com/rpc/..."`},
		{"retrybudget.remote-pkgs", "not a path", `entry "not a path"`},
		{"retryidempotency.headers", "Idempotency Key", `entry "Idempotency Key"`},
		{"retryidempotency.headers", "X-Key:", `entry "X-Key:"`},
	} {
		arg := "-" + c.flag + "=" + c.value
		r := run(t, dir, retrylint, arg, "./...")
		if r.code != 1 || r.stdout != "" || strings.Count(r.stderr, "\n") != 1 ||
			!strings.Contains(r.stderr, "-"+c.flag) || !strings.Contains(r.stderr, c.want) {
			t.Errorf("retrylint %s: got %+v, want exit 1 and one line naming %s", arg, r, c.want)
		}
		// Through go vet, once per flag: the unitchecker path validates
		// with the same code, and each go vet run costs seconds.
		if vetted[c.flag] {
			continue
		}
		vetted[c.flag] = true
		r = run(t, dir, "go", "vet", "-vettool="+retrylint, arg, "./...")
		lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
		if r.code != 1 || strings.Count(r.stderr, c.want) != 2 || len(lines) != 4 ||
			strings.Contains(r.stderr, "Usage") || strings.Contains(r.stderr, "exit status") {
			t.Errorf("go vet %s: got %+v, want exit 1 and, for each of the 2 packages, a header and one line naming %s", arg, r, c.want)
		}
	}

	// The loop asks lim.(*Limiter).Permit before each retry: a budget
	// check once named, in any of its spellings.
	const permit = "example.com/budgetfuncs/lim.(*Limiter).Permit"
	r := run(t, dir, retrylint, "-retrybudget", "./...")
	if r.code != 3 || !strings.Contains(r.stdout, "(retrybudget)") {
		t.Fatalf("no budget-funcs: got %+v, want a retrybudget finding", r)
	}
	for _, name := range []string{permit, "example.com/budgetfuncs/lim.Limiter.Permit", "example.com/budgetfuncs/lim.(Limiter).Permit"} {
		r := run(t, dir, retrylint, "-retrybudget", "-retrybudget.budget-funcs="+name, "./...")
		if r.code != 0 || r.stdout+r.stderr != "" {
			t.Errorf("-retrybudget.budget-funcs=%s: got %+v, want exit 0, no output", name, r)
		}
	}
	r = run(t, dir, "go", "vet", "-vettool="+retrylint, "-retrybudget", "-retrybudget.budget-funcs="+permit, "./...")
	if r.code != 0 || r.stdout+r.stderr != "" {
		t.Errorf("go vet -retrybudget.budget-funcs=%s: got %+v, want exit 0, no output", permit, r)
	}

	// Names that match nothing loaded are reported, and the run goes on.
	r = run(t, dir, retrylint, "-retrybudget",
		"-retrybudget.budget-funcs=example.com/budgetfuncs/lim.(*Limiter).Permits,example.com/budgetfuncs/lim.Permit,example.com/ratelimit.Allow",
		"-retrybudget.remote-pkgs=example.com/budgetfuncs/lim,example.com/rpc", "./...")
	for _, want := range []string{
		"warning: -retrybudget.budget-funcs: example.com/budgetfuncs/lim.(*Limiter).Permits: package example.com/budgetfuncs/lim has no such function or method",
		"warning: -retrybudget.budget-funcs: example.com/budgetfuncs/lim.Permit: package example.com/budgetfuncs/lim has no such function or method",
		"warning: -retrybudget.budget-funcs: example.com/ratelimit.Allow: package example.com/ratelimit is neither loaded nor imported",
		"warning: -retrybudget.remote-pkgs: example.com/rpc: no package example.com/rpc or below it is loaded",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if strings.Count(r.stderr, "warning:") != 4 || r.code != 3 || !strings.Contains(r.stdout, "(retrybudget)") {
		t.Errorf("unseen names: got %+v, want 4 warnings and the finding (exit 3)", r)
	}
}

// TestRealVetFacts checks that facts cross packages under go vet: the
// loop in package a calls b.Fetch, which is what reaches the network.
func TestRealVetFacts(t *testing.T) {
	need(t, retrylint)
	t.Parallel()
	dir := fixture(t, "vetfacts")
	r := run(t, dir, "go", "vet", "-vettool="+retrylint, "-json", "./...")
	tree := vetJSON(t, r.stdout+r.stderr)
	if len(tree["example.com/vetfacts/a"]["retrybudget"]) == 0 {
		t.Errorf("go vet -json: no retrybudget finding in package a; exit %d, output:\n%s%s", r.code, r.stdout, r.stderr)
	}
	// The standalone driver loads dependencies from source for facts.
	r = run(t, dir, retrylint, "./...")
	if r.code != 3 || !strings.Contains(r.stdout, "a/a.go:") || !strings.Contains(r.stdout, "(retrybudget)") {
		t.Errorf("standalone: got %+v, want a retrybudget finding in a/a.go", r)
	}
}

// TestRealFix applies the real analyzers' fixes: they use the budget
// module, which the fixture's go.mod does not require, so retrylint
// says how to add it. With the module added, a second -fix changes
// nothing.
func TestRealFix(t *testing.T) {
	need(t, retrylint)
	t.Parallel()
	dir := fixture(t, "antipattern")
	postGo := filepath.Join(dir, "post", "post.go")
	orig := readFile(t, postGo)

	r := run(t, dir, retrylint, "-fix", "./...")
	fixed := readFile(t, postGo)
	const note = "retrylint: fixes use github.com/retrylint/retrylint/budget; run: go get github.com/retrylint/retrylint/budget@latest\n"
	if r.code == 1 || fixed == orig || !strings.Contains(fixed, `"github.com/retrylint/retrylint/budget"`) || !strings.Contains(r.stderr, note) {
		t.Fatalf("-fix: got exit %d, stderr:\n%s\npost.go:\n%s", r.code, r.stderr, fixed)
	}

	budgetDir, _ := filepath.Abs(filepath.Join("..", "..", "budget"))
	gomod := filepath.Join(dir, "go.mod")
	data := readFile(t, gomod) + "\nrequire github.com/retrylint/retrylint/budget v0.0.0\n\nreplace github.com/retrylint/retrylint/budget => " + budgetDir + "\n"
	if err := os.WriteFile(gomod, []byte(data), 0o666); err != nil {
		t.Fatal(err)
	}
	r = run(t, dir, retrylint, "-fix", "./...")
	if r.code == 1 || readFile(t, postGo) != fixed || strings.Contains(r.stderr, "go get") {
		t.Errorf("second -fix: got %+v; post.go:\n%s", r, readFile(t, postGo))
	}
}

// validateSARIF validates out against the SARIF 2.1.0 JSON schema.
func validateSARIF(t *testing.T, out string) {
	t.Helper()
	f, err := os.Open(filepath.Join(testdata, "sarif", "sarif-2.1.0-rtm.5.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("sarif.json", doc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile("sarif.json")
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(out))
	if err != nil {
		t.Fatalf("SARIF output is not JSON: %v\n%s", err, out)
	}
	if err := schema.Validate(v); err != nil {
		t.Errorf("SARIF output does not validate: %v\n%s", err, out)
	}
	if !strings.Contains(out, `"fixes"`) || !strings.Contains(out, `"relatedLocations"`) {
		t.Errorf("SARIF output has no fixes or related locations:\n%s", out)
	}
}

// TestDirectiveTypos checks that directives which suppress nothing say
// so, through both doors: a misspelled analyzer name and the spaced form
// are reported, the findings they meant to silence stay, and a correct
// directive still works.
func TestDirectiveTypos(t *testing.T) {
	need(t, retrylint)
	dir := fixture(t, "directives")
	want := []string{
		`retry/retry.go:13:2: retrylint:ignore directive names "retrybudgte", which is no analyzer: it suppresses nothing; did you mean retrybudget?`,
		`retry/retry.go:14:2: retry loop has no retry budget`,
		`retry/retry.go:25:2: retrylint:ignore after a space is a comment, not a directive: it suppresses nothing; write //retrylint:ignore`,
		`retry/retry.go:26:2: retry loop has no retry budget`,
	}
	check := func(door, out string) {
		t.Helper()
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: no %q in:\n%s", door, w, out)
			}
		}
		if strings.Contains(out, "retry.go:38:") {
			t.Errorf("%s: the loop under a correct directive is reported:\n%s", door, out)
		}
	}
	r := run(t, dir, retrylint, "-retrybudget", "./...")
	if r.code != 3 {
		t.Errorf("retrylint: exit %d, want 3", r.code)
	}
	check("retrylint", r.stdout)
	r = run(t, dir, "go", "vet", "-vettool="+retrylint, "-retrybudget", "./...")
	if r.code != 1 {
		t.Errorf("go vet: exit %d, want 1", r.code)
	}
	check("go vet", r.stderr)

	// The spaced form's fix removes the space.
	r = run(t, dir, retrylint, "-retrybudget", "-fix", "-diff", "./...")
	if !strings.Contains(r.stdout, "-\t// retrylint:ignore retrybudget single-client batch job\n+\t//retrylint:ignore retrybudget single-client batch job\n") {
		t.Errorf("-fix -diff does not remove the space:\n%s", r.stdout)
	}
}

// TestRealVetNested checks that retry layers cross three packages under
// go vet: handler retries 3 times around client.Send (4 attempts) around
// transport.RoundTrip (3 attempts).
func TestRealVetNested(t *testing.T) {
	need(t, retrylint)
	t.Parallel()
	// The retrynested testdata's three packages, as a module: its
	// import paths ("layers/client") stay as they are.
	dir := filepath.Join(t.TempDir(), "layers")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "analyzers", "retrynested", "testdata", "src", "layers"))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module layers\n\ngo 1.22\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const want = "3 × 4 × 3 = up to 36 attempts per call"
	r := run(t, dir, "go", "vet", "-vettool="+retrylint, "-json", "./...")
	tree := vetJSON(t, r.stdout+r.stderr)
	found := false
	for _, d := range tree["layers/handler"]["retrynested"] {
		found = found || strings.Contains(d.Message, want)
	}
	if !found {
		t.Errorf("go vet -json: no retrynested finding %q in package handler; exit %d, output:\n%s%s", want, r.code, r.stdout, r.stderr)
	}
	r = run(t, dir, retrylint, "-retrynested", "./...")
	if r.code != 3 || !strings.Contains(r.stdout, "handler/handler.go:") || !strings.Contains(r.stdout, want) {
		t.Errorf("standalone: got %+v, want the three-layer finding in handler/handler.go", r)
	}
}

// TestTestsNotLoaded: test files are analysed only on request (the
// -NAME.tests flags), so by default a test file that does not build on
// its own (a mock made by go generate and not committed) costs nothing;
// asked for, it is a load error like any other.
func TestTestsNotLoaded(t *testing.T) {
	need(t, retrylint)
	t.Parallel()
	dir := fixture(t, "antipattern")
	if err := os.WriteFile(filepath.Join(dir, "post", "mock_test.go"),
		[]byte("package post\n\nvar _ = mocks.NewMockClient\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := run(t, dir, retrylint, "-json", "./...")
	if r.code != 3 || len(vetJSON(t, r.stdout)["example.com/antipattern/post"]["retrysleep"]) == 0 {
		t.Errorf("default: exit %d, want 3 and the retrysleep findings; stdout:\n%s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	r = run(t, dir, retrylint, "-retrysleep.tests", "./...")
	if r.code != 1 || !strings.Contains(r.stderr, "post/mock_test.go:3:9: undefined: mocks") {
		t.Errorf("-retrysleep.tests: got %+v, want exit 1 naming post/mock_test.go", r)
	}
}

// TestVetToolPanic: under go vet, an analyzer that panics fails its
// package with one line naming the analyzer and the package, and no
// goroutine dump.
func TestVetToolPanic(t *testing.T) {
	need(t, sleeplint)
	t.Parallel()
	dir := fixture(t, "sleepy")
	r := run(t, dir, "go", "vet", "-vettool="+sleeplint, "-sleeptest.panic", "./retry")
	out := r.stdout + r.stderr
	if r.code == 0 || !strings.Contains(out, "internal error: panic: sleeptest: boom") || !strings.Contains(out, "example.com/sleepy/retry") {
		t.Errorf("exit %d, want a failure naming the panic and the package:\n%s", r.code, out)
	}
	if strings.Contains(out, "goroutine ") {
		t.Errorf("go vet printed a goroutine dump:\n%s", out)
	}
}

// TestOtherModule: a generic retry helper of another module is a library
// the SPEC does not name (its budget, delay and jitter unknown), so its
// calls are no sites; the same helper of the analysed module is judged.
func TestOtherModule(t *testing.T) {
	need(t, retrylint)
	t.Parallel()
	dir := fixture(t, "othermodule")
	src, err := os.ReadFile(filepath.Join(dir, "app", "app.go"))
	if err != nil {
		t.Fatal(err)
	}
	lineOf := func(text string) string {
		i := strings.Index(string(src), text)
		if i < 0 {
			t.Fatalf("app.go lacks %q", text)
		}
		return fmt.Sprintf("app.go:%d:", strings.Count(string(src[:i]), "\n")+1)
	}
	ownLoop, ownCall, libCall := lineOf("for i := 0; i < attempts"), lineOf("return retry(3"), lineOf("return retrylib.Do(3")
	r := run(t, dir, retrylint, "-json", "./...")
	tree := vetJSON(t, r.stdout+r.stderr)
	var own, lib int
	for _, ds := range tree["example.com/othermodule/app"] {
		for _, d := range ds {
			switch {
			case strings.Contains(d.Posn, ownLoop), strings.Contains(d.Posn, ownCall):
				own++
			case strings.Contains(d.Posn, libCall):
				lib++
			}
		}
	}
	if own == 0 || lib != 0 {
		t.Errorf("findings at the own helper %d (want some), at the library's call %d (want none); output:\n%s%s", own, lib, r.stdout, r.stderr)
	}
}
