package analyzers_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// corpusDir is an acceptance corpus of realistic retry and non-retry
// loops; its EXPECTED.txt lists, per SPEC.md, every finding as
// "file.go:Func: analyzer" (methods as Type.Method, closures under their
// enclosing function).
var corpusDir = filepath.Join("..", "testdata", "corpus")

// corpusArgs are the flags the corpus is checked with: the in-house
// limiter is a budget and PayPal-Request-Id a key header by configuration.
var corpusArgs = []string{
	"-json",
	"-retrybudget.budget-funcs=example.com/corpus/internal/throttle.Limiter.Allow",
	"-retryidempotency.headers=PayPal-Request-Id",
}

// corpusExpectation is EXPECTED.txt: the findings the SPEC requires, and
// the known analyzer bugs (lines in the "# known:" section, each "FN
// <finding>" for a finding the SPEC requires that is not reported, or
// "FP <finding>" for one reported that the SPEC says is silent).
type corpusExpectation struct {
	want    []string
	knownFN []string
	knownFP []string
	// knownFixVet lists "file.go:Func" whose code go vet rejects after
	// -fix ("FIXVET <file.go:Func>" lines in the known section).
	knownFixVet []string
}

func readCorpusExpectation(t *testing.T) corpusExpectation {
	t.Helper()
	f, err := os.Open(filepath.Join(corpusDir, "EXPECTED.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var e corpusExpectation
	known := false
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		l := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(l, "# known:") {
			known = true
			continue
		}
		if i := strings.Index(l, "#"); i >= 0 {
			l = strings.TrimSpace(l[:i])
		}
		if l == "" {
			continue
		}
		if !known {
			e.want = append(e.want, l)
			continue
		}
		kind, entry, ok := strings.Cut(l, " ")
		switch {
		case ok && kind == "FN":
			e.knownFN = append(e.knownFN, strings.TrimSpace(entry))
		case ok && kind == "FP":
			e.knownFP = append(e.knownFP, strings.TrimSpace(entry))
		case ok && kind == "FIXVET":
			e.knownFixVet = append(e.knownFixVet, strings.TrimSpace(entry))
		default:
			t.Fatalf("EXPECTED.txt:%d: a known line is \"FN <finding>\", \"FP <finding>\" or \"FIXVET <file.go:Func>\": %q", n, l)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return e
}

// jsonDiagnostic is the part of a -json diagnostic the test reads.
type jsonDiagnostic struct {
	Posn    string `json:"posn"`
	Message string `json:"message"`
}

// corpusFindings runs the binary over the corpus and returns its
// findings as "file.go:Func: analyzer", deduplicated, with one example
// message per finding.
func corpusFindings(t *testing.T, bin, dir string) ([]string, map[string]string) {
	t.Helper()
	cmd := exec.Command(bin, append(corpusArgs, "./...")...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok {
		if ee.ExitCode() != 3 {
			t.Fatalf("retrylint exit code %d, want 3\n%s", ee.ExitCode(), ee.Stderr)
		}
	} else if err != nil {
		t.Fatal(err)
	} else {
		t.Fatalf("retrylint exit code 0, want 3 (findings)")
	}
	var tree map[string]map[string]json.RawMessage
	if err := json.Unmarshal(out, &tree); err != nil {
		t.Fatalf("decoding -json output: %v\n%s", err, out)
	}
	enclosing := newFuncIndex(t)
	seen := map[string]string{}
	for pkg, byAnalyzer := range tree {
		for analyzer, raw := range byAnalyzer {
			var diags []jsonDiagnostic
			if err := json.Unmarshal(raw, &diags); err != nil {
				t.Errorf("%s: %s: not a diagnostic list: %s", pkg, analyzer, raw)
				continue
			}
			for _, d := range diags {
				key := enclosing.at(t, dir, d.Posn) + ": " + analyzer
				if _, ok := seen[key]; !ok {
					seen[key] = d.Posn + ": " + d.Message
				}
			}
		}
	}
	got := make([]string, 0, len(seen))
	for k := range seen {
		got = append(got, k)
	}
	slices.Sort(got)
	return got, seen
}

// funcIndex maps a position to its file and enclosing top-level function.
type funcIndex struct {
	fset  *token.FileSet
	files map[string]*ast.File
}

func newFuncIndex(t *testing.T) *funcIndex {
	return &funcIndex{fset: token.NewFileSet(), files: map[string]*ast.File{}}
}

// at turns "/abs/file.go:12:3" into "rel/file.go:Func".
func (x *funcIndex) at(t *testing.T, dir, posn string) string {
	t.Helper()
	rest, col, ok1 := cutLast(posn, ":")
	file, line, ok2 := cutLast(rest, ":")
	ln, err1 := strconv.Atoi(line)
	cn, err2 := strconv.Atoi(col)
	if !ok1 || !ok2 || err1 != nil || err2 != nil {
		t.Fatalf("cannot parse position %q", posn)
	}
	absDir, _ := filepath.Abs(dir)
	if r, err := filepath.EvalSymlinks(absDir); err == nil {
		absDir = r
	}
	if r, err := filepath.EvalSymlinks(file); err == nil {
		file = r
	}
	rel, err := filepath.Rel(absDir, file)
	if err != nil || strings.HasPrefix(rel, "..") {
		t.Fatalf("finding outside the corpus: %s", posn)
	}
	rel = filepath.ToSlash(rel)
	f, ok := x.files[file]
	if !ok {
		f, err = parser.ParseFile(x.fset, file, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		x.files[file] = f
	}
	tf := x.fset.File(f.Pos())
	if ln < 1 || ln > tf.LineCount() {
		t.Fatalf("position out of range: %s", posn)
	}
	pos := tf.LineStart(ln) + token.Pos(cn-1)
	for _, decl := range f.Decls {
		fd, ok := decl.(*ast.FuncDecl)
		if !ok || pos < fd.Pos() || pos > fd.End() {
			continue
		}
		return rel + ":" + funcName(fd)
	}
	return rel + ":<top level>"
}

func cutLast(s, sep string) (before, after string, ok bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}

// funcName is Func, or Type.Method for a method.
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	typ := fd.Recv.List[0].Type
	for {
		switch x := typ.(type) {
		case *ast.StarExpr:
			typ = x.X
			continue
		case *ast.IndexExpr:
			typ = x.X
			continue
		case *ast.IndexListExpr:
			typ = x.X
			continue
		case *ast.ParenExpr:
			typ = x.X
			continue
		}
		break
	}
	if id, ok := typ.(*ast.Ident); ok {
		return id.Name + "." + fd.Name.Name
	}
	return fd.Name.Name
}

// TestCorpus checks retrylint against the acceptance corpus: every
// finding the SPEC requires is reported, and nothing else. Known analyzer
// bugs listed in EXPECTED.txt are logged, not failed.
func TestCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs it over the corpus; skipped with -short")
	}
	t.Parallel()
	bin := retrylintBinary(t)
	exp := readCorpusExpectation(t)
	got, msgs := corpusFindings(t, bin, corpusDir)

	want := slices.Clone(exp.want)
	slices.Sort(want)
	want = slices.Compact(want)
	var missing, unexpected []string
	for _, w := range want {
		if !slices.Contains(got, w) {
			missing = append(missing, w)
		}
	}
	for _, g := range got {
		if !slices.Contains(want, g) {
			unexpected = append(unexpected, g)
		}
	}

	// Known bugs: logged while open, and noted when they go away.
	for _, k := range exp.knownFN {
		if slices.Contains(got, k) {
			t.Logf("known false negative now reported; move it out of # known: %s", k)
			unexpected = slices.DeleteFunc(unexpected, func(u string) bool { return u == k })
		} else {
			t.Logf("known false negative (analyzer bug): %s", k)
		}
	}
	for _, k := range exp.knownFP {
		if slices.Contains(got, k) {
			t.Logf("known false positive (analyzer bug): %s\n\t%s", k, msgs[k])
			unexpected = slices.DeleteFunc(unexpected, func(u string) bool { return u == k })
		} else {
			t.Logf("known false positive no longer reported; drop it from # known: %s", k)
		}
	}

	if len(missing) > 0 || len(unexpected) > 0 {
		var b strings.Builder
		fmt.Fprintf(&b, "retrylint disagrees with %s\n", filepath.Join(corpusDir, "EXPECTED.txt"))
		if len(missing) > 0 {
			b.WriteString("missing (false negatives: the SPEC requires them):\n")
			for _, m := range missing {
				fmt.Fprintf(&b, "  - %s\n", m)
			}
		}
		if len(unexpected) > 0 {
			b.WriteString("unexpected (false positives: the SPEC says silent):\n")
			for _, u := range unexpected {
				fmt.Fprintf(&b, "  + %s\n\t%s\n", u, msgs[u])
			}
		}
		t.Error(b.String())
	}
}

var vetLine = regexp.MustCompile(`^(?:vet: )?(\S+\.go):(\d+):(\d+): (.*)$`)

// TestCorpusFix applies every first fix to a copy of the corpus: the
// result must build, and go vet must find nothing in it (known fix bugs,
// "FIXVET file.go:Func" in EXPECTED.txt, are logged instead).
func TestCorpusFix(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and the corpus; skipped with -short")
	}
	t.Parallel()
	bin := retrylintBinary(t)
	exp := readCorpusExpectation(t)
	dir := copyCorpus(t)
	fix := exec.Command(bin, append(corpusArgs[1:], "-fix", "./...")...)
	fix.Dir = dir
	if out, err := fix.CombinedOutput(); bytes.Contains(out, []byte("conflict")) {
		t.Errorf("fixes conflicted (%v):\n%s", err, out)
	}
	// go vet type-checks every package (a fix that does not compile is
	// reported at its position), so there is no separate go build.
	vet := exec.Command("go", "vet", "./...")
	vet.Dir = dir
	out, err := vet.CombinedOutput()
	idx := newFuncIndex(t)
	matched := 0
	for _, l := range strings.Split(string(out), "\n") {
		m := vetLine.FindStringSubmatch(strings.TrimSpace(l))
		if m == nil {
			continue
		}
		matched++
		file := m[1]
		if !filepath.IsAbs(file) {
			file = filepath.Join(dir, file)
		}
		where := idx.at(t, dir, file+":"+m[2]+":"+m[3])
		if slices.Contains(exp.knownFixVet, where) {
			t.Logf("known fix bug: go vet after -fix in %s: %s", where, m[4])
			continue
		}
		t.Errorf("go vet after -fix in %s: %s", where, m[4])
	}
	if err != nil && matched == 0 {
		t.Errorf("go vet after -fix failed without a position: %v\n%s", err, out)
	}
}

// copyCorpus copies the corpus to a temp dir, pointing its replace at the
// budget module of this checkout.
func copyCorpus(t *testing.T) string { return copyModule(t, corpusDir) }
