package driver

import (
	"bytes"
	"cmp"
	"encoding/json"
	"go/doc/comment"
	"go/token"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"
)

// SARIF 2.1.0, as much of it as GitHub code scanning reads, plus fixes.
// https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool               sarifTool                        `json:"tool"`
		OriginalURIBaseIDs map[string]sarifArtifactLocation `json:"originalUriBaseIds,omitempty"`
		Results            []sarifResult                    `json:"results"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		Version        string      `json:"version,omitempty"`
		InformationURI string      `json:"informationUri"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID                   string             `json:"id"`
		ShortDescription     sarifMessage       `json:"shortDescription"`
		FullDescription      sarifMessage       `json:"fullDescription"`
		HelpURI              string             `json:"helpUri,omitempty"`
		Help                 sarifHelp          `json:"help"`
		DefaultConfiguration sarifConfiguration `json:"defaultConfiguration"`
	}
	sarifConfiguration struct {
		Level string `json:"level"`
	}
	sarifMessage struct {
		Text string `json:"text"`
	}
	// sarifHelp is a rule's help: GitHub code scanning shows the
	// markdown, other viewers the text.
	sarifHelp struct {
		Text     string `json:"text"`
		Markdown string `json:"markdown"`
	}
	sarifResult struct {
		RuleID              string            `json:"ruleId"`
		RuleIndex           int               `json:"ruleIndex"`
		Level               string            `json:"level"`
		Message             sarifMessage      `json:"message"`
		Locations           []sarifLocation   `json:"locations"`
		RelatedLocations    []sarifLocation   `json:"relatedLocations,omitempty"`
		PartialFingerprints map[string]string `json:"partialFingerprints"`
		Properties          map[string]string `json:"properties,omitempty"`
		Fixes               []sarifFix        `json:"fixes,omitempty"`
	}
	sarifLocation struct {
		ID               *int                  `json:"id,omitempty"`
		PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
		Message          *sarifMessage         `json:"message,omitempty"`
	}
	sarifPhysicalLocation struct {
		ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
		Region           sarifRegion           `json:"region"`
	}
	sarifArtifactLocation struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId,omitempty"`
	}
	sarifRegion struct {
		StartLine   int  `json:"startLine,omitempty"`
		StartColumn int  `json:"startColumn,omitempty"`
		EndLine     int  `json:"endLine,omitempty"`
		EndColumn   int  `json:"endColumn,omitempty"`
		ByteOffset  *int `json:"byteOffset,omitempty"`
		ByteLength  *int `json:"byteLength,omitempty"`
	}
	sarifFix struct {
		Description     sarifMessage          `json:"description"`
		ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
	}
	sarifArtifactChange struct {
		ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
		Replacements     []sarifReplacement    `json:"replacements"`
	}
	sarifReplacement struct {
		DeletedRegion   sarifRegion      `json:"deletedRegion"`
		InsertedContent sarifTextContent `json:"insertedContent"`
	}
	sarifTextContent struct {
		Text string `json:"text"`
	}
)

const (
	sarifSchema     = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
	informationURI  = "https://github.com/retrylint/retrylint"
	srcRoot         = "%SRCROOT%"
	fingerprintName = "retrylint/v1"
)

func (d *run) printSARIF(w *bytes.Buffer, findings []*finding) error {
	root := repoRoot(d.cwd)
	rules := make(map[string]int)
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name:           "retrylint",
			Version:        version(),
			InformationURI: informationURI,
			Rules:          []sarifRule{},
		}},
		OriginalURIBaseIDs: map[string]sarifArtifactLocation{
			srcRoot: {URI: (&url.URL{Scheme: "file", Path: filepath.ToSlash(root) + "/"}).String()},
		},
		Results: []sarifResult{},
	}
	for _, a := range d.opts.analyzers {
		rules[a.Name] = len(run.Tool.Driver.Rules)
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{
			ID:                   a.Name,
			ShortDescription:     sarifMessage{firstLine(a.Doc)},
			FullDescription:      sarifMessage{strings.TrimSpace(a.Doc)},
			HelpURI:              a.URL,
			Help:                 ruleHelp(a),
			DefaultConfiguration: sarifConfiguration{Level: "warning"},
		})
	}

	for _, f := range findings {
		fset := f.pkg.Fset
		res := sarifResult{
			RuleID:              f.analyzer.Name,
			RuleIndex:           rules[f.analyzer.Name],
			Level:               "warning",
			Message:             sarifMessage{f.diag.Message},
			Locations:           []sarifLocation{{PhysicalLocation: d.sarifPhysical(root, f.posn, f.end)}},
			PartialFingerprints: map[string]string{fingerprintName: f.fp.Hash},
		}
		if f.diag.Category != "" {
			res.Properties = map[string]string{"category": f.diag.Category}
		}
		for i, r := range f.diag.Related {
			id := i + 1
			res.RelatedLocations = append(res.RelatedLocations, sarifLocation{
				ID:               &id,
				PhysicalLocation: d.sarifPhysical(root, fset.Position(r.Pos), fset.Position(cmp.Or(r.End, r.Pos))),
				Message:          &sarifMessage{r.Message},
			})
		}
		for _, fix := range f.diag.SuggestedFixes {
			if len(fix.TextEdits) == 0 {
				continue // SARIF requires at least one change
			}
			res.Fixes = append(res.Fixes, sarifFixOf(fset, root, fix))
		}
		run.Results = append(run.Results, res)
	}

	data, err := json.MarshalIndent(sarifLog{Schema: sarifSchema, Version: "2.1.0", Runs: []sarifRun{run}}, "", "  ")
	if err != nil {
		return err
	}
	w.Write(data)
	w.WriteByte('\n')
	return nil
}

func (d *run) sarifPhysical(root string, start, end token.Position) sarifPhysicalLocation {
	if !end.IsValid() {
		end = start
	}
	return sarifPhysicalLocation{
		ArtifactLocation: artifactLocation(root, start.Filename),
		Region: sarifRegion{
			StartLine:   start.Line,
			StartColumn: d.utf16Column(start),
			EndLine:     end.Line,
			EndColumn:   d.utf16Column(end),
		},
	}
}

// utf16Column converts Go's byte column to SARIF's default column
// kind, UTF-16 code units, which GitHub uses to place the highlight.
func (d *run) utf16Column(p token.Position) int {
	data := d.readFile(p.Filename)
	lineStart := p.Offset - (p.Column - 1)
	if lineStart < 0 || p.Offset > len(data) {
		return p.Column
	}
	n := 0
	for s := data[lineStart:p.Offset]; len(s) > 0; {
		r, size := utf8.DecodeRune(s)
		n += utf16.RuneLen(r)
		s = s[size:]
	}
	return n + 1
}

// ruleHelp returns the analyzer's documentation as a rule's help: its
// Doc as written (Go doc comment syntax) for the text, converted to
// Markdown for the markdown, each ending with a link to the docs.
func ruleHelp(a *analysis.Analyzer) sarifHelp {
	text := strings.TrimSpace(a.Doc)
	var p comment.Parser
	md := strings.TrimSpace(string((&comment.Printer{}).Markdown(p.Parse(text))))
	if a.URL != "" {
		text += "\n\nDocumentation: " + a.URL
		md += "\n\n[Documentation](" + a.URL + ")"
	}
	return sarifHelp{Text: text, Markdown: md}
}

func sarifFixOf(fset *token.FileSet, root string, fix analysis.SuggestedFix) sarifFix {
	byFile := make(map[string][]sarifReplacement)
	for _, e := range fix.TextEdits {
		start, end := fset.Position(e.Pos), fset.Position(cmp.Or(e.End, e.Pos))
		off, n := start.Offset, end.Offset-start.Offset
		byFile[start.Filename] = append(byFile[start.Filename], sarifReplacement{
			DeletedRegion:   sarifRegion{ByteOffset: &off, ByteLength: &n},
			InsertedContent: sarifTextContent{string(e.NewText)},
		})
	}
	sf := sarifFix{Description: sarifMessage{fix.Message}, ArtifactChanges: []sarifArtifactChange{}}
	for _, name := range slices.Sorted(maps.Keys(byFile)) {
		sf.ArtifactChanges = append(sf.ArtifactChanges, sarifArtifactChange{
			ArtifactLocation: artifactLocation(root, name),
			Replacements:     byFile[name],
		})
	}
	return sf
}

// artifactLocation makes filename relative to the source root, as
// code scanning requires, or an absolute file URI outside it.
func artifactLocation(root, filename string) sarifArtifactLocation {
	if r, err := filepath.Rel(root, filename); err == nil && filepath.IsLocal(r) {
		return sarifArtifactLocation{URI: (&url.URL{Path: filepath.ToSlash(r)}).String(), URIBaseID: srcRoot}
	}
	return sarifArtifactLocation{URI: (&url.URL{Scheme: "file", Path: filepath.ToSlash(filename)}).String()}
}

// repoRoot returns the root of the version-control repository holding
// dir (the nearest directory with a .git entry), or dir itself.
func repoRoot(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}
