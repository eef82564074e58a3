package driver

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// A fingerprint identifies a finding across unrelated edits. It
// deliberately leaves out line numbers, so that inserting code above a
// finding does not make it new.
type fingerprint struct {
	Analyzer string `json:"analyzer"`
	File     string `json:"file"` // relative to the module root, slash-separated
	Func     string `json:"func"` // enclosing function: "(*T).M", "F", "func literal in F", "package-level"
	Code     string `json:"code"` // the reported line(s), whitespace-collapsed
	Index    int    `json:"index"`
	Hash     string `json:"fingerprint"`
}

// fingerprint fills in f.fp for each finding. findings must be sorted
// by position, so that occurrence indexes follow source order.
//
// A grouped finding (one root cause, many sites) that stands at its root
// cause is fingerprinted there like any other: adding, removing or
// moving its sites changes its message and related positions, not its
// fingerprint. One whose root cause is out of view stands at its first
// site, which a new site can displace: it is fingerprinted by its
// package's directory and the root cause's name instead. Either also
// gets the fingerprints its sites had as findings of their own, so that
// a baseline written before grouping still holds it.
func (d *run) fingerprint(findings []*finding) {
	count := make(map[fingerprint]int)
	for _, f := range findings {
		fp := fingerprint{
			Analyzer: f.analyzer.Name,
			File:     d.moduleRel(f),
			Func:     enclosingFunc(f),
			Code:     d.lineCode(f),
		}
		if f.group != "" {
			fp.File = path.Dir(fp.File) + "/"
			fp.Func = "root cause " + f.group
			fp.Code = f.diag.Category
		}
		f.fp = fp.hashed(count)
		if len(f.sites) > 0 {
			f.legacy = d.siteFingerprints(f)
		}
	}
}

// hashed numbers fp among its equals seen so far and sets its hash.
func (fp fingerprint) hashed(count map[fingerprint]int) fingerprint {
	fp.Index = count[fp]
	count[fp]++
	h := sha256.Sum256(fmt.Appendf(nil, "%s\x00%s\x00%s\x00%s\x00%d", fp.Analyzer, fp.File, fp.Func, fp.Code, fp.Index))
	fp.Hash = hex.EncodeToString(h[:16])
	return fp
}

// siteFingerprints returns the hashes the sites of the grouped finding f
// had as findings of their own.
func (d *run) siteFingerprints(f *finding) []string {
	count := make(map[fingerprint]int)
	var out []string
	for _, s := range f.sites {
		site := &finding{
			analyzer: f.analyzer, pkg: f.pkg,
			diag: analysis.Diagnostic{Pos: s.Pos, End: s.End},
			posn: f.pkg.Fset.Position(s.Pos), end: f.pkg.Fset.Position(cmp.Or(s.End, s.Pos)),
		}
		fp := fingerprint{Analyzer: f.analyzer.Name, File: d.moduleRel(site), Func: enclosingFunc(site), Code: d.lineCode(site)}
		out = append(out, fp.hashed(count).Hash)
	}
	return out
}

// moduleRel returns the finding's file relative to its module root,
// or to the working directory outside modules.
func (d *run) moduleRel(f *finding) string {
	root := d.cwd
	if m := f.pkg.Module; m != nil && m.Dir != "" {
		root = m.Dir
	}
	if r, err := filepath.Rel(root, f.posn.Filename); err == nil && filepath.IsLocal(r) {
		return filepath.ToSlash(r)
	}
	return filepath.ToSlash(f.posn.Filename)
}

// lineCode returns the normalized source of the reported lines. A range
// of more than three lines (a whole loop) is cut to its first line,
// so that edits inside a flagged loop body keep it recognized.
func (d *run) lineCode(f *finding) string {
	lines := d.fileLines(f.posn.Filename)
	first, last := f.posn.Line, max(f.end.Line, f.posn.Line)
	if last-first >= 3 {
		last = first
	}
	if first < 1 || last > len(lines) {
		return ""
	}
	// Join returns a lone field as it is, a substring of the whole file:
	// clone it, so that a fingerprint never holds on to its file.
	return strings.Clone(strings.Join(strings.Fields(strings.Join(lines[first-1:last], " ")), " "))
}

// enclosingFunc names the function around the finding.
func enclosingFunc(f *finding) string {
	file := syntax(f.pkg, f.posn.Filename)
	if file == nil {
		return "package-level"
	}
	// Find the declaration by binary search: PathEnclosingInterval from
	// the file lists every declaration of the file for each finding, so
	// a file of thousands of functions with a finding in each was
	// quadratic.
	pos := f.diag.Pos
	i, _ := slices.BinarySearchFunc(file.Decls, pos, func(d ast.Decl, pos token.Pos) int {
		switch {
		case d.End() <= pos:
			return -1
		case d.Pos() > pos:
			return 1
		}
		return 0
	})
	if i == len(file.Decls) || file.Decls[i].Pos() > pos {
		return "package-level"
	}
	decl := file.Decls[i]
	lit := false // pos is inside a function literal
	ast.Inspect(decl, func(n ast.Node) bool {
		if n == nil || lit || pos < n.Pos() || pos >= n.End() {
			return false
		}
		_, lit = n.(*ast.FuncLit)
		return !lit
	})
	name := "package-level"
	if fd, ok := decl.(*ast.FuncDecl); ok {
		name = funcDeclName(fd)
	}
	if lit {
		return "func literal in " + name
	}
	return name
}

// funcDeclName returns "F", "T.M" or "(*T).M", without type parameters.
func funcDeclName(decl *ast.FuncDecl) string {
	if decl.Recv == nil || len(decl.Recv.List) == 0 {
		return decl.Name.Name
	}
	t := decl.Recv.List[0].Type
	star := false
	if p, ok := t.(*ast.StarExpr); ok {
		star, t = true, p.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	recv := types.ExprString(t)
	if star {
		return "(*" + recv + ")." + decl.Name.Name
	}
	return recv + "." + decl.Name.Name
}

// baseline is a set of accepted findings.
type baseline struct {
	hashes map[string]bool
}

// baselineFile is the on-disk form; entries carry the readable parts
// of the fingerprint so that reviewers can see what was accepted.
type baselineFile struct {
	Version  int           `json:"version"`
	Findings []baselineRow `json:"findings"`
}

type baselineRow struct {
	fingerprint
	Message string `json:"message"`
}

const baselineVersion = 1

func readBaseline(name string) (*baseline, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("reading baseline: %v", err)
	}
	var bf baselineFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&bf); err != nil {
		return nil, fmt.Errorf("malformed baseline %s: %v", name, err)
	}
	if bf.Version != baselineVersion {
		return nil, fmt.Errorf("malformed baseline %s: version %d, want %d", name, bf.Version, baselineVersion)
	}
	b := &baseline{hashes: make(map[string]bool)}
	for i, row := range bf.Findings {
		if row.Hash == "" {
			return nil, fmt.Errorf("malformed baseline %s: finding %d has no fingerprint", name, i)
		}
		b.hashes[row.Hash] = true
	}
	return b, nil
}

// filter returns the findings that are not in the baseline: neither
// their fingerprint nor, for a grouped finding, the fingerprints of all
// its sites as findings of their own (a baseline written before they
// were grouped).
func (b *baseline) filter(findings []*finding) []*finding {
	return slices.DeleteFunc(findings, func(f *finding) bool {
		return b.hashes[f.fp.Hash] || len(f.legacy) > 0 && !slices.ContainsFunc(f.legacy, func(h string) bool { return !b.hashes[h] })
	})
}

func writeBaseline(name string, findings []*finding) error {
	bf := baselineFile{Version: baselineVersion, Findings: []baselineRow{}}
	for _, f := range findings {
		bf.Findings = append(bf.Findings, baselineRow{f.fp, f.diag.Message})
	}
	// Sort without line numbers, so that the file changes only when
	// the findings do.
	slices.SortStableFunc(bf.Findings, func(a, b baselineRow) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Func, b.Func),
			cmp.Compare(a.Analyzer, b.Analyzer), cmp.Compare(a.Code, b.Code), cmp.Compare(a.Index, b.Index))
	})
	data, err := json.MarshalIndent(bf, "", "\t")
	if err != nil {
		return err
	}
	if err := os.WriteFile(name, append(data, '\n'), 0o666); err != nil {
		return fmt.Errorf("writing baseline: %v", err)
	}
	return nil
}
