package plugin_test

// End-to-end tests against a real golangci-lint v2.15.0 binary with the
// plugin compiled in (built by .ci/golangci.sh from the nested module
// plugin/golangci). They lint a copy of testdata/golangci, a module full of
// retry anti-patterns, and assert on linter names and exit codes only, not
// on the wording of messages.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var analyzerNames = []string{"retrybudget", "retryjitter", "retrysleep", "retryidempotency", "retrydeadline", "retrynested"}

// golangci returns the path of the golangci-lint binary under test.
func golangci(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: skipping the golangci-lint end-to-end tests")
	}
	bin := os.Getenv("RETRYLINT_GOLANGCI_BIN")
	if bin == "" {
		const how = "RETRYLINT_GOLANGCI_BIN is not set; run .ci/golangci.sh test (it builds golangci-lint with the plugin, minutes cold, seconds warm), or RETRYLINT_GOLANGCI_BIN=$(.ci/golangci.sh) go test ./plugin"
		if os.Getenv("CI") != "" {
			t.Fatal(how)
		}
		t.Skip(how)
	}
	if !filepath.IsAbs(bin) {
		t.Fatalf("RETRYLINT_GOLANGCI_BIN=%s: want an absolute path", bin)
	}
	return bin
}

// fixture copies testdata/golangci to a temporary directory, points its
// replace directive at the repository's budget module, and returns the
// copy's path.
func fixture(t *testing.T) string {
	t.Helper()
	golangci(t) // skip before copying anything
	dir := filepath.Join(t.TempDir(), "fixture")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "testdata", "golangci"))); err != nil {
		t.Fatal(err)
	}
	budget, err := filepath.Abs(filepath.Join("..", "budget"))
	if err != nil {
		t.Fatal(err)
	}
	goCmd(t, dir, "mod", "edit", "-replace=github.com/retrylint/retrylint/budget="+budget)
	return dir
}

func goCmd(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOPROXY=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
	}
	return string(out)
}

type run struct {
	stdout, stderr string
	rc             int
}

func (r run) String() string {
	return fmt.Sprintf("exit code %d\n--- stdout:\n%s\n--- stderr:\n%s", r.rc, r.stdout, r.stderr)
}

// lint runs golangci-lint in dir with a fresh result cache.
func lint(t *testing.T, dir string, args ...string) run {
	t.Helper()
	cmd := exec.Command(golangci(t), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"GOLANGCI_LINT_CACHE="+t.TempDir(),
		"GOWORK=off",
		"GOPROXY=off", // nothing may be fetched while linting
		"NO_COLOR=1",
	)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := run{stdout: stdout.String(), stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		r.rc = exit.ExitCode()
	case err != nil:
		t.Fatalf("golangci-lint %s: %v", strings.Join(args, " "), err)
	}
	t.Logf("golangci-lint %s: exit code %d", strings.Join(args, " "), r.rc)
	return r
}

// issue is the part of golangci-lint's JSON output the tests look at.
type issue struct {
	FromLinter string
	Text       string
	Pos        struct {
		Filename string
		Line     int
	}
	SuggestedFixes []json.RawMessage
}

// lintJSON runs golangci-lint with JSON output and returns the issues.
func lintJSON(t *testing.T, dir string, args ...string) ([]issue, run) {
	t.Helper()
	args = append([]string{"run", "--output.json.path=stdout", "--show-stats=false"}, args...)
	r := lint(t, dir, args...)
	if r.rc != 0 && r.rc != 1 {
		t.Fatalf("golangci-lint failed:\n%s", r)
	}
	var out struct{ Issues []issue }
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("decoding JSON output: %v\n%s", err, r)
	}
	// Keep failure messages readable: the issues, not the whole report.
	var b strings.Builder
	for _, iss := range out.Issues {
		fmt.Fprintf(&b, "%s:%d: %s (%s)\n", filepath.Base(iss.Pos.Filename), iss.Pos.Line, iss.Text, iss.FromLinter)
	}
	fmt.Fprintf(&b, "%d issues", len(out.Issues))
	r.stdout = b.String()
	return out.Issues, r
}

// analyzerOf returns the analyzer that produced iss: golangci-lint names
// the linter ("retrysleep"), or, for the suite-wide "retrylint" linter,
// prefixes the text with the analyzer name.
func analyzerOf(iss issue) string {
	if iss.FromLinter == "retrylint" {
		name, _, _ := strings.Cut(iss.Text, ":")
		return strings.TrimSuffix(name, "(related information)")
	}
	return iss.FromLinter
}

// isRelated reports whether iss is not a finding but one of its related
// positions, which golangci-lint turns into issues of their own unless the
// plugin folds them into the finding's message (see TestGolangciRelated).
func isRelated(iss issue) bool {
	return strings.Contains(iss.Text, "(related information): ")
}

// countBy counts the findings that keep accepts (nil: all), by analyzer.
func countBy(issues []issue, keep func(issue) bool) map[string]int {
	n := map[string]int{}
	for _, iss := range issues {
		if !isRelated(iss) && (keep == nil || keep(iss)) {
			n[analyzerOf(iss)]++
		}
	}
	return n
}

// writeConfig writes a golangci-lint v2 config enabling the given custom
// linters with the given settings (YAML, indented for the settings key) and
// returns its file name.
func writeConfig(t *testing.T, dir, name string, linters map[string]string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("version: \"2\"\nlinters:\n  default: none\n  enable:\n")
	var names []string
	for n := range linters {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		b.WriteString("    - " + n + "\n")
	}
	b.WriteString("  settings:\n    custom:\n")
	for _, n := range names {
		b.WriteString("      " + n + ":\n        type: module\n")
		if s := linters[n]; s != "" {
			b.WriteString("        settings:\n")
			for line := range strings.Lines(s) {
				b.WriteString("          " + line)
			}
			b.WriteString("\n")
		}
	}
	b.WriteString("issues:\n  max-issues-per-linter: 0\n  max-same-issues: 0\n  uniq-by-line: false\n")
	if err := os.WriteFile(filepath.Join(dir, name), []byte(b.String()), 0o666); err != nil {
		t.Fatal(err)
	}
	return name
}

// funcLines returns the first and last line of function fn in file.
func funcLines(t *testing.T, file, fn string) (int, int) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == fn {
			return fset.Position(fd.Pos()).Line, fset.Position(fd.End()).Line
		}
	}
	t.Fatalf("no func %s in %s", fn, file)
	return 0, 0
}

func inFunc(t *testing.T, dir, file, fn string) func(issue) bool {
	first, last := funcLines(t, filepath.Join(dir, file), fn)
	return func(iss issue) bool {
		return filepath.Base(iss.Pos.Filename) == file && first <= iss.Pos.Line && iss.Pos.Line <= last
	}
}

// TestGolangciFindings runs the fixture's own .golangci.yml (one linter per
// analyzer) and the suite-wide "retrylint" linter: every analyzer reports,
// and findings make golangci-lint exit 1.
func TestGolangciFindings(t *testing.T) {
	dir := fixture(t)

	r := lint(t, dir, "run", "./...")
	if r.rc != 1 {
		t.Errorf("want exit code 1 (issues found), got:\n%s", r)
	}
	for _, a := range analyzerNames {
		if !strings.Contains(r.stdout, "("+a+")") {
			t.Errorf("no (%s) issue in the text output", a)
		}
	}

	r = lint(t, dir, "run", "-c", "golangci.retrylint.yml", "./...")
	if r.rc != 1 {
		t.Errorf("retrylint linter: want exit code 1, got:\n%s", r)
	}
	for _, a := range analyzerNames {
		if !regexp.MustCompile(`: ` + a + `: .*\(retrylint\)`).MatchString(r.stdout) {
			t.Errorf("retrylint linter: no %q issue attributed to (retrylint)", a+": …")
		}
	}
	if t.Failed() {
		t.Logf("last run:\n%s", r)
	}
}

// TestGolangciDisable checks that an analyzer left out, through either the
// retrylint settings or golangci-lint's own enable list, reports nothing
// while the others still do.
func TestGolangciDisable(t *testing.T) {
	dir := fixture(t)
	cfg := writeConfig(t, dir, "disable.yml", map[string]string{"retrylint": "disable: [retrysleep]"})
	issues, r := lintJSON(t, dir, "-c", cfg, "./...")
	n := countBy(issues, nil)
	if n["retrysleep"] != 0 {
		t.Errorf("retrylint disable: [retrysleep]: %d retrysleep issues remain", n["retrysleep"])
	}
	for _, a := range analyzerNames {
		if a != "retrysleep" && n[a] == 0 {
			t.Errorf("retrylint disable: [retrysleep]: no %s issues left; got %v\n%s", a, n, r)
		}
	}

	cfg = writeConfig(t, dir, "enable.yml", map[string]string{"retryjitter": "", "retrybudget": ""})
	issues, r = lintJSON(t, dir, "-c", cfg, "./...")
	n = countBy(issues, nil)
	if len(n) != 2 || n["retryjitter"] == 0 || n["retrybudget"] == 0 {
		t.Errorf("only retryjitter and retrybudget enabled: got issues from %v\n%s", n, r)
	}
}

// TestGolangciSettings checks that analyzer settings reach the analyzers,
// in both the retrylint block and the per-analyzer plugins.
func TestGolangciSettings(t *testing.T) {
	dir := fixture(t)
	charge := inFunc(t, dir, "submit.go", "Charge")
	submit := inFunc(t, dir, "submit.go", "Submit")
	isTest := func(iss issue) bool { return strings.HasSuffix(iss.Pos.Filename, "_test.go") }

	before, _ := lintJSON(t, dir, "./...")
	if n := countBy(before, charge)["retryidempotency"]; n == 0 {
		t.Errorf("default settings: no retryidempotency issue in Charge, which sends X-Request-Token only")
	}
	if n := countBy(before, isTest)["retrysleep"]; n != 0 {
		t.Errorf("default settings: %d retrysleep issues in fetch_test.go; test files are off by default", n)
	}

	for _, c := range []struct {
		name    string
		linters map[string]string
	}{
		{"per-analyzer", map[string]string{
			"retryidempotency": "headers: [X-Request-Token]",
			"retrysleep":       "tests: true",
		}},
		{"retrylint", map[string]string{
			"retrylint": "enable: [retryidempotency, retrysleep]\nretryidempotency:\n  headers: [X-Request-Token]\nretrysleep:\n  tests: true",
		}},
	} {
		cfg := writeConfig(t, dir, c.name+".yml", c.linters)
		after, r := lintJSON(t, dir, "-c", cfg, "./...")
		if n := countBy(after, charge)["retryidempotency"]; n != 0 {
			t.Errorf("%s: headers: [X-Request-Token]: %d retryidempotency issues remain in Charge\n%s", c.name, n, r)
		}
		if countBy(before, submit)["retryidempotency"] > 0 && countBy(after, submit)["retryidempotency"] == 0 {
			t.Errorf("%s: the header setting also silenced Submit, which sends no key", c.name)
		}
		if n := countBy(after, isTest)["retrysleep"]; n == 0 {
			t.Errorf("%s: retrysleep tests: true: no retrysleep issue in fetch_test.go", c.name)
		}
		if countBy(after, nil)["retrysleep"] == 0 {
			t.Errorf("%s: retrysleep tests: true lost the non-test files", c.name)
		}
	}
}

// TestGolangciConfigErrors checks that a bad setting stops golangci-lint
// with exit code 3 and a message naming the culprit.
func TestGolangciConfigErrors(t *testing.T) {
	dir := fixture(t)
	for _, c := range []struct {
		name    string
		linters map[string]string
		want    string
	}{
		{"unknown-key", map[string]string{"retrylint": "bogus: 1"}, `"bogus"`},
		{"unknown-nested-key", map[string]string{"retrylint": "retrybudget:\n  budget-func: [example.com/rl.Allow]"}, `"budget-func"`},
		{"unknown-analyzer", map[string]string{"retrylint": "disable: [retrysleeep]"}, `"retrysleeep"`},
		{"unknown-single-key", map[string]string{"retryjitter": "headers: [X-A]"}, `"headers"`},
		{"configured-twice", map[string]string{"retrylint": "", "retrysleep": ""}, "retrysleep"},
		{"malformed-budget-func", map[string]string{"retrybudget": "budget-funcs: [example.com/rl.Allow, garbage]"}, `entry "garbage"`},
		{"malformed-nested-budget-func", map[string]string{"retrylint": "retrybudget:\n  budget-funcs: ['!!!']"}, `entry "!!!"`},
		{"malformed-remote-pkg", map[string]string{"retrybudget": "remote-pkgs: [example.com/rpc/...]"}, `entry "example.com/rpc/..."`},
		{"malformed-header", map[string]string{"retryidempotency": "headers: [Idempotency Key]"}, `entry "Idempotency Key"`},
	} {
		cfg := writeConfig(t, dir, c.name+".yml", c.linters)
		r := lint(t, dir, "run", "-c", cfg, "./...")
		if r.rc != 3 {
			t.Errorf("%s: want exit code 3, got:\n%s", c.name, r)
			continue
		}
		if !strings.Contains(r.stderr+r.stdout, c.want) {
			t.Errorf("%s: the error does not mention %s:\n%s", c.name, c.want, r)
		}
	}
}

// TestGolangciNolint checks that //nolint:retrysleep silences retrysleep
// and nothing else.
func TestGolangciNolint(t *testing.T) {
	dir := fixture(t)
	before, _ := lintJSON(t, dir, "./...")
	nb := countBy(before, nil)
	if nb["retrysleep"] == 0 {
		t.Fatalf("no retrysleep issues to silence; got %v", nb)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// A //nolint comment on the line before a declaration covers the
		// whole declaration.
		data = regexp.MustCompile(`(?m)^func `).ReplaceAll(data, []byte("//nolint:retrysleep // e2e: waits are fine here\nfunc "))
		if err := os.WriteFile(f, data, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	after, r := lintJSON(t, dir, "./...")
	na := countBy(after, nil)
	if na["retrysleep"] != 0 {
		t.Errorf("//nolint:retrysleep: %d retrysleep issues remain\n%s", na["retrysleep"], r)
	}
	for _, a := range analyzerNames {
		if a != "retrysleep" && na[a] != nb[a] {
			t.Errorf("//nolint:retrysleep changed the %s issues: %d before, %d after", a, nb[a], na[a])
		}
	}
	if strings.Contains(r.stderr, "unknown linters") {
		t.Errorf("golangci-lint does not know the linter in //nolint:retrysleep:\n%s", r.stderr)
	}
}

// TestGolangciFix checks that --fix applies the suggested fixes and leaves
// a module that still builds.
func TestGolangciFix(t *testing.T) {
	dir := fixture(t)
	before, _ := lintJSON(t, dir, "./...")
	fixable := 0
	for _, iss := range before {
		if len(iss.SuggestedFixes) > 0 {
			fixable++
		}
	}
	if fixable == 0 {
		t.Fatalf("no issue carries a suggested fix; got %v", countBy(before, nil))
	}
	orig := readGo(t, dir)

	r := lint(t, dir, "run", "--fix", "./...")
	if r.rc != 0 && r.rc != 1 {
		t.Fatalf("golangci-lint run --fix:\n%s", r)
	}
	fixed := readGo(t, dir)
	changed := 0
	for name, src := range fixed {
		if src != orig[name] {
			changed++
		}
	}
	if changed == 0 {
		t.Errorf("--fix changed no file; %d issues had fixes", fixable)
	}
	goCmd(t, dir, "build", "./...")
	goCmd(t, dir, "vet", "./...")

	after, _ := lintJSON(t, dir, "./...")
	if len(after) >= len(before) {
		t.Errorf("--fix: %d issues before, %d after", len(before), len(after))
	}
	if t.Failed() {
		for name, src := range fixed {
			if src != orig[name] {
				t.Logf("%s after --fix:\n%s", name, src)
			}
		}
	}
}

func readGo(t *testing.T, dir string) map[string]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m[filepath.Base(f)] = string(data)
	}
	return m
}

// example copies the example module examples/ledgerclient, points its
// replace directive at the repository's budget module, writes a config
// enabling the five per-analyzer linters and returns the copy's path.
func example(t *testing.T) string {
	t.Helper()
	golangci(t)
	dir := filepath.Join(t.TempDir(), "ledgerclient")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "examples", "ledgerclient"))); err != nil {
		t.Fatal(err)
	}
	budget, err := filepath.Abs(filepath.Join("..", "budget"))
	if err != nil {
		t.Fatal(err)
	}
	goCmd(t, dir, "mod", "edit", "-replace=github.com/retrylint/retrylint/budget="+budget)
	linters := map[string]string{}
	for _, a := range analyzerNames {
		linters[a] = ""
	}
	writeConfig(t, dir, ".golangci.yml", linters)
	return dir
}

// TestGolangciRelated checks that a finding's related positions (the
// retry loop, the remote call) travel with it instead of becoming issues
// of their own, which golangci-lint would leave behind when the finding is
// silenced by //nolint or fixed by --fix.
func TestGolangciRelated(t *testing.T) {
	dir := example(t)
	issues, r := lintJSON(t, dir, "./...")
	if r.rc != 1 || len(issues) == 0 {
		t.Fatalf("want findings and exit code 1, got:\n%s", r)
	}
	for _, iss := range issues {
		if isRelated(iss) {
			t.Errorf("a related position became an issue: %s:%d: %s", filepath.Base(iss.Pos.Filename), iss.Pos.Line, iss.Text)
		}
	}
	// The loop the fixed wait belongs to is named in the finding itself.
	var sleep *issue
	for i, iss := range issues {
		if iss.FromLinter == "retrysleep" && filepath.Base(iss.Pos.Filename) == "balance.go" {
			sleep = &issues[i]
		}
	}
	if sleep == nil {
		t.Fatalf("no retrysleep issue in balance.go\n%s", r)
	}
	loop, _ := funcLines(t, filepath.Join(dir, "internal", "ledger", "balance.go"), "Balance")
	if !regexp.MustCompile(`\(line \d+: retry loop\)$`).MatchString(sleep.Text) || sleep.Pos.Line <= loop {
		t.Errorf("retrysleep issue at line %d does not name its loop: %q", sleep.Pos.Line, sleep.Text)
	}

	// //nolint on the finding's line silences the finding and all of it.
	balance := filepath.Join(dir, "internal", "ledger", "balance.go")
	data, err := os.ReadFile(balance)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	lines[sleep.Pos.Line-1] += " //nolint:retrysleep // e2e: a fixed wait is fine here"
	if err := os.WriteFile(balance, []byte(strings.Join(lines, "\n")), 0o666); err != nil {
		t.Fatal(err)
	}
	r = lint(t, dir, "run", "--enable-only", "retrysleep", "./internal/ledger/")
	if r.rc != 0 || !strings.Contains(r.stdout, "0 issues") {
		t.Errorf("//nolint:retrysleep on the only retrysleep finding: want 0 issues and exit code 0, got:\n%s", r)
	}

	// --fix removes every fixed finding, related positions included.
	fixable := 0
	for _, iss := range issues {
		if len(iss.SuggestedFixes) > 0 {
			fixable++
		}
	}
	if fixable != len(issues) {
		t.Logf("%d of %d issues carry a fix", fixable, len(issues))
	}
	r = lint(t, dir, "run", "--fix", "./...")
	if r.rc != 0 && r.rc != 1 {
		t.Fatalf("golangci-lint run --fix:\n%s", r)
	}
	goCmd(t, dir, "build", "./...")
	after, r := lintJSON(t, dir, "./...")
	if len(after) != len(issues)-fixable {
		t.Errorf("--fix: %d issues before, %d with a fix, %d after (want %d)\n%s", len(issues), fixable, len(after), len(issues)-fixable, r)
	}
	if len(after) == 0 && r.rc != 0 {
		t.Errorf("--fix left no issue but golangci-lint exits %d", r.rc)
	}
	for _, iss := range after {
		if isRelated(iss) {
			t.Errorf("after --fix, an orphaned related position: %s:%d: %s", filepath.Base(iss.Pos.Filename), iss.Pos.Line, iss.Text)
		}
	}
}

// TestGolangciOutputFormats checks that the JSON and SARIF outputs carry
// the analyzers' issues.
func TestGolangciOutputFormats(t *testing.T) {
	dir := fixture(t)
	sarifPath := filepath.Join(t.TempDir(), "retrylint.sarif")
	issues, r := lintJSON(t, dir, "--output.sarif.path="+sarifPath, "./...")
	if r.rc != 1 {
		t.Errorf("want exit code 1, got:\n%s", r)
	}
	n := countBy(issues, nil)
	for _, a := range analyzerNames {
		if n[a] == 0 {
			t.Errorf("JSON: no %s issue; got %v", a, n)
		}
	}

	data, err := os.ReadFile(sarifPath)
	if err != nil {
		t.Fatal(err)
	}
	var sarif struct {
		Runs []struct {
			Results []struct {
				RuleID  string `json:"ruleId"`
				Message struct{ Text string }
			}
		}
	}
	if err := json.Unmarshal(data, &sarif); err != nil {
		t.Fatalf("decoding SARIF: %v\n%s", err, data)
	}
	rules := map[string]int{}
	results := 0
	for _, run := range sarif.Runs {
		for _, res := range run.Results {
			rules[res.RuleID]++
			results++
		}
	}
	for _, a := range analyzerNames {
		if rules[a] == 0 {
			t.Errorf("SARIF: no result with ruleId %s; got %v", a, rules)
		}
	}
	if len(issues) != results {
		t.Errorf("JSON has %d issues, SARIF %d results", len(issues), results)
	}
}

// TestGolangciExampleConfig checks that .golangci.example.yml, the config
// users copy, is valid and runs the analyzers.
func TestGolangciExampleConfig(t *testing.T) {
	dir := fixture(t)
	example, err := filepath.Abs(filepath.Join("..", ".golangci.example.yml"))
	if err != nil {
		t.Fatal(err)
	}
	if r := lint(t, dir, "config", "verify", "-c", example); r.rc != 0 {
		t.Errorf("config verify:\n%s", r)
	}
	issues, r := lintJSON(t, dir, "-c", example, "./...")
	if r.rc != 1 {
		t.Errorf("want exit code 1, got:\n%s", r)
	}
	n := countBy(issues, nil)
	for _, a := range analyzerNames {
		if n[a] == 0 {
			t.Errorf("no %s issue; got %v", a, n)
		}
	}
}
