package driver

import (
	"encoding/json"
	"go/token"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/tools/go/analysis"
)

// TestSARIF validates the SARIF output against the SARIF 2.1.0 JSON
// schema (see testdata/cli/sarif/README.md) and checks the fields
// that code scanning reads.
func TestSARIF(t *testing.T) {
	schema := compileSARIFSchema(t)

	validate := func(t *testing.T, out string) map[string]any {
		t.Helper()
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(out))
		if err != nil {
			t.Fatalf("output is not JSON: %v\n%s", err, out)
		}
		if err := schema.Validate(v); err != nil {
			t.Fatalf("output does not validate: %v\n%s", err, out)
		}
		return v.(map[string]any)
	}

	// The validator must be able to fail.
	if err := schema.Validate(map[string]any{"version": "2.1.0", "runs": []any{map[string]any{"results": []any{}}}}); err == nil {
		t.Fatal("a run without tool validates")
	}

	dir := fixture(t, "sleepy")
	writeFile(t, filepath.Join(dir, ".git"), "gitdir: elsewhere\n") // the repository root
	r := runDriver(t, filepath.Join(dir, "retry"), "-format", "sarif", "./...")
	if r.code != ExitFindings {
		t.Fatalf("exit %d, want 3; stderr: %s", r.code, r.stderr)
	}
	validate(t, r.stdout)

	var log sarifLog
	if err := json.Unmarshal([]byte(r.stdout), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if rule := run.Tool.Driver.Rules[0]; rule.ID != "sleeptest" || rule.HelpURI != "https://example.com/sleeptest" ||
		rule.ShortDescription.Text != "report calls to time.Sleep (a driver test analyzer)" {
		t.Errorf("rule: %+v", rule)
	}
	// Code scanning wants help on every rule (SARIF Multitool GH2012).
	for _, rule := range run.Tool.Driver.Rules {
		if !strings.HasPrefix(rule.Help.Text, rule.FullDescription.Text) || !strings.HasSuffix(rule.Help.Text, "Documentation: "+rule.HelpURI) ||
			!strings.HasSuffix(rule.Help.Markdown, "[Documentation]("+rule.HelpURI+")") {
			t.Errorf("rule %s help: %+v", rule.ID, rule.Help)
		}
	}
	if v := run.Tool.Driver.Version; v != version() || v == "" {
		t.Errorf("driver version %q, want %q", v, version())
	}
	if len(run.Results) != 3 {
		t.Fatalf("got %d results, want 3", len(run.Results))
	}
	res := run.Results[0]
	loc := res.Locations[0].PhysicalLocation
	// Relative to the repository root, not the working directory.
	if loc.ArtifactLocation.URI != "retry/retry.go" || loc.ArtifactLocation.URIBaseID != "%SRCROOT%" ||
		loc.Region != (sarifRegion{StartLine: 18, StartColumn: 3, EndLine: 18, EndColumn: 26}) {
		t.Errorf("location: %+v", loc)
	}
	if res.RuleID != "sleeptest" || res.Level != "warning" || res.Properties["category"] != "sleep" ||
		len(res.PartialFingerprints["retrylint/v1"]) != 32 || len(res.RelatedLocations) != 1 ||
		len(res.Fixes) != 1 || res.Fixes[0].ArtifactChanges[0].Replacements[0].InsertedContent.Text != "<-time.After(time.Second)" {
		t.Errorf("result: %+v", res)
	}

	// No findings: still a valid log, exit 0.
	r = runDriver(t, fixture(t, "clean"), "-format", "sarif", "./...")
	if r.code != ExitClean {
		t.Fatalf("clean: exit %d; stderr: %s", r.code, r.stderr)
	}
	validate(t, r.stdout)
}

func TestUTF16Column(t *testing.T) {
	name := filepath.Join(t.TempDir(), "wide.go")
	src := "package p\n\nvar s = \"h\u00e9llo\U0001F600\"; var x = 1\n"
	writeFile(t, name, src)
	off := strings.Index(src, "x =")
	col := off - strings.LastIndex(src[:off], "\n") // byte column
	d := &run{files: map[string][]byte{}}
	// é is 2 bytes and 1 UTF-16 unit; the emoji 4 bytes and 2 units.
	got := d.utf16Column(token.Position{Filename: name, Offset: off, Line: 3, Column: col})
	if want := col - 3; got != want {
		t.Errorf("utf16Column = %d, want %d (byte column %d)", got, want, col)
	}
}

// TestRuleHelpMarkdown checks that a Go doc comment's code block and
// heading become Markdown.
func TestRuleHelpMarkdown(t *testing.T) {
	a := &analysis.Analyzer{
		Name: "x",
		Doc:  "report x\n\nWrong:\n\n\tx()\n\n# Options\n\nNone.",
		URL:  "https://example.com/x",
	}
	h := ruleHelp(a)
	if h.Text != a.Doc+"\n\nDocumentation: https://example.com/x" {
		t.Errorf("text %q", h.Text)
	}
	if want := "report x\n\nWrong:\n\n\tx()\n\n### Options {#hdr-Options}\n\nNone.\n\n[Documentation](https://example.com/x)"; h.Markdown != want {
		t.Errorf("markdown\n%q, want\n%q", h.Markdown, want)
	}
	if h := ruleHelp(&analysis.Analyzer{Name: "y", Doc: "report y"}); h.Text != "report y" || h.Markdown != "report y" {
		t.Errorf("no URL: %+v", h)
	}
}

func TestModuleVersion(t *testing.T) {
	dep := func(path, version string) *debug.Module { return &debug.Module{Path: path, Version: version} }
	for _, c := range []struct {
		name string
		bi   debug.BuildInfo
		want string
	}{
		{"go install at a tag", debug.BuildInfo{Main: *dep(modulePath, "v1.2.3")}, "v1.2.3"},
		{"go build in a checkout", debug.BuildInfo{Main: *dep(modulePath, "v0.0.0-20261201120000-0123456789ab+dirty")}, "v0.0.0-20261201120000-0123456789ab+dirty"},
		{"go tool in a consumer module", debug.BuildInfo{Main: *dep("example.com/app", "(devel)"),
			Deps: []*debug.Module{dep("golang.org/x/tools", "v0.52.0"), dep(modulePath, "v0.4.0")}}, "v0.4.0"},
		{"devel with a revision", debug.BuildInfo{Main: *dep(modulePath, "(devel)"), Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "true"}}}, "(devel) 0123456789ab+dirty"},
		{"devel", debug.BuildInfo{Main: *dep(modulePath, "")}, "(devel)"},
		{"another module's revision is not ours", debug.BuildInfo{Main: *dep("example.com/app", ""),
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef"}}}, "(devel)"},
	} {
		if got := moduleVersion(&c.bi); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestReleaseVersion checks that a version stamped at link time wins over
// the build info, which a source-archive build lacks.
func TestReleaseVersion(t *testing.T) {
	if v := version(); v == "v9.8.7" {
		t.Fatalf("version %q before stamping", v)
	}
	old := releaseVersion
	releaseVersion = "v9.8.7"
	t.Cleanup(func() { releaseVersion = old })
	if v := version(); v != "v9.8.7" {
		t.Errorf("version %q, want the stamped v9.8.7", v)
	}
}
