package budget

import (
	"bufio"
	"go/build"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestStandardLibraryOnly keeps the module dependency-free: every import of
// every non-test Go file in the module (nested modules such as bench/
// excluded) must be in the standard library.
func TestStandardLibraryOnly(t *testing.T) {
	const self = "github.com/retrylint/retrylint/budget"
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != "." {
				if d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_") {
					return filepath.SkipDir
				}
				if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
					return filepath.SkipDir // a nested module has its own rules
				}
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		files++
		for _, imp := range f.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				return err
			}
			if p == self || strings.HasPrefix(p, self+"/") {
				continue
			}
			if !isStandard(p) {
				t.Errorf("%s imports %q, which is not in the standard library", path, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files == 0 {
		t.Fatal("no Go files found")
	}
}

// isStandard reports whether path is a standard library package: its first
// element has no dot, and the go command finds it in GOROOT.
func isStandard(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	if strings.Contains(first, ".") {
		return false
	}
	p, err := build.Default.Import(path, "", build.FindOnly)
	return err == nil && p.Goroot
}

func TestIsStandard(t *testing.T) {
	for p, want := range map[string]bool{
		"fmt": true, "net/http": true, "math/rand/v2": true, "testing/synctest": true,
		"golang.org/x/time/rate": false, "github.com/sony/gobreaker": false, "nosuchstdpkg": false,
	} {
		if got := isStandard(p); got != want {
			t.Errorf("isStandard(%q) = %v, want %v", p, got, want)
		}
	}
}

// TestGoModHasNoRequirements keeps go.mod at go 1.22 with nothing required.
func TestGoModHasNoRequirements(t *testing.T) {
	f, err := os.Open("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var module, goLine string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 || strings.HasPrefix(fields[0], "//") {
			continue
		}
		switch fields[0] {
		case "module":
			module = strings.Join(fields[1:], " ")
		case "go":
			goLine = strings.Join(fields[1:], " ")
		case "require", "replace", "toolchain", "tool":
			t.Errorf("go.mod has a %s directive: the budget module must stay standard-library only", fields[0])
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if module != "github.com/retrylint/retrylint/budget" {
		t.Errorf("module %q", module)
	}
	if goLine != "1.22" {
		t.Errorf("go directive %q, want 1.22", goLine)
	}
}
