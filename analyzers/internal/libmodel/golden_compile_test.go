package libmodel_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGoldensCompile builds the library testdata module with every file
// replaced by its golden (the suggested fixes applied): the fixes must
// give code that builds and vets against the real libraries. Like
// TestLibraries it needs the libraries in the module cache (TestMain).
func TestGoldensCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the library module; skipped with -short")
	}
	src, err := filepath.Abs(filepath.Join("testdata", "src", "libs"))
	if err != nil {
		t.Fatal(err)
	}
	dst := t.TempDir()
	goldens := 0
	err = filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if strings.HasSuffix(p, ".golden") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if g, err := os.ReadFile(p + ".golden"); err == nil {
			data = g
			goldens++
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	if goldens == 0 {
		t.Fatal("no golden files found")
	}
	// go vet type-checks every package: a golden that does not compile
	// fails it, so there is no separate go build.
	for _, args := range [][]string{{"vet", "./..."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir = dst
		cmd.Env = append(os.Environ(), "GOPROXY=off", "GOFLAGS=-mod=mod")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("go %s on the fixed library testdata (%d golden files): %v\n%s", strings.Join(args, " "), goldens, err, out)
		}
	}
}
