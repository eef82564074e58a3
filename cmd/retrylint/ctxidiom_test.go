package main_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// idiomFuncs are the functions of testdata/cli/ctxidiom, each retrying an
// HTTP request without a budget after ctx, cancel :=
// context.WithCancel(ctx): the context is defined by itself, which once
// sent the context resolver into endless recursion (a fatal stack
// overflow no recover catches).
var idiomFuncs = map[string]int{
	"CenkaltiV5": 41, "CenkaltiV4": 50, "AvastV4": 61, "AvastV5": 70,
	"GoRetry": 83, "Wait": 99, "ByHand": 111,
}

// TestContextIdiom runs retrylint standalone and as go vet's tool over the
// fixture: both finish with exit 3, no fatal error or panic, and a
// retrybudget finding in every function.
func TestContextIdiom(t *testing.T) {
	need(t, retrylint)
	t.Parallel()
	dir := fixture(t, "ctxidiom")
	for _, door := range []struct {
		name string
		args []string
		want int
	}{
		{"standalone", []string{retrylint, "./..."}, 3},
		{"go vet", []string{"go", "vet", "-vettool=" + retrylint, "./..."}, 1},
	} {
		r := run(t, dir, door.args[0], door.args[1:]...)
		out := r.stdout + r.stderr
		if r.code != door.want {
			t.Errorf("%s: exit %d, want %d\n%s", door.name, r.code, door.want, out)
		}
		for _, bad := range []string{"fatal error", "panic", "goroutine "} {
			if strings.Contains(out, bad) {
				t.Fatalf("%s: output holds %q:\n%s", door.name, bad, out)
			}
		}
		for fn, line := range idiomFuncs {
			re := regexp.MustCompile(`idiom\.go:` + strconv.Itoa(line) + `:\d+: .*no retry budget`)
			if !re.MatchString(out) {
				t.Errorf("%s: no retrybudget finding in %s (line %d):\n%s", door.name, fn, line, out)
			}
		}
	}
}
