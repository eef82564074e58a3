package plugin_test

// End-to-end tests of .pre-commit-hooks.yaml with the real pre-commit. The
// hook repository is a fresh clone of this repository's HEAD: what a user
// gets at a `rev:`, and what CI sees. Uncommitted changes are not tested;
// commit them first.

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// precommit returns the path of pre-commit.
func precommit(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: skipping the pre-commit end-to-end tests")
	}
	bin, err := exec.LookPath("pre-commit")
	if err != nil {
		const how = "pre-commit is not on PATH; run .ci/precommit.sh test (it installs the Debian package)"
		if os.Getenv("CI") != "" {
			t.Fatal(how)
		}
		t.Skip(how)
	}
	return bin
}

// cmdEnv is the environment of every git and pre-commit command here.
func cmdEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		// A test run from inside a git hook must not touch the outer repo.
		if !strings.HasPrefix(kv, "GIT_") {
			env = append(env, kv)
		}
	}
	gomodcache, _ := exec.Command("go", "env", "GOMODCACHE").Output()
	env = append(env,
		"GIT_AUTHOR_NAME=retrylint test", "GIT_AUTHOR_EMAIL=test@retrylint.invalid",
		"GIT_COMMITTER_NAME=retrylint test", "GIT_COMMITTER_EMAIL=test@retrylint.invalid",
		"GIT_CONFIG_NOSYSTEM=1",
		// pre-commit's golang environment has a GOPATH of its own; keep
		// the module cache so `go install ./...` does not download the
		// hook's dependencies again (and works without a proxy).
		"GOMODCACHE="+strings.TrimSpace(string(gomodcache)),
		"GOWORK=off",
		"NO_COLOR=1",
	)
	return append(env, extra...)
}

// command runs name in dir and returns its outcome; only failing to start
// is fatal.
func command(t *testing.T, dir string, env []string, name string, args ...string) run {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := run{stdout: stdout.String(), stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		r.rc = exit.ExitCode()
	case err != nil:
		t.Fatalf("%s %s: %v", name, strings.Join(args, " "), err)
	}
	t.Logf("%s %s: exit code %d", filepath.Base(name), strings.Join(args, " "), r.rc)
	return r
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	r := command(t, dir, cmdEnv(), "git", args...)
	if r.rc != 0 {
		t.Fatalf("git %s:\n%s", strings.Join(args, " "), r)
	}
	return strings.TrimSpace(r.stdout)
}

// hookRepo clones HEAD of this repository and returns the clone's path and
// commit.
func hookRepo(t *testing.T) (string, string) {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "retrylint")
	git(t, root, "clone", "--quiet", "--no-hardlinks", root, dir)
	return dir, git(t, dir, "rev-parse", "HEAD")
}

// sampleRepo copies testdata/precommit/<name> into a new git repository
// with one commit and returns its path.
func sampleRepo(t *testing.T, name string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "testdata", "precommit", name))); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "init", "--quiet", "--initial-branch=main")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "--quiet", "--no-verify", "-m", "initial")
	return dir
}

// consumerConfig writes a .pre-commit-config.yaml using hook id from repo
// at rev, with args (nil: the hook's defaults), to file.
func consumerConfig(t *testing.T, file, repo, rev string, hooks map[string][]string) {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "repos:\n  - repo: %s\n    rev: %s\n    hooks:\n", repo, rev)
	for _, id := range []string{"retrylint", "retrylint-vet", "retrylint-system"} {
		args, ok := hooks[id]
		if !ok {
			continue
		}
		fmt.Fprintf(&b, "      - id: %s\n", id)
		if args != nil {
			fmt.Fprintf(&b, "        args: [%s]\n", strings.Join(args, ", "))
		}
	}
	if err := os.WriteFile(file, []byte(b.String()), 0o666); err != nil {
		t.Fatal(err)
	}
}

// TestPrecommitTryRepo runs `pre-commit try-repo <hook repo> retrylint`
// the way a user evaluates a hook repository: it fails on retry
// anti-patterns with the findings shown, and passes on clean code.
func TestPrecommitTryRepo(t *testing.T) {
	pc := precommit(t)
	repo, _ := hookRepo(t)
	env := cmdEnv("PRE_COMMIT_HOME=" + t.TempDir())

	bad := command(t, sampleRepo(t, "bad"), env, pc, "try-repo", repo, "retrylint", "--all-files", "--verbose")
	if bad.rc != 1 {
		t.Errorf("bad: want exit code 1, got:\n%s", bad)
	}
	for _, want := range []string{"Failed", "main.go:", "(retrysleep)"} {
		if !strings.Contains(bad.stdout, want) {
			t.Errorf("bad: output lacks %q:\n%s", want, bad)
		}
	}

	clean := command(t, sampleRepo(t, "clean"), env, pc, "try-repo", repo, "retrylint", "--all-files", "--verbose")
	if clean.rc != 0 || !strings.Contains(clean.stdout, "Passed") {
		t.Errorf("clean: want exit code 0 and Passed, got:\n%s", clean)
	}
}

// TestPrecommitHooks pins a commit in a consumer .pre-commit-config.yaml,
// as users do, and checks all three hooks and that hook args reach the
// analyzers. The hook environment is installed once and reused.
func TestPrecommitHooks(t *testing.T) {
	pc := precommit(t)
	repo, rev := hookRepo(t)
	home := t.TempDir()

	// The system hook runs whatever retrylint is on PATH.
	bin := filepath.Join(t.TempDir(), "bin")
	if r := command(t, repo, cmdEnv(), "go", "build", "-o", filepath.Join(bin, "retrylint"), "./cmd/retrylint"); r.rc != 0 {
		t.Fatalf("building retrylint:\n%s", r)
	}
	env := cmdEnv("PRE_COMMIT_HOME="+home, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	config := filepath.Join(t.TempDir(), "pre-commit-config.yaml")
	runHook := func(dir, id string, args []string) run {
		t.Helper()
		consumerConfig(t, config, repo, rev, map[string][]string{id: args})
		return command(t, dir, env, pc, "run", "--config", config, "--all-files", "--verbose", id)
	}
	bad, clean := sampleRepo(t, "bad"), sampleRepo(t, "clean")

	for _, id := range []string{"retrylint", "retrylint-vet", "retrylint-system"} {
		if r := runHook(bad, id, nil); r.rc != 1 || !strings.Contains(r.stdout, "main.go:") {
			t.Errorf("%s on bad: want exit code 1 and findings in main.go, got:\n%s", id, r)
		}
		if r := runHook(clean, id, nil); r.rc != 0 {
			t.Errorf("%s on clean: want exit code 0, got:\n%s", id, r)
		}
	}

	// Hook args replace the defaults and reach the analyzers' flags.
	r := runHook(bad, "retrylint", []string{"-retrysleep=false", "./..."})
	if strings.Contains(r.stdout, "(retrysleep)") {
		t.Errorf("args -retrysleep=false: retrysleep still reports:\n%s", r)
	}
	if r.rc != 1 {
		t.Errorf("args -retrysleep=false: the other analyzers should still fail the hook:\n%s", r)
	}
	r = runHook(bad, "retrylint", []string{"-retryidempotency", "./..."})
	if r.rc != 1 || !strings.Contains(r.stdout, "(retryidempotency)") {
		t.Errorf("args -retryidempotency: want a retryidempotency finding (Charge), got:\n%s", r)
	}
	r = runHook(bad, "retrylint", []string{"-retryidempotency", "-retryidempotency.headers=X-Request-Token", "./..."})
	if r.rc != 0 {
		t.Errorf("args -retryidempotency.headers=X-Request-Token: want the hook to pass, got:\n%s", r)
	}
	r = runHook(bad, "retrylint-vet", []string{"-retryidempotency", "-retryidempotency.headers=X-Request-Token", "./..."})
	if r.rc != 0 {
		t.Errorf("retrylint-vet with -retryidempotency.headers=X-Request-Token: want the hook to pass, got:\n%s", r)
	}
}

// TestPrecommitInstall installs the hook in a repository and checks that
// committing retry anti-patterns is blocked while clean code commits.
func TestPrecommitInstall(t *testing.T) {
	pc := precommit(t)
	repo, rev := hookRepo(t)
	env := cmdEnv("PRE_COMMIT_HOME=" + t.TempDir())

	for _, c := range []struct {
		name    string
		blocked bool
	}{{"bad", true}, {"clean", false}} {
		dir := sampleRepo(t, c.name)
		consumerConfig(t, filepath.Join(dir, ".pre-commit-config.yaml"), repo, rev, map[string][]string{"retrylint": nil})
		git(t, dir, "add", ".pre-commit-config.yaml")
		git(t, dir, "commit", "--quiet", "--no-verify", "-m", "add pre-commit config")
		if r := command(t, dir, env, pc, "install"); r.rc != 0 {
			t.Fatalf("pre-commit install:\n%s", r)
		}
		before := git(t, dir, "rev-parse", "HEAD")

		// The hook runs only when a commit touches a .go file.
		f, err := os.OpenFile(filepath.Join(dir, "main.go"), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintln(f, "\n// touched")
		f.Close()
		r := command(t, dir, env, "git", "commit", "-a", "-m", "touch main.go")
		after := git(t, dir, "rev-parse", "HEAD")
		out := r.stdout + r.stderr
		switch {
		case c.blocked && (r.rc == 0 || after != before):
			t.Errorf("%s: the commit went through:\n%s", c.name, r)
		case c.blocked && !strings.Contains(out, "main.go:"):
			t.Errorf("%s: the blocked commit does not show the findings:\n%s", c.name, r)
		case !c.blocked && (r.rc != 0 || after == before):
			t.Errorf("%s: the commit was blocked:\n%s", c.name, r)
		}
	}
}
