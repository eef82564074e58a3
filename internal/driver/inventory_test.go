package driver

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestInventory: -inventory prints the retry sites instead of the
// findings and exits 0 though there are findings; a bad format or a
// conflicting flag is an error, exit 1.
func TestInventory(t *testing.T) {
	dir := fixture(t, "sleepy")
	if r := runDriver(t, dir, "./..."); r.code != ExitFindings {
		t.Fatalf("the fixture has findings: got exit %d", r.code)
	}

	r := runDriver(t, dir, "-inventory", "./...")
	if r.code != ExitClean || r.stderr != "" || !strings.HasPrefix(r.stdout, "## Retry inventory\n") ||
		!strings.Contains(r.stdout, "| `retry/retry.go:12:2` | `retry.Get` | `http.Get(url)` → HTTP GET url |") {
		t.Errorf("-inventory: exit %d, stdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if strings.Contains(r.stdout, "(sleeptest)") {
		t.Error("-inventory printed findings too")
	}

	r = runDriver(t, dir, "-inventory=json", "./...")
	var inv struct {
		Version int
		Sites   []struct{ Pos, Function string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &inv); err != nil || r.code != ExitClean {
		t.Fatalf("-inventory=json: exit %d, %v:\n%s", r.code, err, r.stdout)
	}
	// retry.go is in retry and in retry [retry.test]: listed once.
	if inv.Version != 1 || len(inv.Sites) != 1 || inv.Sites[0].Pos != "retry/retry.go:12:2" {
		t.Errorf("-inventory=json: %+v", inv)
	}

	r = runDriver(t, dir, "-inventory=html", "./...")
	if r.code != ExitClean || !strings.HasPrefix(r.stdout, "<!DOCTYPE html>") || !strings.Contains(r.stdout, "retry.Get") {
		t.Errorf("-inventory=html: exit %d, stdout starts %.80q", r.code, r.stdout)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-inventory=pdf", "./..."}, `retrylint: unknown -inventory "pdf" (want md, json or html)` + "\n"},
		{[]string{"-inventory", "-fix", "./..."}, "retrylint: -inventory cannot be combined with -fix or -baseline-write\n"},
	} {
		if r := runDriver(t, dir, c.args...); r.code != ExitError || r.stderr != c.want || r.stdout != "" {
			t.Errorf("%v: exit %d, stderr %q; want exit 1, %q", c.args, r.code, r.stderr, c.want)
		}
	}
}
