package driver

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/internal/driver/sleeptest"
)

// These tests run the driver in process with the sleeptest analyzer,
// which reports every time.Sleep call, on copies of the fixture
// modules in testdata/cli.

var testAnalyzers = []*analysis.Analyzer{sleeptest.Analyzer}

// testdata is absolute: tests change the working directory.
var testdata, _ = filepath.Abs(filepath.Join("..", "..", "testdata", "cli"))

// fixture copies the fixture module testdata/cli/name into a
// temporary directory and returns the copy's path.
func fixture(t *testing.T, name string) string {
	t.Helper()
	src := filepath.Join(testdata, name)
	dst := filepath.Join(t.TempDir(), name)
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return dst
}

type result struct {
	code           int
	stdout, stderr string
}

// runDriver runs the driver in dir with args.
func runDriver(t *testing.T, dir string, args ...string) result {
	t.Helper()
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	code := Run(args, testAnalyzers, &stdout, &stderr)
	return result{code, stdout.String(), stderr.String()}
}

// setFlag sets an option of the sleeptest analyzer for one test.
func setFlag(t *testing.T, name, value string) {
	t.Helper()
	f := sleeptest.Analyzer.Flags.Lookup(name)
	old := f.Value.String()
	if err := f.Value.Set(value); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Value.Set(old) })
}

func TestText(t *testing.T) {
	dir := fixture(t, "sleepy")
	r := runDriver(t, dir, "./...")
	want := `gen/gen.go:9:15: call to time.Sleep (sleeptest)
retry/retry.go:18:3: call to time.Sleep (sleeptest)
	retry/retry.go:12:2: enclosing loop
retry/retry.go:28:16: call to time.Sleep (sleeptest)
retry/retry_test.go:9:2: call to time.Sleep (sleeptest)
`
	if r.code != ExitFindings || r.stdout != want || r.stderr != "" {
		t.Errorf("got exit %d, stdout:\n%s\nstderr:\n%s\nwant exit 3, stdout:\n%s", r.code, r.stdout, r.stderr, want)
	}

	// -test=false leaves out test files; -c shows context.
	r = runDriver(t, dir, "-test=false", "-c", "1", "./retry")
	want = "retry/retry.go:18:3: call to time.Sleep (sleeptest)\n" +
		"17\t\t\t}\n" +
		"18\t\t\ttime.Sleep(time.Second)\n" +
		"19\t\t}\n" +
		"\tretry/retry.go:12:2: enclosing loop\n" +
		"retry/retry.go:28:16: call to time.Sleep (sleeptest)\n" +
		"27\tfunc (c *Client) Ping() {\n" +
		"28\t\tf := func() { time.Sleep(0) }\n" +
		"29\t\tf()\n"
	if r.code != ExitFindings || r.stdout != want {
		t.Errorf("-test=false -c 1: got exit %d, stdout:\n%s\nwant:\n%s", r.code, r.stdout, want)
	}

	r = runDriver(t, fixture(t, "clean"), "./...")
	if r.code != ExitClean || r.stdout != "" || r.stderr != "" {
		t.Errorf("clean: got %+v, want exit 0 and no output", r)
	}
}

func TestJSON(t *testing.T) {
	dir := fixture(t, "sleepy")
	for _, args := range [][]string{{"-json"}, {"-format", "json"}} {
		r := runDriver(t, dir, append(args, "./retry")...)
		if r.code != ExitFindings {
			t.Fatalf("%v: exit %d, want 3; stderr: %s", args, r.code, r.stderr)
		}
		var tree map[string]map[string][]struct {
			Posn, End, Message, Category string
			Related                      []struct{ Posn, End, Message string }
			SuggestedFixes               []struct {
				Message string
				Edits   []struct {
					Filename   string
					Start, End int
					New        string
				}
			} `json:"suggested_fixes"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &tree); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, r.stdout)
		}
		diags := tree["example.com/sleepy/retry"]["sleeptest"]
		// retry.go twice, and retry_test.go under the test variant.
		if len(diags) != 2 || len(tree) != 2 {
			t.Fatalf("%v: got %d packages, %d diagnostics in retry, want 2 and 2:\n%s", args, len(tree), len(diags), r.stdout)
		}
		d := diags[0]
		wantPosn := filepath.Join(dir, "retry", "retry.go") + ":18:3"
		if d.Posn != wantPosn || d.Message != "call to time.Sleep" || d.Category != "sleep" ||
			len(d.Related) != 1 || d.Related[0].Message != "enclosing loop" ||
			len(d.SuggestedFixes) != 2 || d.SuggestedFixes[0].Edits[0].New != "<-time.After(time.Second)" {
			t.Errorf("%v: got %+v", args, d)
		}
	}

	r := runDriver(t, fixture(t, "clean"), "-json", "./...")
	if r.code != ExitClean || strings.TrimSpace(r.stdout) != "{}" {
		t.Errorf("clean -json: got %+v, want exit 0 and {}", r)
	}
}

// TestBadInput checks that each kind of bad input fails with exit
// code 1 and one clear line on stderr.
func TestBadInput(t *testing.T) {
	syntaxErr := t.TempDir()
	writeFile(t, filepath.Join(syntaxErr, "go.mod"), "module example.com/syntaxerr\n\ngo 1.26\n")
	writeFile(t, filepath.Join(syntaxErr, "p", "p.go"), "package p\n\nfunc F() {\n\tx :=\n}\n")
	typeErr := fixture(t, "typeerr")
	writeFile(t, filepath.Join(typeErr, "empty.json"), `{"version": 1, "findings": []}`)
	emptyFile := t.TempDir()
	writeFile(t, filepath.Join(emptyFile, "go.mod"), "module example.com/emptyfile\n\ngo 1.26\n")
	writeFile(t, filepath.Join(emptyFile, "p", "p.go"), "")
	clean := fixture(t, "clean")
	writeFile(t, filepath.Join(clean, "bad.json"), `{"version": 1, "findings": [`)
	writeFile(t, filepath.Join(clean, "nohash.json"), `{"version": 1, "findings": [{"analyzer": "sleeptest"}]}`)
	writeFile(t, filepath.Join(clean, "v2.json"), `{"version": 2, "findings": []}`)

	for _, test := range []struct {
		name string
		dir  string
		args []string
		want string // in the stderr line
	}{
		{"syntax error", syntaxErr, []string{"./..."}, "p/p.go:5:1: expected operand"},
		{"empty file", emptyFile, []string{"./..."}, "p/p.go:1:1: expected 'package', found 'EOF'"},
		{"type error", typeErr, []string{"./..."}, `p/p.go:4:23: cannot use "one"`},
		{"type error, json", typeErr, []string{"-json", "./..."}, `p/p.go:4:23: cannot use "one"`},
		{"type error, sarif", typeErr, []string{"-format", "sarif", "./..."}, `p/p.go:4:23: cannot use "one"`},
		{"type error, baseline", typeErr, []string{"-baseline", "empty.json", "./..."}, `p/p.go:4:23: cannot use "one"`},
		{"type error, baseline-write", typeErr, []string{"-baseline", "new.json", "-baseline-write", "./..."}, `p/p.go:4:23: cannot use "one"`},
		{"type error, fix", typeErr, []string{"-fix", "./..."}, `p/p.go:4:23: cannot use "one"`},
		{"missing import", fixture(t, "badimport"), []string{"./..."}, "no required module provides package example.com/badimport/nosuch"},
		{"no such dir", clean, []string{"./nothing/..."}, "./nothing"},
		{"matches nothing", clean, []string{"./calc/nothing..."}, "matched no packages"},
		{"unknown flag", clean, []string{"-nosuch", "./..."}, "flag provided but not defined: -nosuch"},
		{"bad analyzer option", clean, []string{"-sleeptest.dup=maybe", "./..."}, "-sleeptest.dup"},
		{"no packages", clean, nil, "no packages given"},
		{"bad format", clean, []string{"-format", "xml", "./..."}, `unknown -format "xml"`},
		{"diff without fix", clean, []string{"-diff", "./..."}, "-diff requires -fix"},
		{"baseline-write without file", clean, []string{"-baseline-write", "./..."}, "-baseline-write requires -baseline"},
		{"missing baseline", clean, []string{"-baseline", "nosuch.json", "./..."}, "reading baseline: open nosuch.json"},
		{"truncated baseline", clean, []string{"-baseline", "bad.json", "./..."}, "malformed baseline bad.json: unexpected EOF"},
		{"baseline without fingerprint", clean, []string{"-baseline", "nohash.json", "./..."}, "finding 0 has no fingerprint"},
		{"baseline version", clean, []string{"-baseline", "v2.json", "./..."}, "version 2, want 1"},
		{"all disabled", clean, []string{"-sleeptest=false", "./..."}, "all analyzers are disabled"},
	} {
		t.Run(test.name, func(t *testing.T) {
			r := runDriver(t, test.dir, test.args...)
			lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
			if r.code != ExitError || len(lines) != 1 || !strings.HasPrefix(lines[0], "retrylint: ") ||
				!strings.Contains(lines[0], test.want) || r.stdout != "" {
				t.Errorf("got exit %d, stdout %q, stderr:\n%s\nwant exit 1 and one line containing %q", r.code, r.stdout, r.stderr, test.want)
			}
		})
	}
}

func TestAnalyzerFailure(t *testing.T) {
	setFlag(t, "panic", "true")
	r := runDriver(t, fixture(t, "sleepy"), "./retry")
	want := "retrylint: analyzer sleeptest failed on example.com/sleepy/retry: internal error: panic: sleeptest: boom\n"
	if r.code != ExitError || r.stderr != want {
		t.Errorf("got exit %d, stderr:\n%s\nwant exit 1, stderr:\n%s", r.code, r.stderr, want)
	}
}

func TestSelectAnalyzers(t *testing.T) {
	dir := fixture(t, "sleepy")
	if r := runDriver(t, dir, "-sleeptest", "./gen"); r.code != ExitFindings {
		t.Errorf("-sleeptest: exit %d, want 3", r.code)
	}
	// An option reaches the analyzer through its own FlagSet.
	r := runDriver(t, dir, "-sleeptest.dup", "./gen")
	if r.code != ExitFindings || !strings.Contains(r.stdout, "call to time.Sleep again") {
		t.Errorf("-sleeptest.dup: got %+v", r)
	}
	sleeptest.Analyzer.Flags.Set("dup", "false")
}

func TestTags(t *testing.T) {
	dir := fixture(t, "clean")
	writeFile(t, filepath.Join(dir, "calc", "slow.go"), "//go:build slow\n\npackage calc\n\nimport \"time\"\n\nfunc init() { time.Sleep(1) }\n")
	if r := runDriver(t, dir, "./..."); r.code != ExitClean {
		t.Errorf("without -tags: got %+v, want exit 0", r)
	}
	if r := runDriver(t, dir, "-tags", "slow", "./..."); r.code != ExitFindings || r.stdout != "calc/slow.go:7:15: call to time.Sleep (sleeptest)\n" {
		t.Errorf("-tags slow: got %+v, want the finding in slow.go", r)
	}
}

func TestHelp(t *testing.T) {
	r := runDriver(t, t.TempDir(), "help")
	if r.code != ExitClean || !strings.Contains(r.stderr, "-sleeptest.dup") ||
		!strings.Contains(r.stderr, "sleeptest          report calls to time.Sleep (a driver test analyzer)\n") {
		t.Errorf("help: got %+v", r)
	}
	r = runDriver(t, t.TempDir(), "help", "sleeptest")
	if r.code != ExitClean || !strings.Contains(r.stderr, "Each call is reported") || !strings.Contains(r.stderr, "-sleeptest.zero") {
		t.Errorf("help sleeptest: got %+v", r)
	}
	if r := runDriver(t, t.TempDir(), "-h"); r.code != ExitClean || !strings.Contains(r.stderr, "-baseline file") {
		t.Errorf("-h: got %+v", r)
	}
}

func TestVersion(t *testing.T) {
	r := runDriver(t, t.TempDir(), "-V")
	if r.code != ExitClean || !strings.HasPrefix(r.stdout, "retrylint version ") {
		t.Errorf("got %+v", r)
	}
}

func TestFix(t *testing.T) {
	dir := fixture(t, "sleepy")
	retryGo := filepath.Join(dir, "retry", "retry.go")
	genGo := filepath.Join(dir, "gen", "gen.go")
	gen := readFile(t, genGo)

	// -diff prints, writes nothing, and fails while changes are pending.
	before := readFile(t, retryGo)
	r := runDriver(t, dir, "-fix", "-diff", "./retry")
	if r.code != ExitFindings || !strings.Contains(r.stdout, "--- a/retry/retry.go\n+++ b/retry/retry.go\n") ||
		!strings.Contains(r.stdout, "-\t\ttime.Sleep(time.Second)\n+\t\t<-time.After(time.Second)\n") {
		t.Errorf("-fix -diff: got exit %d, stdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if readFile(t, retryGo) != before {
		t.Errorf("-fix -diff changed retry.go")
	}
	diff := r.stdout

	r = runDriver(t, dir, "-fix", "./retry")
	if r.code != ExitClean || r.stdout != "" || r.stderr != "" {
		t.Errorf("-fix: got %+v, want exit 0 and no output", r)
	}
	fixed := readFile(t, retryGo)
	if !strings.Contains(fixed, "\t\t<-time.After(time.Second)\n") || !strings.Contains(fixed, "f := func() { <-time.After(0) }") ||
		!strings.Contains(readFile(t, filepath.Join(dir, "retry", "retry_test.go")), "<-time.After(time.Millisecond)") {
		t.Errorf("-fix: unexpected result:\n%s", fixed)
	}

	// The diff, applied to the original, gives what -fix wrote.
	if git, err := exec.LookPath("git"); err == nil {
		orig := fixture(t, "sleepy")
		writeFile(t, filepath.Join(orig, "fix.patch"), diff)
		cmd := exec.Command(git, "apply", "fix.patch")
		cmd.Dir = orig
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("git apply: %v\n%s", err, out)
		} else if got := readFile(t, filepath.Join(orig, "retry", "retry.go")); got != fixed {
			t.Errorf("the diff does not give the fixed file:\n%s", got)
		}
	}

	// Idempotent: nothing left to fix or report.
	r = runDriver(t, dir, "-fix", "./retry")
	if r.code != ExitClean || readFile(t, retryGo) != fixed {
		t.Errorf("second -fix: got %+v or a changed file", r)
	}

	// Generated files are reported but never edited.
	r = runDriver(t, dir, "-fix", "./...")
	if r.code != ExitFindings || r.stdout != "gen/gen.go:9:15: call to time.Sleep (sleeptest)\n" ||
		!strings.Contains(r.stderr, "it edits generated file gen/gen.go") || readFile(t, genGo) != gen {
		t.Errorf("generated: got %+v", r)
	}
}

// TestFixUnfixable checks that fixes never edit a cgo file (its offsets
// are those of the file cgo writes) or a generated one, and that findings
// left there without fixes are named in one line.
func TestFixUnfixable(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("the cgo fixture needs a C compiler (gcc) on CI")
		}
		t.Skip("no C compiler for the cgo fixture")
	}
	dir := fixture(t, "cgo")
	cGo, genGo := filepath.Join(dir, "c.go"), filepath.Join(dir, "gen.go")
	c, gen := readFile(t, cGo), readFile(t, genGo)

	// An analyzer that offers fixes everywhere: the driver refuses both.
	r := runDriver(t, dir, "-fix", "./...")
	if r.code != ExitFindings || !strings.Contains(r.stderr, `c.go:12:2: skipped fix "Wait on time.After" (sleeptest): it edits cgo file c.go`) ||
		!strings.Contains(r.stderr, "it edits generated file gen.go") || readFile(t, cGo) != c || readFile(t, genGo) != gen {
		t.Errorf("fixes offered in cgo and generated files: got %+v", r)
	}

	// One that offers none there, as the real analyzers: one line says so.
	setFlag(t, "editable", "true")
	r = runDriver(t, dir, "-fix", "./...")
	const note = "retrylint: 2 findings are in generated or cgo files, left without fixes: fixes never edit those files (c.go, gen.go)\n"
	if r.code != ExitFindings || r.stderr != note || strings.Count(r.stdout, "call to time.Sleep") != 2 {
		t.Errorf("no fixes offered: got exit %d, stdout:\n%s\nstderr:\n%s\nwant stderr:\n%s", r.code, r.stdout, r.stderr, note)
	}
	// Without -fix nothing is said: the findings are all there is.
	if r = runDriver(t, dir, "./..."); r.stderr != "" {
		t.Errorf("without -fix: stderr %q", r.stderr)
	}
}

func TestFixDedupeAndConflict(t *testing.T) {
	setFlag(t, "dup", "true")  // a second diagnostic with the same fix
	setFlag(t, "zero", "true") // a conflicting fix on time.Sleep(0)
	dir := fixture(t, "sleepy")
	r := runDriver(t, dir, "-fix", "-test=false", "./retry")
	if r.code != ExitFindings || r.stdout != "retry/retry.go:28:16: zero sleep (sleeptest)\n" ||
		r.stderr != "retrylint: retry/retry.go:28:16: skipped fix \"Yield instead\" (sleeptest): it conflicts with another fix\n" {
		t.Errorf("got exit %d, stdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	got := readFile(t, filepath.Join(dir, "retry", "retry.go"))
	if strings.Count(got, "<-time.After(") != 2 || strings.Contains(got, "time.Sleep") {
		t.Errorf("identical edits not applied exactly once:\n%s", got)
	}
}

// TestFixBreaksSyntax checks that fixes that produce invalid Go fail
// with exit 1 and leave every file as it was.
func TestFixBreaksSyntax(t *testing.T) {
	setFlag(t, "broken", "true")
	dir := fixture(t, "sleepy")
	retryGo := filepath.Join(dir, "retry", "retry.go")
	before := readFile(t, retryGo)
	r := runDriver(t, dir, "-fix", "./retry")
	if r.code != ExitError || !strings.HasPrefix(r.stderr, "retrylint: fixes to retry/retry.go produce invalid Go, no file changed: ") ||
		strings.Count(r.stderr, "\n") != 1 || readFile(t, retryGo) != before {
		t.Errorf("got %+v", r)
	}
}

func TestFixBudgetNote(t *testing.T) {
	setFlag(t, "budget", "true")
	const note = "retrylint: fixes use github.com/retrylint/retrylint/budget; run: go get github.com/retrylint/retrylint/budget@latest\n"

	dir := fixture(t, "sleepy")
	r := runDriver(t, dir, "-fix", "./retry")
	if r.code != ExitClean || r.stderr != note {
		t.Errorf("got exit %d, stderr:\n%s\nwant exit 0, stderr:\n%s", r.code, r.stderr, note)
	}
	// Both fixes insert the same import: it is added once, and gofmt'ed.
	got := readFile(t, filepath.Join(dir, "retry", "retry.go"))
	if strings.Count(got, `"github.com/retrylint/retrylint/budget"`) != 1 || !strings.Contains(got, "\t\tbudget.Sleep(time.Second)\n") {
		t.Errorf("fixed file:\n%s", got)
	}

	// From outside the module (through a go.work), name its directory.
	dir = fixture(t, "sleepy")
	work := filepath.Dir(dir)
	writeFile(t, filepath.Join(work, "go.work"), "go 1.26\n\nuse ./sleepy\n")
	r = runDriver(t, work, "-fix", "./sleepy/retry")
	want := strings.Replace(note, "run: go get", "run: go -C sleepy get", 1)
	if r.code != ExitClean || r.stderr != want {
		t.Errorf("go.work: got exit %d, stderr:\n%s\nwant:\n%s", r.code, r.stderr, want)
	}

	// A module that requires the budget module gets no note.
	dir = fixture(t, "sleepy")
	writeFile(t, filepath.Join(dir, "go.mod"), "module example.com/sleepy\n\ngo 1.26\n\nrequire github.com/retrylint/retrylint/budget v0.1.0\n")
	if r := runDriver(t, dir, "-fix", "./retry"); r.stderr != "" {
		t.Errorf("with require: got stderr %q", r.stderr)
	}
}

func TestBaseline(t *testing.T) {
	dir := fixture(t, "sleepy")
	for _, format := range []string{"text", "json", "sarif"} {
		t.Run(format, func(t *testing.T) {
			base := filepath.Join(t.TempDir(), "baseline.json")
			r := runDriver(t, dir, "-format", format, "-baseline", base, "-baseline-write", "./...")
			if r.code != ExitClean || r.stdout != "" || r.stderr != "retrylint: recorded 4 findings in "+base+"\n" {
				t.Fatalf("-baseline-write: got %+v", r)
			}
			r = runDriver(t, dir, "-format", format, "-baseline", base, "./...")
			if r.code != ExitClean || strings.Contains(r.stdout, "call to time.Sleep") {
				t.Errorf("with the baseline: got %+v, want exit 0 and no findings", r)
			}
		})
	}

	base := filepath.Join(t.TempDir(), "baseline.json")
	if r := runDriver(t, dir, "-baseline", base, "-baseline-write", "./..."); r.code != ExitClean {
		t.Fatalf("-baseline-write: %+v", r)
	}
	var bf baselineFile
	if err := json.Unmarshal([]byte(readFile(t, base)), &bf); err != nil {
		t.Fatal(err)
	}
	var funcs []string
	for _, f := range bf.Findings {
		funcs = append(funcs, f.File+" "+f.Func+": "+f.Code)
	}
	wantFuncs := "gen/gen.go Wait: func Wait() { time.Sleep(time.Second) }\n" +
		"retry/retry.go Get: time.Sleep(time.Second)\n" +
		"retry/retry.go func literal in (*Client).Ping: f := func() { time.Sleep(0) }\n" +
		"retry/retry_test.go TestWait: time.Sleep(time.Millisecond)"
	if got := strings.Join(funcs, "\n"); got != wantFuncs {
		t.Errorf("baseline entries:\n%s\nwant:\n%s", got, wantFuncs)
	}

	// Unrelated edits above the findings do not make them new.
	retryGo := filepath.Join(dir, "retry", "retry.go")
	src := readFile(t, retryGo)
	src = strings.Replace(src, "// Get retries", "// Timeout is unrelated.\nconst Timeout = 3\n\n// Get retries", 1)
	writeFile(t, retryGo, src)
	if r := runDriver(t, dir, "-baseline", base, "./..."); r.code != ExitClean {
		t.Errorf("after inserting lines: got %+v, want exit 0", r)
	}

	// A new finding, even an identical one in the same function, is new.
	src = strings.Replace(src, "\treturn nil, err\n", "\ttime.Sleep(time.Second)\n\treturn nil, err\n", 1)
	writeFile(t, retryGo, src)
	for format, want := range map[string]string{
		"text":  "retry/retry.go:23:2: call to time.Sleep",
		"json":  "retry.go:23:2",
		"sarif": `"startLine": 23,`,
	} {
		r := runDriver(t, dir, "-format", format, "-baseline", base, "./...")
		if r.code != ExitFindings || strings.Count(r.stdout, "call to time.Sleep") != 1 || !strings.Contains(r.stdout, want) {
			t.Errorf("%s: new finding: got exit %d, stdout:\n%s\nstderr: %s", format, r.code, r.stdout, r.stderr)
		}
	}
}

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o666); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
