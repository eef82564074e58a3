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
)

// The held-out modules (testdata/holdout) were written from the SPEC alone,
// by engineers who had not read the analyzers or their tests, in the
// idioms of real services: HTTP API clients, infrastructure code, CLI tools
// and controllers. Each has its authors' EXPECTED.md. FINDINGS.txt pins
// what retrylint reports on it, so any change in what it finds there shows
// up in review; RETRYLINT_UPDATE_HOLDOUT=1 rewrites the pins.
var holdouts = []string{"http", "infra", "three", "four"}

// diagLine is a finding's first line: "file:line:col: message (analyzer)".
var diagLine = regexp.MustCompile(`^[^\s:][^:]*\.go:\d+:\d+: .* \(retry[a-z]+\)$`)

// holdoutFindings runs the binary over dir and returns the first line of
// each finding, sorted.
func holdoutFindings(t *testing.T, bin, dir string) []string {
	t.Helper()
	cmd := exec.Command(bin, "./...")
	cmd.Dir = dir
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 3 {
		t.Fatalf("retrylint in %s: %v, want exit code 3\n%s", dir, err, out)
	}
	var got []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if l := sc.Text(); diagLine.MatchString(l) {
			got = append(got, filepath.ToSlash(l))
		}
	}
	slices.Sort(got)
	return got
}

// TestHoldout pins the findings on each held-out module.
func TestHoldout(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	t.Parallel()
	bin := retrylintBinary(t)
	for _, h := range holdouts {
		t.Run(h, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join("..", "testdata", "holdout", h)
			got := holdoutFindings(t, bin, dir)
			pin := filepath.Join(dir, "FINDINGS.txt")
			if os.Getenv("RETRYLINT_UPDATE_HOLDOUT") == "1" {
				if err := os.WriteFile(pin, []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			data, err := os.ReadFile(pin)
			if err != nil {
				t.Fatal(err)
			}
			want := strings.Split(strings.TrimSpace(string(data)), "\n")
			for _, w := range want {
				if !slices.Contains(got, w) {
					t.Errorf("no longer reported: %s", w)
				}
			}
			for _, g := range got {
				if !slices.Contains(want, g) {
					t.Errorf("newly reported: %s", g)
				}
			}
		})
	}
}

// TestHoldoutFix applies every fix to a copy of each held-out module, as a
// user would: the result builds, vets clean and passes the module's own
// tests; what is still reported was reported before (by the same analyzer
// in the same file); a second -fix changes nothing.
func TestHoldoutFix(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and the modules; skipped with -short")
	}
	t.Parallel()
	bin := retrylintBinary(t)
	// A finding by file and analyzer: the fixes move positions, and may
	// change what is said (an http.Post spelled out now runs under
	// context.Background, which retrydeadline words differently; a key
	// minted once per call is still minted per attempt of a caller that
	// retries the whole call).
	key := func(l string) string {
		file, _, _ := strings.Cut(l, ":")
		return file + " " + l[strings.LastIndex(l, "("):]
	}
	for _, h := range holdouts {
		t.Run(h, func(t *testing.T) {
			t.Parallel()
			mod := copyModule(t, filepath.Join("..", "testdata", "holdout", h))
			before := holdoutFindings(t, bin, mod)
			fix := exec.Command(bin, "-fix", "./...")
			fix.Dir = mod
			if out, _ := fix.CombinedOutput(); bytes.Contains(out, []byte("conflict")) {
				t.Errorf("fixes conflicted:\n%s", out)
			}
			run(t, mod, "go", "vet", "./...") // type-checks every package: no separate go build
			run(t, mod, "go", "test", "-count=1", "./...")
			var was []string
			for _, l := range before {
				was = append(was, key(l))
			}
			after := holdoutFindings(t, bin, mod)
			for _, l := range after {
				if !slices.Contains(was, key(l)) {
					t.Errorf("new finding after -fix: %s", l)
				}
			}
			if len(after) >= len(before) {
				t.Errorf("-fix removed no finding: %d before, %d after", len(before), len(after))
			}
			snap := treeSnapshot(t, mod)
			again := exec.Command(bin, "-fix", "./...")
			again.Dir = mod
			_, _ = again.CombinedOutput()
			if treeSnapshot(t, mod) != snap {
				t.Errorf("a second -fix changed the files")
			}
		})
	}
}
