package analyzers_test

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/internal/testbin"
)

// retrylintBinary builds cmd/retrylint once per test binary.
func retrylintBinary(t *testing.T) string { return testbin.Retrylint(t, "..") }

// run runs a command in dir, failing the test with its output.
func run(t *testing.T, dir, name string, args ...string) {
	t.Helper()
	testbin.Run(t, dir, name, args...)
}

var findingLine = regexp.MustCompile(`^([^\s:][^:]*\.go):\d+:\d+: .* \((retry[a-z]+)\)$`)

// findings runs the binary in dir and returns "file: analyzer" pairs.
func findings(t *testing.T, bin, dir string, args ...string) ([]string, int) {
	t.Helper()
	cmd := exec.Command(bin, append(args, "./...")...)
	cmd.Dir = dir
	out, err := cmd.Output()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	var got []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if m := findingLine.FindStringSubmatch(sc.Text()); m != nil {
			got = append(got, filepath.ToSlash(m[1])+": "+m[2])
		}
	}
	slices.Sort(got)
	return got, code
}

// TestExample pins the bundled example's findings to EXPECTED.txt: each
// anti-pattern is found, and none of its clean loops is.
func TestExample(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	t.Parallel()
	bin := retrylintBinary(t)
	dir := filepath.Join("..", "examples", "ledgerclient")
	data, err := os.ReadFile(filepath.Join(dir, "EXPECTED.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			want = append(want, l)
		}
	}
	slices.Sort(want)
	got, code := findings(t, bin, dir)
	got = slices.Compact(got)
	if code != 3 {
		t.Errorf("exit code %d, want 3", code)
	}
	if !slices.Equal(got, want) {
		t.Errorf("findings differ from EXPECTED.txt\ngot:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestExampleFix applies every fix to a copy of the example module: it
// must build and vet clean, every finding left must have been there
// before, and a second -fix must change nothing.
func TestExampleFix(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and the example; skipped with -short")
	}
	t.Parallel()
	bin := retrylintBinary(t)
	mod := copyExample(t)
	before, _ := findings(t, bin, mod)
	fix := exec.Command(bin, "-fix", "./...")
	fix.Dir = mod
	out, _ := fix.CombinedOutput()
	if bytes.Contains(out, []byte("conflict")) {
		t.Errorf("fixes conflicted:\n%s", out)
	}
	run(t, mod, "go", "vet", "./...") // type-checks every package: no separate go build
	after, _ := findings(t, bin, mod)
	for _, f := range after {
		if !slices.Contains(before, f) {
			t.Errorf("new finding after -fix: %s", f)
		}
	}
	if len(after) >= len(before) {
		t.Errorf("-fix removed no finding: before %v, after %v", before, after)
	}
	snap := treeSnapshot(t, mod)
	again := exec.Command(bin, "-fix", "./...")
	again.Dir = mod
	_, _ = again.CombinedOutput()
	if treeSnapshot(t, mod) != snap {
		t.Errorf("a second -fix changed the files")
	}
}

// TestExampleFixStaticcheck runs staticcheck (from the module proxy) over
// the example before and after -fix: the fixes add no finding.
func TestExampleFixStaticcheck(t *testing.T) {
	if testing.Short() {
		t.Skip("downloads and builds staticcheck; skipped with -short")
	}
	t.Parallel()
	if os.Getenv("CI") == "" && os.Getenv("RETRYLINT_STATICCHECK") == "" {
		t.Skip("downloads staticcheck from the module proxy: set RETRYLINT_STATICCHECK=1 (CI runs it)")
	}
	bin := retrylintBinary(t)
	// CI builds it beforehand, beside golangci-lint, and names it in
	// RETRYLINT_STATICCHECK_BIN: its build is not this test binary's
	// time. Anywhere else the test builds it.
	staticcheck := os.Getenv("RETRYLINT_STATICCHECK_BIN")
	if staticcheck == "" {
		staticcheck = filepath.Join(t.TempDir(), "staticcheck")
		install := exec.Command("go", "build", "-o", staticcheck, "honnef.co/go/tools/cmd/staticcheck")
		install.Dir = t.TempDir()
		run(t, install.Dir, "go", "mod", "init", "tools")
		run(t, install.Dir, "go", "get", "honnef.co/go/tools/cmd/staticcheck@v0.8.2")
		if out, err := install.CombinedOutput(); err != nil {
			t.Fatalf("building staticcheck: %v\n%s", err, out)
		}
	}
	mod := copyExample(t)
	check := func() []string {
		cmd := exec.Command(staticcheck, "-f", "text", "./...")
		cmd.Dir = mod
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); err != nil && !(ok && ee.ExitCode() == 1 && len(out) > 0) {
			t.Fatalf("staticcheck did not run: %v\n%s", err, out)
		}
		var lines []string
		for _, l := range strings.Split(string(out), "\n") {
			if i := strings.Index(l, ": "); i >= 0 {
				// Drop positions: fixes move lines.
				if j := strings.LastIndex(l[:i], ".go:"); j >= 0 {
					l = l[:j+3] + l[i:]
				}
			}
			if strings.TrimSpace(l) != "" {
				lines = append(lines, l)
			}
		}
		return lines
	}
	before := check()
	fix := exec.Command(bin, "-fix", "./...")
	fix.Dir = mod
	_, _ = fix.CombinedOutput()
	for _, l := range check() {
		if !slices.Contains(before, l) {
			t.Errorf("staticcheck reports something new after -fix: %s", l)
		}
	}
}

// copyExample copies examples/ledgerclient to a temp dir, pointing its
// replace at the budget module of this checkout.
func copyExample(t *testing.T) string {
	return copyModule(t, filepath.Join("..", "examples", "ledgerclient"))
}

// copyModule copies the module in dir to a temp dir, pointing its replace
// of the budget module at this checkout's.
func copyModule(t *testing.T, dir string) string {
	t.Helper()
	src, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	budget, _ := filepath.Abs(filepath.Join("..", "budget"))
	dst := t.TempDir()
	err = filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if rel == "go.mod" {
			data = regexp.MustCompile(`(?m)^replace github.com/retrylint/retrylint/budget => .*$`).
				ReplaceAll(data, []byte("replace github.com/retrylint/retrylint/budget => "+budget))
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func treeSnapshot(t *testing.T, dir string) string {
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return err
		}
		data, err := os.ReadFile(p)
		b.WriteString(p)
		b.Write(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
