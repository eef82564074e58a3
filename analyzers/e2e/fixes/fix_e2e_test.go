package fixes_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/format"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/retrylint/retrylint/internal/testbin"
)

// TestFixesCompile copies every fix test package to a module that
// requires the real budget library, runs `retrylint -fix` over it, and
// checks that the result equals the golden files, builds, vets clean, and
// that a second -fix changes nothing.
//
// A golden file may be a txtar archive with one section per fix message
// (analysistest's form for diagnostics offering alternative fixes). Its
// first section is then what -fix gives, which applies the first fix of
// each diagnostic; the alternatives, which only an editor applies, are
// checked by TestAlternativeFixesCompile.
func TestFixesCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and a module; skipped with -short")
	}
	t.Parallel()
	root, bin, goldens, mods := fixSetup(t, 2)
	mod, all := mods[0], mods[1]
	want := map[string][]byte{}
	allFiles := map[string][]byte{}
	dirs := map[string]string{} // package dir -> analyzer
	for _, g := range goldens {
		rel, _ := filepath.Rel(filepath.Join(root, "analyzers"), g)
		analyzer := strings.Split(rel, string(filepath.Separator))[0]
		name := analyzer + "_" + filepath.Base(filepath.Dir(g))
		pkgDir := filepath.Join(mod, name)
		dirs[name] = analyzer
		for _, d := range []string{pkgDir, filepath.Join(all, name)} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		src, err := os.ReadFile(strings.TrimSuffix(g, ".golden"))
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(pkgDir, strings.TrimSuffix(filepath.Base(g), ".golden"))
		if err := os.WriteFile(dst, src, 0o644); err != nil {
			t.Fatal(err)
		}
		allDst := filepath.Join(all, name, filepath.Base(dst))
		if err := os.WriteFile(allDst, src, 0o644); err != nil {
			t.Fatal(err)
		}
		allFiles[allDst] = nil
		golden, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		if ar := goldenArchive(t, g); ar != nil {
			golden = ar.Files[0].Data
		}
		want[dst] = golden
	}
	// Each analyzer's fixes alone give its golden files.
	var out []byte
	for name, analyzer := range dirs {
		// -NAME.tests: the fixtests packages fix a _test.go file.
		fix := exec.Command(bin, "-"+analyzer, "-"+analyzer+".tests", "-fix", "./"+name)
		fix.Dir = mod
		o, _ := fix.CombinedOutput()
		out = append(out, o...)
	}
	for dst, golden := range want {
		got, err := os.ReadFile(dst)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, golden) {
			t.Errorf("%s: retrylint -fix result differs from the golden file:\n%s\n--- output:\n%s", dst, got, out)
		}
	}
	run(t, mod, "go", "vet", "./...") // type-checks every package: no separate go build

	// All analyzers' fixes together apply without conflict, build, vet
	// clean, and a second -fix changes nothing.
	fix := exec.Command(bin, "-fix", "./...")
	fix.Dir = all
	o, _ := fix.CombinedOutput()
	if bytes.Contains(o, []byte("conflict")) {
		t.Errorf("fixes conflicted:\n%s", o)
	}
	run(t, all, "go", "vet", "./...") // type-checks every package: no separate go build
	before := snapshot(t, allFiles)
	again := exec.Command(bin, "-fix", "./...")
	again.Dir = all
	_, _ = again.CombinedOutput()
	if after := snapshot(t, allFiles); after != before {
		t.Errorf("a second -fix changed the files")
	}
}

func snapshot(t *testing.T, files map[string][]byte) string {
	var b strings.Builder
	for _, f := range slices.Sorted(maps.Keys(files)) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString(f)
		b.Write(data)
	}
	return b.String()
}

func run(t *testing.T, dir, name string, args ...string) {
	t.Helper()
	testbin.Run(t, dir, name, args...)
}

// goldenArchive returns the golden file g as a txtar archive, or nil when
// it is a plain Go file.
func goldenArchive(t *testing.T, g string) *txtar.Archive {
	t.Helper()
	ar, err := txtar.ParseFile(g)
	if err != nil {
		t.Fatal(err)
	}
	if len(ar.Files) == 0 {
		return nil
	}
	if len(bytes.TrimSpace(ar.Comment)) > 0 {
		t.Fatalf("%s: a golden archive has no leading comment", g)
	}
	return ar
}

// TestAlternativeFixesCompile applies, one at a time, every fix that is
// not the first of its diagnostic (the alternatives an editor offers and
// -fix never applies) to the fix test packages, as the editor would: the
// edits alone, no import clean-up or formatting afterwards. Each result
// must build and vet clean against the real budget library, and where
// the fix is the only one of its message in a file with a golden
// archive, equal that section once formatted. The archive sections
// themselves must build too.
func TestAlternativeFixesCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and a module; skipped with -short")
	}
	t.Parallel()
	root, bin, goldens, mods := fixSetup(t, 2)
	orig, alt := mods[0], mods[1]
	// pkg -> file name -> original source; file path in orig -> archive
	pkgs := map[string]map[string][]byte{}
	archives := map[string]*txtar.Archive{}
	analyzerOf := map[string]string{}
	for _, g := range goldens {
		rel, _ := filepath.Rel(filepath.Join(root, "analyzers"), g)
		analyzer := strings.Split(rel, string(filepath.Separator))[0]
		name := analyzer + "_" + filepath.Base(filepath.Dir(g))
		analyzerOf[name] = analyzer
		src, err := os.ReadFile(strings.TrimSuffix(g, ".golden"))
		if err != nil {
			t.Fatal(err)
		}
		base := strings.TrimSuffix(filepath.Base(g), ".golden")
		if pkgs[name] == nil {
			pkgs[name] = map[string][]byte{}
		}
		pkgs[name][base] = src
		if err := os.MkdirAll(filepath.Join(orig, name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(orig, name, base), src, 0o644); err != nil {
			t.Fatal(err)
		}
		if ar := goldenArchive(t, g); ar != nil {
			archives[filepath.Join(name, base)] = ar
		}
	}

	type edit struct {
		Filename   string
		Start, End int
		New        string
	}
	type fix struct {
		Message string
		Edits   []edit
	}
	type diagnostic struct {
		Posn           string
		SuggestedFixes []fix `json:"suggested_fixes"`
	}
	var alts []fix
	for _, name := range slices.Sorted(maps.Keys(pkgs)) {
		cmd := exec.Command(bin, "-"+analyzerOf[name], "-"+analyzerOf[name]+".tests", "-json", "./"+name)
		cmd.Dir = orig
		out, _ := cmd.Output()
		var tree map[string]map[string]json.RawMessage
		if err := json.Unmarshal(out, &tree); err != nil {
			t.Fatalf("%s: decoding -json output: %v\n%s", name, err, out)
		}
		for _, byAnalyzer := range tree {
			for an, raw := range byAnalyzer {
				var diags []diagnostic
				if err := json.Unmarshal(raw, &diags); err != nil {
					t.Fatalf("%s: %s: %s", name, an, raw)
				}
				for _, d := range diags {
					if len(d.SuggestedFixes) > 1 {
						alts = append(alts, d.SuggestedFixes[1:]...)
					}
				}
			}
		}
	}

	// How many fixes of each message edit each file: a section of an
	// archive is the sum of them all.
	perFileMsg := map[string]int{}
	for _, f := range alts {
		seen := map[string]bool{}
		for _, e := range f.Edits {
			if k := e.Filename + "\x00" + f.Message; !seen[k] {
				seen[k] = true
				perFileMsg[k]++
			}
		}
	}
	sectionsChecked := 0
	for i, f := range alts {
		byFile := map[string][]edit{}
		for _, e := range f.Edits {
			byFile[e.Filename] = append(byFile[e.Filename], e)
		}
		var pkg string
		for fn := range byFile {
			rel, err := filepath.Rel(orig, fn)
			if err != nil || strings.HasPrefix(rel, "..") {
				t.Fatalf("fix %q edits %s outside the test packages", f.Message, fn)
			}
			p := filepath.Dir(rel)
			if pkg != "" && p != pkg {
				t.Fatalf("fix %q edits two packages", f.Message)
			}
			pkg = p
		}
		dir := filepath.Join(alt, fmt.Sprintf("%s_alt%d", pkg, i))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for base, src := range pkgs[pkg] {
			fn := filepath.Join(orig, pkg, base)
			got := src
			if es := byFile[fn]; len(es) > 0 {
				slices.SortStableFunc(es, func(a, b edit) int { return a.Start - b.Start })
				var buf bytes.Buffer
				at := 0
				for _, e := range es {
					if e.Start < at {
						t.Fatalf("fix %q: overlapping edits in %s", f.Message, fn)
					}
					buf.Write(src[at:e.Start])
					buf.WriteString(e.New)
					at = e.End
				}
				buf.Write(src[at:])
				got = buf.Bytes()
				ar := archives[filepath.Join(pkg, base)]
				if ar != nil && perFileMsg[fn+"\x00"+f.Message] == 1 {
					idx := slices.IndexFunc(ar.Files, func(s txtar.File) bool { return s.Name == f.Message })
					if idx < 0 {
						t.Errorf("%s: golden archive has no section %q", fn, f.Message)
					} else {
						sectionsChecked++
						formatted, err := format.Source(got)
						if err != nil {
							t.Errorf("%s: fix %q gives invalid Go: %v\n%s", fn, f.Message, err, got)
						} else if !bytes.Equal(formatted, ar.Files[idx].Data) {
							t.Errorf("%s: fix %q applied alone differs from its golden section:\n%s", fn, f.Message, formatted)
						}
					}
				}
			}
			if err := os.WriteFile(filepath.Join(dir, base), got, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	// The sections of one message, across the files of a package, make a
	// whole package.
	type pkgMsg struct{ pkg, msg string }
	sections := map[pkgMsg]map[string][]byte{}
	for key, ar := range archives {
		pkg, base := filepath.Dir(key), filepath.Base(key)
		for _, s := range ar.Files {
			k := pkgMsg{pkg, s.Name}
			if sections[k] == nil {
				sections[k] = map[string][]byte{}
			}
			sections[k][base] = s.Data
		}
	}
	n := 0
	for k, files := range sections {
		n++
		dir := filepath.Join(alt, fmt.Sprintf("%s_section%d", k.pkg, n))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for b, src := range pkgs[k.pkg] {
			if data, ok := files[b]; ok {
				src = data
			}
			if err := os.WriteFile(filepath.Join(dir, b), src, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(archives) > 0 && (len(alts) == 0 || sectionsChecked == 0) {
		t.Errorf("golden archives exist but no alternative fix was checked against one (%d alternatives)", len(alts))
	}
	run(t, alt, "go", "vet", "./...") // type-checks every package: no separate go build
}

// fixSetup returns the checkout root, the built binary, every fix test
// package's golden files, and n empty modules that require the real
// budget library of this checkout.
func fixSetup(t *testing.T, n int) (root, bin string, goldens, mods []string) {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	bin = testbin.Retrylint(t, root)
	goldens, err = filepath.Glob(filepath.Join(root, "analyzers", "*", "testdata", "src", "fix*", "*.go.golden"))
	if err != nil || len(goldens) == 0 {
		t.Fatalf("no golden files found (%v)", err)
	}
	gomod := "module example.com/fixed\n\ngo 1.26\n\nrequire github.com/retrylint/retrylint/budget v0.0.0\n\nreplace github.com/retrylint/retrylint/budget => " + filepath.Join(root, "budget") + "\n"
	for i := 0; i < n; i++ {
		m := t.TempDir()
		if err := os.WriteFile(filepath.Join(m, "go.mod"), []byte(gomod), 0o644); err != nil {
			t.Fatal(err)
		}
		mods = append(mods, m)
	}
	return root, bin, goldens, mods
}
