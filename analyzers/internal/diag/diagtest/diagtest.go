// Package diagtest checks grouped diagnostics in analysistest testdata:
// analysistest's // want comments pin a diagnostic's position and
// message, not its related positions, which for a grouped finding are
// the sites it stands for.
package diagtest

import (
	"go/ast"
	"go/token"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzers/internal/diag"
)

// Related checks the related positions of the grouped diagnostics in
// results: each must stand on a line whose "// related: TEXT" comment
// names a part of its message, and each such comment must be met by one.
// It also checks that every site of a group is in the group's Groups
// and that there are as many as its related positions say, or more when
// the related positions are capped at diag.MaxRelated.
func Related(t *testing.T, results []*analysistest.Result) {
	t.Helper()
	want := map[token.Position]string{}
	for _, res := range results {
		relatedComments(want, res.Pass.Fset, res.Pass.Files)
	}
	met := map[token.Position]bool{}
	for _, res := range results {
		groups, _ := res.Result.(*diag.Groups)
		for _, d := range res.Diagnostics {
			sites := groups.GroupSites(d.Pos, d.Category)
			if sites == nil {
				continue
			}
			for _, r := range d.Related {
				p := res.Pass.Fset.Position(r.Pos)
				line := token.Position{Filename: p.Filename, Line: p.Line}
				text, ok := want[line]
				switch {
				case !ok:
					t.Errorf("%v: related position %q of a grouped diagnostic has no // related comment", p, r.Message)
				case !strings.Contains(r.Message, text):
					t.Errorf("%v: related position says %q, want it to say %q", p, r.Message, text)
				}
				met[line] = true
			}
			if len(d.Related) >= diag.MaxRelated && len(sites) <= diag.MaxRelated {
				t.Errorf("%v: %d related positions but %d sites", res.Pass.Fset.Position(d.Pos), len(d.Related), len(sites))
			}
		}
	}
	for line, text := range want {
		if !met[line] {
			t.Errorf("%s:%d: no grouped diagnostic has a related position here saying %q", line.Filename, line.Line, text)
		}
	}
}

// relatedComments adds the "// related: TEXT" comments of files to out,
// by line.
func relatedComments(out map[token.Position]string, fset *token.FileSet, files []*ast.File) {
	for _, f := range files {
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if text, ok := strings.CutPrefix(c.Text, "// related: "); ok {
					p := fset.Position(c.Pos())
					out[token.Position{Filename: p.Filename, Line: p.Line}] = strings.TrimSpace(text)
				}
			}
		}
	}
}
