package analyzers_test

import (
	"bytes"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestFixesCompile copies every fix test package to a module that
// requires the real budget library, runs `retrylint -fix` over it, and
// checks that the result equals the golden files, builds, vets clean, and
// that a second -fix changes nothing.
func TestFixesCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and a module; skipped with -short")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	bin := retrylintBinary(t)

	goldens, err := filepath.Glob(filepath.Join(root, "analyzers", "*", "testdata", "src", "fix*", "*.go.golden"))
	if err != nil || len(goldens) == 0 {
		t.Fatalf("no golden files found (%v)", err)
	}
	mod, all := t.TempDir(), t.TempDir()
	gomod := "module example.com/fixed\n\ngo 1.26\n\nrequire github.com/retrylint/retrylint/budget v0.0.0\n\nreplace github.com/retrylint/retrylint/budget => " + filepath.Join(root, "budget") + "\n"
	for _, m := range []string{mod, all} {
		if err := os.WriteFile(filepath.Join(m, "go.mod"), []byte(gomod), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string][]byte{}
	allFiles := map[string][]byte{}
	dirs := map[string]string{} // package dir -> analyzer
	for _, g := range goldens {
		rel, _ := filepath.Rel(filepath.Join(root, "analyzers"), g)
		analyzer := strings.Split(rel, string(filepath.Separator))[0]
		name := analyzer + "_" + filepath.Base(filepath.Dir(g))
		pkgDir := filepath.Join(mod, name)
		dirs[name] = analyzer
		for _, d := range []string{pkgDir, filepath.Join(all, name)} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		src, err := os.ReadFile(strings.TrimSuffix(g, ".golden"))
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(pkgDir, strings.TrimSuffix(filepath.Base(g), ".golden"))
		if err := os.WriteFile(dst, src, 0o644); err != nil {
			t.Fatal(err)
		}
		allDst := filepath.Join(all, name, filepath.Base(dst))
		if err := os.WriteFile(allDst, src, 0o644); err != nil {
			t.Fatal(err)
		}
		allFiles[allDst] = nil
		golden, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		want[dst] = golden
	}
	// Each analyzer's fixes alone give its golden files.
	var out []byte
	for name, analyzer := range dirs {
		fix := exec.Command(bin, "-"+analyzer, "-fix", "./"+name)
		fix.Dir = mod
		o, _ := fix.CombinedOutput()
		out = append(out, o...)
	}
	for dst, golden := range want {
		got, err := os.ReadFile(dst)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, golden) {
			t.Errorf("%s: retrylint -fix result differs from the golden file:\n%s\n--- output:\n%s", dst, got, out)
		}
	}
	run(t, mod, "go", "build", "./...")
	run(t, mod, "go", "vet", "./...")

	// All analyzers' fixes together apply without conflict, build, vet
	// clean, and a second -fix changes nothing.
	fix := exec.Command(bin, "-fix", "./...")
	fix.Dir = all
	o, _ := fix.CombinedOutput()
	if bytes.Contains(o, []byte("conflict")) {
		t.Errorf("fixes conflicted:\n%s", o)
	}
	run(t, all, "go", "build", "./...")
	run(t, all, "go", "vet", "./...")
	before := snapshot(t, allFiles)
	again := exec.Command(bin, "-fix", "./...")
	again.Dir = all
	_, _ = again.CombinedOutput()
	if after := snapshot(t, allFiles); after != before {
		t.Errorf("a second -fix changed the files")
	}
}

func snapshot(t *testing.T, files map[string][]byte) string {
	var b strings.Builder
	for _, f := range slices.Sorted(maps.Keys(files)) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString(f)
		b.Write(data)
	}
	return b.String()
}

func run(t *testing.T, dir, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}
