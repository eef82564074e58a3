package driver

import (
	"bytes"
	"cmp"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/tools/go/packages"
)

// budgetPath is the module that our fixes import.
const budgetPath = "github.com/retrylint/retrylint/budget"

type edit struct {
	start, end int
	new        string
}

// overlaps reports whether two different edits cannot both be applied:
// their ranges intersect, or both insert at the same offset (the
// order of the insertions would be arbitrary).
func (e edit) overlaps(o edit) bool {
	if e.start == e.end && o.start == o.end {
		return e.start == o.start
	}
	return e.start < o.end && o.start < e.end
}

// applyFixes applies the first suggested fix of each finding, or with
// -diff prints what it would change. It marks the fixed findings and
// reports whether any file changes.
//
// Fixes are taken in source order. An edit identical to one already
// accepted (the same fix reached through two diagnostics) is applied
// once; a fix with an edit that overlaps a different accepted edit is
// skipped whole and said on stderr. Generated files and cgo files are
// never edited.
func (d *run) applyFixes(findings []*finding) (changed bool, err error) {
	accepted := make(map[string][]edit) // by file name
	pkgOf := make(map[string]*packages.Package)
	generated := make(map[string]bool)
	isGenerated := func(pkg *packages.Package, name string) bool {
		g, ok := generated[name]
		if !ok {
			g = generatedFile(pkg, name)
			generated[name] = g
		}
		return g
	}

	for _, f := range findings {
		if len(f.diag.SuggestedFixes) == 0 {
			continue
		}
		fix := f.diag.SuggestedFixes[0]
		fset := f.pkg.Fset
		edits := make(map[string][]edit)
		skip := ""
		for _, te := range fix.TextEdits {
			start, end := fset.Position(te.Pos), fset.Position(cmp.Or(te.End, te.Pos))
			name := start.Filename
			if isGenerated(f.pkg, name) {
				skip = "it edits generated file " + d.rel(name)
				break
			}
			if tf := fset.File(te.Pos); tf == nil || tf.Name() != name {
				// A cgo-processed file (or one with //line directives):
				// its offsets are those of the file the compiler saw.
				skip = "it edits cgo file " + d.rel(name)
				break
			}
			edits[name] = append(edits[name], edit{start.Offset, end.Offset, string(te.NewText)})
		}
		if skip == "" {
		conflict:
			for name, es := range edits {
				for _, e := range es {
					for _, a := range accepted[name] {
						if e != a && e.overlaps(a) {
							skip = "it conflicts with another fix"
							break conflict
						}
					}
				}
			}
		}
		if skip != "" {
			fmt.Fprintf(d.stderr, "retrylint: %s: skipped fix %q (%s): %s\n",
				posString(f.posn, d.rel), fix.Message, f.analyzer.Name, skip)
			continue
		}
		for name, es := range edits {
			for _, e := range es {
				if !slices.Contains(accepted[name], e) {
					accepted[name] = append(accepted[name], e)
				}
			}
			if pkgOf[name] == nil {
				pkgOf[name] = f.pkg
			}
		}
		f.fixApplied = true
	}

	// Compute every new file before writing any, so that a fix that
	// breaks the syntax leaves the tree untouched.
	names := make([]string, 0, len(accepted))
	for name := range accepted {
		names = append(names, name)
	}
	slices.Sort(names)
	newContent := make(map[string][]byte)
	for _, name := range names {
		old, err := os.ReadFile(name)
		if err != nil {
			return false, fmt.Errorf("applying fixes: %v", err)
		}
		out, err := applyEdits(old, accepted[name])
		if err != nil {
			return false, fmt.Errorf("applying fixes to %s: %v", d.rel(name), err)
		}
		if strings.HasSuffix(name, ".go") {
			formatted, err := format.Source(out)
			if err != nil {
				return false, fmt.Errorf("fixes to %s produce invalid Go, no file changed: %v", d.rel(name), firstLine(err.Error()))
			}
			out = formatted
		}
		if !bytes.Equal(old, out) {
			newContent[name] = out
			changed = true
		}
	}

	for _, name := range names {
		out, ok := newContent[name]
		if !ok {
			continue
		}
		if d.opts.diff {
			// "a/" and "b/" make the patch apply with git apply or
			// patch -p1 from the working directory.
			oldName, newName := name, name
			if rel := d.rel(name); !filepath.IsAbs(rel) {
				oldName, newName = "a/"+filepath.ToSlash(rel), "b/"+filepath.ToSlash(rel)
			}
			d.stdout.Write(unifiedDiff(oldName, newName, d.readFile(name), out, 3))
			continue
		}
		mode := os.FileMode(0o666)
		if fi, err := os.Stat(name); err == nil {
			mode = fi.Mode().Perm()
		}
		if err := os.WriteFile(name, out, mode); err != nil {
			return changed, fmt.Errorf("applying fixes: %v", err)
		}
	}
	if !d.opts.diff {
		d.checkBudgetRequire(newContent, pkgOf)
	}
	return changed, nil
}

// applyEdits applies non-overlapping edits to src.
func applyEdits(src []byte, edits []edit) ([]byte, error) {
	edits = slices.Clone(edits)
	slices.SortStableFunc(edits, func(a, b edit) int {
		return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(a.end, b.end))
	})
	var out bytes.Buffer
	last := 0
	for _, e := range edits {
		if e.start < last || e.end < e.start || e.end > len(src) {
			return nil, fmt.Errorf("edit at offset %d..%d is out of range or overlaps", e.start, e.end)
		}
		out.Write(src[last:e.start])
		out.WriteString(e.new)
		last = e.end
	}
	out.Write(src[last:])
	return out.Bytes(), nil
}

// noteUnfixable says in one line on stderr which findings left after -fix
// stand in files fixes never edit (generated files, cgo files), where the
// analyzers offer none: running -fix again will not change them.
func (d *run) noteUnfixable(findings []*finding) {
	n := 0
	var files []string
	for _, f := range findings {
		if len(f.diag.SuggestedFixes) > 0 || !unfixableFile(f) {
			continue
		}
		n++
		if name := d.rel(f.posn.Filename); !slices.Contains(files, name) {
			files = append(files, name)
		}
	}
	if n == 0 {
		return
	}
	slices.Sort(files)
	what := "findings are"
	if n == 1 {
		what = "finding is"
	}
	fmt.Fprintf(d.stderr, "retrylint: %d %s in generated or cgo files, left without fixes: fixes never edit those files (%s)\n", n, what, strings.Join(files, ", "))
}

// unfixableFile reports whether a finding stands in a generated file or
// in a cgo file (one the compiler saw only after cgo rewrote it).
func unfixableFile(f *finding) bool {
	name := f.posn.Filename
	if generatedFile(f.pkg, name) {
		return true
	}
	return slices.Contains(f.pkg.GoFiles, name) && !slices.Contains(f.pkg.CompiledGoFiles, name)
}

// generatedFile reports whether the named file has the standard
// "Code generated ... DO NOT EDIT." header.
func generatedFile(pkg *packages.Package, name string) bool {
	if f := syntax(pkg, name); f != nil {
		return ast.IsGenerated(f)
	}
	if !strings.HasSuffix(name, ".go") {
		return false
	}
	f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.PackageClauseOnly|parser.ParseComments)
	return err == nil && ast.IsGenerated(f)
}

// checkBudgetRequire tells the user to add the budget module when a
// fix made a file import it and the file's module does not require it:
// otherwise the fixed code does not build.
func (d *run) checkBudgetRequire(written map[string][]byte, pkgOf map[string]*packages.Package) {
	said := make(map[string]bool)
	for _, name := range slices.Sorted(maps.Keys(written)) {
		f, err := parser.ParseFile(token.NewFileSet(), name, written[name], parser.ImportsOnly)
		if err != nil || !importsPath(f, budgetPath) {
			continue
		}
		m := pkgOf[name].Module
		if m == nil || m.GoMod == "" || said[m.Dir] || moduleProvides(m.GoMod, budgetPath) {
			continue
		}
		said[m.Dir] = true
		cmd := "go get " + budgetPath + "@latest"
		if m.Dir != d.cwd {
			cmd = "go -C " + d.rel(m.Dir) + " get " + budgetPath + "@latest"
		}
		fmt.Fprintf(d.stderr, "retrylint: fixes use %s; run: %s\n", budgetPath, cmd)
	}
}

func importsPath(f *ast.File, path string) bool {
	for _, imp := range f.Imports {
		if p, err := strconv.Unquote(imp.Path.Value); err == nil && p == path {
			return true
		}
	}
	return false
}

// moduleProvides reports whether the go.mod file is, requires or
// replaces the module path.
func moduleProvides(gomod, path string) bool {
	data, err := os.ReadFile(gomod)
	if err != nil {
		return true // cannot tell; say nothing rather than something wrong
	}
	mf, err := modfile.ParseLax(gomod, data, nil)
	if err != nil {
		return true
	}
	if mf.Module != nil && mf.Module.Mod.Path == path {
		return true
	}
	for _, r := range mf.Require {
		if r.Mod.Path == path {
			return true
		}
	}
	for _, r := range mf.Replace {
		if r.Old.Path == path {
			return true
		}
	}
	return false
}
