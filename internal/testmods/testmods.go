// Package testmods prepares what tests need from the network before they
// run: the modules their testdata modules require. analysistest and the
// end-to-end tests load testdata with GOPROXY=off, so those modules must be
// in the module cache first; a test package's TestMain calls [Main] with
// its testdata module directories, and the README's plain `go test ./...`
// works on a fresh machine with an empty module cache.
package testmods

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Download runs `go mod download` in each module directory, through the
// module proxy the environment names (the cache alone when the modules are
// there already). The error is one line naming the module directory and
// what the go command said.
func Download(dirs ...string) error {
	for _, dir := range dirs {
		cmd := exec.Command("go", "mod", "download")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			abs, _ := filepath.Abs(dir)
			return fmt.Errorf("cannot fetch the modules %s requires through the module proxy (GOPROXY=%s): %s",
				abs, goproxy(), lastLine(stderr.String(), err))
		}
	}
	return nil
}

// Main downloads the modules dirs require, then runs the tests. When the
// download fails it prints one line and exits 1: a test that needs the
// network never skips.
func Main(m *testing.M, dirs ...string) {
	if err := Download(dirs...); err != nil {
		fmt.Fprintln(os.Stderr, "FAIL:", err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

func goproxy() string {
	out, err := exec.Command("go", "env", "GOPROXY").Output()
	if err != nil {
		return os.Getenv("GOPROXY")
	}
	return strings.TrimSpace(string(out))
}

// lastLine is the go command's last line of stderr: the one that says what
// failed ("module lookup disabled by GOPROXY=off", a DNS error, ...).
func lastLine(stderr string, err error) string {
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if l := strings.TrimSpace(lines[len(lines)-1]); l != "" {
		return l
	}
	return err.Error()
}
