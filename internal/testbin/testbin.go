// Package testbin serves the end-to-end tests of several test packages:
// it builds the retrylint command once per test binary and runs commands
// in a directory, failing the test with their output.
package testbin

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var (
	once sync.Once
	path string
	err  error
)

// Retrylint builds ./cmd/retrylint of the checkout at root once per test
// binary and returns the executable's path.
func Retrylint(t testing.TB, root string) string {
	t.Helper()
	once.Do(func() {
		dir, e := os.MkdirTemp("", "retrylint-bin")
		if e != nil {
			err = e
			return
		}
		path = filepath.Join(dir, "retrylint")
		cmd := exec.Command("go", "build", "-o", path, "./cmd/retrylint")
		cmd.Dir = root
		if out, e := cmd.CombinedOutput(); e != nil {
			err = &buildError{e, out}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return path
}

type buildError struct {
	err error
	out []byte
}

func (e *buildError) Error() string {
	return "building retrylint: " + e.err.Error() + "\n" + string(e.out)
}

// Run runs name with args in dir and fails the test with the command's
// output when it fails.
func Run(t testing.TB, dir, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}
