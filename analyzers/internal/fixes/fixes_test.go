package fixes

import (
	"errors"
	"runtime"
	"testing"
	"weak"

	"golang.org/x/tools/go/analysis"
)

// TestSourceReadsOncePerPass pins the cache the fix builders read
// through: one read per file per pass, a new pass reads again, and an
// error is returned like pass.ReadFile's.
func TestSourceReadsOncePerPass(t *testing.T) {
	reads := map[string]int{}
	newPass := func() *analysis.Pass {
		return &analysis.Pass{ReadFile: func(name string) ([]byte, error) {
			reads[name]++
			if name == "missing.go" {
				return nil, errors.New("no such file")
			}
			return []byte("package " + name), nil
		}}
	}
	p1, p2 := newPass(), newPass()
	for range 3 {
		for _, name := range []string{"a.go", "b.go"} {
			got, err := Source(p1, name)
			if err != nil || string(got) != "package "+name {
				t.Fatalf("Source(p1, %s) = %q, %v", name, got, err)
			}
		}
	}
	if reads["a.go"] != 1 || reads["b.go"] != 1 {
		t.Errorf("one pass read a.go %d times and b.go %d times, want once each", reads["a.go"], reads["b.go"])
	}
	if _, err := Source(p2, "a.go"); err != nil || reads["a.go"] != 2 {
		t.Errorf("a second pass: err %v, a.go read %d times, want 2", err, reads["a.go"])
	}
	if _, err := Source(p1, "missing.go"); err == nil {
		t.Error("Source of a missing file: no error")
	}
}

// TestSourceLetsPassesGo pins that the cache does not keep a pass alive
// once its analysis ended: a pass holds its package's syntax and types,
// and a process that runs the analyses again (a benchmark, a server) kept
// the previous run's program through it.
func TestSourceLetsPassesGo(t *testing.T) {
	p := &analysis.Pass{ReadFile: func(name string) ([]byte, error) { return []byte("package a"), nil }}
	if _, err := Source(p, "a.go"); err != nil {
		t.Fatal(err)
	}
	wp := weak.Make(p)
	p = nil
	for range 3 {
		runtime.GC()
	}
	if wp.Value() != nil {
		t.Error("a pass whose analysis ended is still reachable through the source cache")
	}
}
