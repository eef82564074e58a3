package driver

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// groupedResults runs -format sarif with grouped findings in dir and
// returns the results by package directory (svc, user), checking that
// the log validates against the SARIF schema.
func groupedResults(t *testing.T, dir string) map[string]sarifResult {
	t.Helper()
	r := runDriver(t, dir, "-format", "sarif", "./...")
	if r.code != ExitFindings {
		t.Fatalf("exit %d, want 3; stderr: %s", r.code, r.stderr)
	}
	validateSARIF(t, r.stdout)
	var log sarifLog
	if err := json.Unmarshal([]byte(r.stdout), &log); err != nil {
		t.Fatal(err)
	}
	out := map[string]sarifResult{}
	for _, res := range log.Runs[0].Results {
		pkg := filepath.Dir(res.Locations[0].PhysicalLocation.ArtifactLocation.URI)
		if _, dup := out[pkg]; dup {
			t.Fatalf("two results in %s, want one per root cause:\n%s", pkg, r.stdout)
		}
		out[pkg] = res
	}
	if len(out) != 2 {
		t.Fatalf("results in %d packages, want 2 (svc, user):\n%s", len(out), r.stdout)
	}
	return out
}

func validateSARIF(t *testing.T, out string) {
	t.Helper()
	schema := compileSARIFSchema(t)
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(out))
	if err != nil {
		t.Fatalf("output is not JSON: %v", err)
	}
	if err := schema.Validate(v); err != nil {
		t.Fatalf("output does not validate: %v\n%s", err, out)
	}
}

// compileSARIFSchema compiles the SARIF 2.1.0 schema kept in testdata.
func compileSARIFSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(filepath.Join(testdata, "sarif", "sarif-2.1.0-rtm.5.json"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("sarif.json", doc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile("sarif.json")
	if err != nil {
		t.Fatal(err)
	}
	return schema
}

// editFile replaces old with new in the file name.
func editFile(t *testing.T, name, old, new string) {
	t.Helper()
	src := readFile(t, name)
	if !strings.Contains(src, old) {
		t.Fatalf("%s holds no %q", name, old)
	}
	writeFile(t, name, strings.Replace(src, old, new, 1))
}

// TestGroupFingerprint: a grouped finding is one SARIF result per root
// cause whose partial fingerprint survives moved lines and a changed
// set of sites: at the root cause when in view (svc), and where it is
// out of view (user) although the finding then stands at its first
// site, which a new first site displaces.
func TestGroupFingerprint(t *testing.T) {
	setFlag(t, "group", "true")
	dir := fixture(t, "grouped")
	writeFile(t, filepath.Join(dir, ".git"), "gitdir: elsewhere\n")
	before := groupedResults(t, dir)
	if msg := before["svc"].Message.Text; msg != "time.Sleep at 2 call sites" || len(before["svc"].RelatedLocations) != 2 {
		t.Errorf("svc: %q with %d related locations, want 2 sites, both related", msg, len(before["svc"].RelatedLocations))
	}

	// Lines moved above both, and a new site, first in its package.
	editFile(t, filepath.Join(dir, "svc", "svc.go"), "func root() {}", "// Moved.\nconst Moved = 1\n\nfunc root() {}")
	editFile(t, filepath.Join(dir, "svc", "more.go"), "func B()", "func E() { time.Sleep(3 * time.Second) }\n\nfunc B()")
	editFile(t, filepath.Join(dir, "user", "user.go"), "func C()", "// Moved.\nconst Moved = 1\n\nfunc F() { time.Sleep(3 * time.Second) }\n\nfunc C()")
	after := groupedResults(t, dir)
	for _, pkg := range []string{"svc", "user"} {
		b, a := before[pkg], after[pkg]
		if a.Message.Text != "time.Sleep at 3 call sites" {
			t.Errorf("%s after the edits: %q, want 3 sites", pkg, a.Message.Text)
		}
		if got, want := a.PartialFingerprints[fingerprintName], b.PartialFingerprints[fingerprintName]; got != want || got == "" {
			t.Errorf("%s: fingerprint %q after moved lines and a new site, was %q", pkg, got, want)
		}
	}
	if b, a := before["user"].Locations[0].PhysicalLocation.Region.StartLine, after["user"].Locations[0].PhysicalLocation.Region.StartLine; a == b {
		t.Errorf("user: the finding did not move to the new first site (line %d)", a)
	}
}

// TestBaselineGroups: a baseline keeps a grouped finding across moved
// lines and new sites, and one written before grouping (a finding per
// site) holds the group while it holds all of the group's sites.
func TestBaselineGroups(t *testing.T) {
	dir := fixture(t, "grouped")
	legacy := filepath.Join(t.TempDir(), "legacy.json")
	if r := runDriver(t, dir, "-baseline", legacy, "-baseline-write", "./..."); r.code != ExitClean || !strings.Contains(r.stderr, "recorded 4 findings") {
		t.Fatalf("-baseline-write before grouping: %+v", r)
	}
	setFlag(t, "group", "true")
	base := filepath.Join(t.TempDir(), "baseline.json")
	if r := runDriver(t, dir, "-baseline", base, "-baseline-write", "./..."); r.code != ExitClean || !strings.Contains(r.stderr, "recorded 2 findings") {
		t.Fatalf("-baseline-write: %+v", r)
	}
	for _, b := range []string{base, legacy} {
		if r := runDriver(t, dir, "-baseline", b, "./..."); r.code != ExitClean || r.stdout != "" {
			t.Errorf("with %s: %+v, want exit 0 and no findings", filepath.Base(b), r)
		}
	}

	editFile(t, filepath.Join(dir, "svc", "svc.go"), "func root() {}", "// Moved.\nconst Moved = 1\n\nfunc root() {}")
	editFile(t, filepath.Join(dir, "user", "user.go"), "func C()", "// Moved.\nconst Moved = 1\n\nfunc F() { time.Sleep(3 * time.Second) }\n\nfunc C()")
	if r := runDriver(t, dir, "-baseline", base, "./..."); r.code != ExitClean || r.stdout != "" {
		t.Errorf("after moved lines and a new site: %+v, want exit 0 and no findings", r)
	}
	// The legacy baseline does not hold the new site: its group is new.
	r := runDriver(t, dir, "-baseline", legacy, "./...")
	if r.code != ExitFindings || strings.Count(r.stdout, "time.Sleep at") != 1 || !strings.Contains(r.stdout, "user/user.go") {
		t.Errorf("legacy baseline after a new site in user: %+v, want the user group alone", r)
	}
}

// TestJSONSites: the JSON output lists every site of a grouped finding.
func TestJSONSites(t *testing.T) {
	setFlag(t, "group", "true")
	dir := fixture(t, "grouped")
	r := runDriver(t, dir, "-json", "./...")
	var tree jsonTree
	if err := json.Unmarshal([]byte(r.stdout), &tree); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	n := 0
	for _, byAnalyzer := range tree {
		for _, d := range byAnalyzer["sleeptest"] {
			if len(d.Sites) != 2 {
				t.Errorf("%s: sites %v, want 2", d.Posn, d.Sites)
			}
			n++
		}
	}
	if n != 2 {
		t.Errorf("%d findings, want 2:\n%s", n, r.stdout)
	}
}

// TestTextUnlisted: the text output says how many sites of a grouped
// finding its related positions leave out.
func TestTextUnlisted(t *testing.T) {
	setFlag(t, "group", "true")
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "go.mod"), "module example.com/many\n\ngo 1.26\n")
	src := "package many\n\nimport \"time\"\n"
	for i := range 12 {
		src += fmt.Sprintf("\nfunc F%d() { time.Sleep(%d) }\n", i, i+1)
	}
	writeFile(t, filepath.Join(dir, "many.go"), src)
	r := runDriver(t, dir, "./...")
	if r.code != ExitFindings || !strings.Contains(r.stdout, "time.Sleep at 12 call sites") ||
		strings.Count(r.stdout, "sleeps here") != 10 || !strings.Contains(r.stdout, "\t… and 1 more site (-json lists them all)\n") {
		t.Errorf("got %+v, want the finding, 10 related sites and 1 more", r)
	}
}
