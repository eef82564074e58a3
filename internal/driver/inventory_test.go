package driver

import (
	"encoding/json"
	"os"
	"path/filepath"
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

// TestInventoryBase: -inventory.base compares with an -inventory=json of
// before: a site moved down the file is the same site; a second retry
// loop is an added one; bad or mismatched JSON is one line and exit 1,
// before anything is loaded.
func TestInventoryBase(t *testing.T) {
	dir := fixture(t, "sleepy")
	r := runDriver(t, dir, "-inventory=json", "./...")
	if r.code != ExitClean {
		t.Fatalf("-inventory=json: exit %d: %s", r.code, r.stderr)
	}
	base := filepath.Join(t.TempDir(), "base.json")
	if err := os.WriteFile(base, []byte(r.stdout), 0o666); err != nil {
		t.Fatal(err)
	}

	// Lines added above the loop move it; nothing else changes.
	src := filepath.Join(dir, "retry", "retry.go")
	code, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	moved := strings.Replace(string(code), "// Get retries", "// Get is a fixture.\n//\n// Get retries", 1)
	if err := os.WriteFile(src, []byte(moved), 0o666); err != nil {
		t.Fatal(err)
	}
	r = runDriver(t, dir, "-inventory.base="+base, "./...")
	if r.code != ExitClean || r.stderr != "" || !strings.Contains(r.stdout, "No retry site added, removed or changed (1 in the base, 1 now).") {
		t.Errorf("moved loop: exit %d, stdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}

	// A second retry loop, in a function of its own.
	added := moved + `
// Head retries a HEAD twice.
func Head(url string) (*http.Response, error) {
	var err error
	for i := 0; i < 2; i++ {
		var resp *http.Response
		resp, err = http.Head(url)
		if err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, err
}
`
	if err := os.WriteFile(src, []byte(added), 0o666); err != nil {
		t.Fatal(err)
	}
	r = runDriver(t, dir, "-inventory", "-inventory.base="+base, "./...")
	if r.code != ExitClean || !strings.Contains(r.stdout, "This change adds 1 retry site, removes 0 and changes 0 (1 in the base, 2 now).") ||
		!strings.Contains(r.stdout, "| added | ") || !strings.Contains(r.stdout, "`retry.Head`") || strings.Contains(r.stdout, "`retry.Get`") {
		t.Errorf("added loop: exit %d, stdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}

	bad := filepath.Join(t.TempDir(), "bad.json")
	for _, c := range []struct{ content, want string }{
		{"", "empty: want the output of retrylint -inventory=json"},
		{`{"version": 1, "sites": [`, "not an inventory of retrylint -inventory=json: unexpected EOF"},
		{`[]`, "not an inventory of retrylint -inventory=json: not a JSON object"},
		{`{"retrybudget": {}}`, `not an inventory of retrylint -inventory=json: no "version" and "sites"`},
		{`{"version": 2, "sites": []}`, "inventory version 2, this retrylint reads version 1: write the base with the same retrylint"},
		{`{"version": 1, "sites": [{"attempts": 3}]}`, "bad sites: json: cannot unmarshal number into Go struct field Row.attempts of type inventory.Count"},
		{`{"version": 1, "sites": [{"pos": "a.go:1:1"}]}`, "site 1 lacks its package, function, shape or file"},
		{`{"version": 1, "sites": []} {}`, "not an inventory of retrylint -inventory=json: more than one JSON value"},
	} {
		if err := os.WriteFile(bad, []byte(c.content), 0o666); err != nil {
			t.Fatal(err)
		}
		want := "retrylint: -inventory.base " + bad + ": " + c.want + "\n"
		if r := runDriver(t, dir, "-inventory.base="+bad, "./..."); r.code != ExitError || r.stderr != want || r.stdout != "" {
			t.Errorf("%q: exit %d, stderr %q; want exit 1, %q", c.content, r.code, r.stderr, want)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-inventory.base=" + filepath.Join(dir, "missing.json"), "./..."}, "retrylint: -inventory.base: open " + filepath.Join(dir, "missing.json") + ": no such file or directory\n"},
		{[]string{"-inventory=json", "-inventory.base=" + base, "./..."}, "retrylint: -inventory.base prints Markdown: not with -inventory=json\n"},
	} {
		if r := runDriver(t, dir, c.args...); r.code != ExitError || r.stderr != c.want || r.stdout != "" {
			t.Errorf("%v: exit %d, stderr %q; want exit 1, %q", c.args, r.code, r.stderr, c.want)
		}
	}
}
