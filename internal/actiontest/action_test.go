// Package actiontest runs the repository's GitHub Action (action.yml) as
// a runner would: each step's script with bash, in order, with the
// runner's environment files, on a temporary git repository with a base
// and a head commit, using a retrylint built from this checkout.
package actiontest

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/retrylint/retrylint/internal/testbin"
)

var root, _ = filepath.Abs(filepath.Join("..", ".."))

// action is what the test reads of action.yml.
type action struct {
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Outputs map[string]struct {
		Value string `yaml:"value"`
	} `yaml:"outputs"`
	Runs struct {
		Using string `yaml:"using"`
		Steps []step `yaml:"steps"`
	} `yaml:"runs"`
}

type step struct {
	Name  string            `yaml:"name"`
	ID    string            `yaml:"id"`
	If    string            `yaml:"if"`
	Shell string            `yaml:"shell"`
	Env   map[string]string `yaml:"env"`
	Run   string            `yaml:"run"`
	Dir   string            `yaml:"working-directory"`
	Uses  string            `yaml:"uses"`
}

func readAction(t *testing.T) *action {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var a action
	if err := yaml.Unmarshal(data, &a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	if a.Runs.Using != "composite" || len(a.Runs.Steps) == 0 {
		t.Fatalf("action.yml: runs.using %q with %d steps; want a composite action", a.Runs.Using, len(a.Runs.Steps))
	}
	return &a
}

// runner is one job's run of the action.
type runner struct {
	t         *testing.T
	a         *action
	inputs    map[string]string // given by the workflow's with:
	github    map[string]string // the github context the action reads
	workspace string
	temp      string
	summary   string
	outputs   map[string]map[string]string // step id → output → value
}

var expr = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)

// expand replaces ${{ … }} as the runner does, for the expressions the
// action may use: inputs, steps' outputs and the github context. Any
// other expression fails the test: the action would use something this
// test cannot stand for.
func (r *runner) expand(s string) string {
	return expr.ReplaceAllStringFunc(s, func(m string) string {
		e := expr.FindStringSubmatch(m)[1]
		switch {
		case strings.HasPrefix(e, "inputs."):
			name := strings.TrimPrefix(e, "inputs.")
			in, ok := r.a.Inputs[name]
			if !ok {
				r.t.Fatalf("action.yml uses undeclared input %q", name)
			}
			if v, ok := r.inputs[name]; ok {
				return v
			}
			return r.expand(in.Default)
		case strings.HasPrefix(e, "steps."):
			parts := strings.Split(e, ".") // steps.ID.outputs.NAME
			if len(parts) != 4 || parts[2] != "outputs" {
				r.t.Fatalf("action.yml: unsupported expression %q", e)
			}
			return r.outputs[parts[1]][parts[3]]
		case strings.HasPrefix(e, "github."):
			v, ok := r.github[strings.TrimPrefix(e, "github.")]
			if !ok {
				r.t.Fatalf("action.yml: the test has no value for %q", e)
			}
			return v
		}
		r.t.Fatalf("action.yml: unsupported expression %q", e)
		return ""
	})
}

// run runs every step in order, as the runner runs a composite action's
// steps with shell: bash (bash --noprofile --norc -eo pipefail FILE), and
// returns the exit status of the first that fails, or 0.
func (r *runner) run() (failed string, out string) {
	r.outputs = map[string]map[string]string{}
	var log strings.Builder
	for i, s := range r.a.Runs.Steps {
		if s.Uses != "" || s.If != "" || s.Shell != "bash" {
			r.t.Fatalf("step %q: uses %q, if %q, shell %q: the test runs only unconditional bash steps", s.Name, s.Uses, s.If, s.Shell)
		}
		dir := filepath.Join(r.temp, "step"+strconv.Itoa(i+1))
		if err := os.MkdirAll(dir, 0o777); err != nil {
			r.t.Fatal(err)
		}
		script, output := filepath.Join(dir, "script.sh"), filepath.Join(dir, "output")
		if err := os.WriteFile(script, []byte(r.expand(s.Run)), 0o666); err != nil {
			r.t.Fatal(err)
		}
		if err := os.WriteFile(output, nil, 0o666); err != nil {
			r.t.Fatal(err)
		}
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", script)
		cmd.Dir = filepath.Join(r.workspace, r.expand(s.Dir))
		cmd.Env = append(runnerEnv(),
			"GITHUB_WORKSPACE="+r.workspace, "GITHUB_STEP_SUMMARY="+r.summary, "GITHUB_OUTPUT="+output,
			"GITHUB_ACTION_PATH="+root, "RUNNER_TEMP="+r.temp, "CI=true", "GITHUB_ACTIONS=true")
		for k, v := range s.Env {
			cmd.Env = append(cmd.Env, k+"="+r.expand(v))
		}
		b, err := cmd.CombinedOutput()
		log.WriteString("== " + s.Name + "\n" + string(b))
		if s.ID != "" {
			r.outputs[s.ID] = readOutputs(r.t, output)
		}
		if err != nil {
			return s.Name + ": " + err.Error(), log.String()
		}
	}
	return "", log.String()
}

// runnerEnv is the test's environment without what a runner sets for
// each step (and without the git variables a hook may have set, which
// would point git at another repository).
func runnerEnv() []string {
	return slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "GITHUB_") || strings.HasPrefix(kv, "RUNNER_") || strings.HasPrefix(kv, "INPUT_") || strings.HasPrefix(kv, "GIT_")
	})
}

// readOutputs reads a GITHUB_OUTPUT file of name=value lines.
func readOutputs(t *testing.T, file string) map[string]string {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			m[k] = v
		} else if line != "" {
			t.Fatalf("GITHUB_OUTPUT line %q is not name=value", line)
		}
	}
	return m
}

// The module the repository holds: a handler retrying a client call three
// times. The head commit gives the client a retry loop of its own (four
// attempts: the handler now makes up to 12 calls) and moves the handler's
// loop down the file, which must not make it a new site.
var baseFiles = map[string]string{
	"go.mod": "module example.com/shop\n\ngo 1.22\n",
	"client/client.go": `// Package client calls the payment service.
package client

import (
	"context"
	"net/http"
)

// Client sends requests to one service.
type Client struct {
	HC  *http.Client
	URL string
}

// Send sends one request.
func (c *Client) Send(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.URL, nil)
	if err != nil {
		return err
	}
	resp, err := c.HC.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
`,
	"handler/handler.go": `// Package handler serves requests.
package handler

import (
	"context"
	"time"

	"example.com/shop/client"
)

// Handle retries the client's call.
func Handle(ctx context.Context, c *client.Client) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = c.Send(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
`,
}

func headFiles() map[string]string {
	m := map[string]string{}
	m["client/client.go"] = strings.NewReplacer(`	"net/http"
)`, `	"net/http"
	"time"
)`, `	resp, err := c.HC.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()`, `	for attempt := 0; attempt < 4; attempt++ {
		var resp *http.Response
		resp, err = c.HC.Do(req)
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err`).Replace(baseFiles["client/client.go"])
	m["handler/handler.go"] = strings.Replace(baseFiles["handler/handler.go"], "// Handle retries the client's call.",
		"// Handle retries the client's call.\n//\n// It is called once per request.", 1)
	return m
}

// repo makes the workspace: a git repository with the base commit and
// the head commit on top, checked out at head. It returns the base's hash.
func repo(t *testing.T, dir string) string {
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"}, args...)...)
		cmd.Dir = dir
		cmd.Env = runnerEnv()
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	write := func(files map[string]string) {
		for name, content := range files {
			p := filepath.Join(dir, name)
			if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(content), 0o666); err != nil {
				t.Fatal(err)
			}
		}
	}
	git("init", "-q")
	write(baseFiles)
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	base := git("rev-parse", "HEAD")
	write(headFiles())
	git("add", "-A")
	git("commit", "-q", "-m", "head: the client retries too")
	return base
}

// TestAction runs action.yml on a pull request whose head adds a retry
// layer: the job summary names the added site and the product change,
// the SARIF log is valid JSON with the nested retry among its results,
// and the step outputs name the log and count its findings.
func TestAction(t *testing.T) {
	if testing.Short() {
		t.Skip("builds retrylint and runs it on a git repository; skipped with -short")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Fatal("bash is not on PATH: the action's steps are bash scripts")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is not on PATH: the action compares with the base commit through git")
	}
	a := readAction(t)
	bin := testbin.Retrylint(t, root)
	work := t.TempDir()
	r := &runner{t: t, a: a, workspace: filepath.Join(work, "ws"), temp: filepath.Join(work, "tmp"), summary: filepath.Join(work, "summary.md")}
	for _, d := range []string{r.workspace, r.temp} {
		if err := os.MkdirAll(d, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	base := repo(t, r.workspace)
	r.github = map[string]string{"action_ref": "v0.0.0-test", "event.pull_request.base.sha": base}
	r.inputs = map[string]string{"binary": bin}

	if failed, log := r.run(); failed != "" {
		t.Fatalf("the action failed at %s:\n%s", failed, log)
	}
	summary, err := os.ReadFile(r.summary)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"## Retry review",
		"This change adds 1 retry site, removes 0 and changes 1 (1 in the base, 2 now).",
		"- `handler.Handle`: up to 3 → up to 12 attempts per call (3 × 4): new retry layer in client.(*Client).Send (×4)",
		"| added | ",
		"| `client/client.go:22:2` | `client.(*Client).Send` | `c.HC.Do(req)` → HTTP GET c.URL | up to 4 | new retry site |",
	} {
		if !strings.Contains(string(summary), want) {
			t.Errorf("job summary lacks %q:\n%s", want, summary)
		}
	}

	check := r.outputs["check"]
	sarifFile := filepath.Join(r.workspace, "retrylint.sarif")
	if got := r.expand(a.Outputs["sarif-file"].Value); got != sarifFile || check["sarif-file"] != sarifFile {
		t.Errorf("output sarif-file = %q (step: %q), want %q", got, check["sarif-file"], sarifFile)
	}
	data, err := os.ReadFile(sarifFile)
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Version string
		Runs    []struct {
			Results []struct {
				RuleID    string
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine int }
					}
				}
			}
		}
	}
	if err := json.Unmarshal(data, &log); err != nil || log.Version != "2.1.0" || len(log.Runs) != 1 {
		t.Fatalf("SARIF log: %v, version %q, %d runs:\n%s", err, log.Version, len(log.Runs), data)
	}
	var results []string
	for _, res := range log.Runs[0].Results {
		l := res.Locations[0].PhysicalLocation
		results = append(results, res.RuleID+" "+l.ArtifactLocation.URI+":"+strconv.Itoa(l.Region.StartLine))
	}
	for _, want := range []string{"retrynested handler/handler.go:16", "retrysleep client/client.go:28"} {
		if !slices.Contains(results, want) {
			t.Errorf("SARIF results %q lack %q", results, want)
		}
	}
	if check["findings"] != strconv.Itoa(len(results)) || r.expand(a.Outputs["findings"].Value) != check["findings"] {
		t.Errorf("output findings = %q, want %d", check["findings"], len(results))
	}

	// fail-on-findings fails the job, after writing the summary.
	r.inputs["fail-on-findings"] = "true"
	r.summary = filepath.Join(work, "summary2.md")
	if failed, _ := r.run(); !strings.HasPrefix(failed, "Fail on findings:") {
		t.Errorf("with fail-on-findings, the action failed at %q; want the last step", failed)
	}
	if s, _ := os.ReadFile(r.summary); !strings.Contains(string(s), "## Retry review") {
		t.Errorf("with fail-on-findings, no review in the summary:\n%s", s)
	}

	// A push has no base: the summary holds the whole inventory.
	r.inputs = map[string]string{"binary": bin, "base": ""}
	r.summary = filepath.Join(work, "summary3.md")
	if failed, log := r.run(); failed != "" {
		t.Fatalf("without a base, the action failed at %s:\n%s", failed, log)
	}
	if s, _ := os.ReadFile(r.summary); !strings.Contains(string(s), "## Retry inventory\n\n2 retry sites, riskiest first") {
		t.Errorf("without a base, the summary is not the inventory:\n%s", s)
	}
}
