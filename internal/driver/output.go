package driver

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"

	"golang.org/x/tools/go/analysis"
)

// print writes the findings to w in the chosen format, all at once, so
// that a failure leaves no half-written report.
func (d *run) print(w io.Writer, findings []*finding) error {
	var buf bytes.Buffer
	switch d.opts.format {
	case "json":
		d.printJSON(&buf, findings)
	case "sarif":
		if err := d.printSARIF(&buf, findings); err != nil {
			return err
		}
	default:
		d.printText(&buf, findings)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// printText prints "path:line:col: message (analyzer)", then the
// context lines if -c is set, then each related position indented.
func (d *run) printText(w *bytes.Buffer, findings []*finding) {
	for _, f := range findings {
		fmt.Fprintf(w, "%s: %s (%s)\n", posString(f.posn, d.rel), f.diag.Message, f.analyzer.Name)
		d.context(w, f.posn.Filename, f.posn.Line, f.end.Line)
		for _, r := range f.diag.Related {
			posn := f.pkg.Fset.Position(r.Pos)
			fmt.Fprintf(w, "\t%s: %s\n", posString(posn, d.rel), r.Message)
		}
		switch n := unlisted(f); {
		case n == 1:
			fmt.Fprintf(w, "\t… and 1 more site (-json lists them all)\n")
		case n > 1:
			fmt.Fprintf(w, "\t… and %d more sites (-json lists them all)\n", n)
		}
	}
}

// unlisted returns how many sites of a grouped finding are neither where
// it stands nor among its related positions.
func unlisted(f *finding) int {
	n := 0
	for _, s := range f.sites {
		if s.Pos != f.diag.Pos && !slices.ContainsFunc(f.diag.Related, func(r analysis.RelatedInformation) bool { return r.Pos == s.Pos }) {
			n++
		}
	}
	return n
}

func (d *run) context(w *bytes.Buffer, filename string, first, last int) {
	n := d.opts.context
	if n < 0 {
		return
	}
	lines := d.fileLines(filename)
	for i := max(first-n, 1); i <= min(max(last, first)+n, len(lines)); i++ {
		fmt.Fprintf(w, "%d\t%s\n", i, lines[i-1])
	}
}

// The JSON output has the shape of go vet -json, so that tools that
// read one read the other: package ID → analyzer → diagnostics.
type (
	jsonTree       map[string]map[string][]jsonDiagnostic
	jsonDiagnostic struct {
		Category       string        `json:"category,omitempty"`
		Posn           string        `json:"posn"`
		End            string        `json:"end"`
		Message        string        `json:"message"`
		SuggestedFixes []jsonFix     `json:"suggested_fixes,omitempty"`
		Related        []jsonRelated `json:"related,omitempty"`
		// Sites are every site a grouped finding stands for, its
		// related positions listing at most ten (an extension of go
		// vet's shape).
		Sites []string `json:"sites,omitempty"`
	}
	jsonFix struct {
		Message string     `json:"message"`
		Edits   []jsonEdit `json:"edits"`
	}
	jsonEdit struct {
		Filename string `json:"filename"`
		Start    int    `json:"start"`
		End      int    `json:"end"`
		New      string `json:"new"`
	}
	jsonRelated struct {
		Posn    string `json:"posn"`
		End     string `json:"end"`
		Message string `json:"message"`
	}
)

func (d *run) printJSON(w *bytes.Buffer, findings []*finding) {
	tree := make(jsonTree)
	for _, f := range findings {
		fset := f.pkg.Fset
		jd := jsonDiagnostic{
			Category: f.diag.Category,
			Posn:     f.posn.String(),
			End:      f.end.String(),
			Message:  f.diag.Message,
		}
		for _, fix := range f.diag.SuggestedFixes {
			jf := jsonFix{Message: fix.Message, Edits: []jsonEdit{}}
			for _, e := range fix.TextEdits {
				start := fset.Position(e.Pos)
				jf.Edits = append(jf.Edits, jsonEdit{
					Filename: start.Filename,
					Start:    start.Offset,
					End:      fset.Position(cmp.Or(e.End, e.Pos)).Offset,
					New:      string(e.NewText),
				})
			}
			jd.SuggestedFixes = append(jd.SuggestedFixes, jf)
		}
		for _, r := range f.diag.Related {
			jd.Related = append(jd.Related, jsonRelated{
				Posn:    fset.Position(r.Pos).String(),
				End:     fset.Position(cmp.Or(r.End, r.Pos)).String(),
				Message: r.Message,
			})
		}
		for _, s := range f.sites {
			jd.Sites = append(jd.Sites, fset.Position(s.Pos).String())
		}
		m := tree[f.pkg.ID]
		if m == nil {
			m = make(map[string][]jsonDiagnostic)
			tree[f.pkg.ID] = m
		}
		m[f.analyzer.Name] = append(m[f.analyzer.Name], jd)
	}
	data, err := json.MarshalIndent(tree, "", "\t")
	if err != nil {
		panic(fmt.Sprintf("internal error: JSON marshaling failed: %v", err))
	}
	w.Write(data)
	w.WriteByte('\n')
}
